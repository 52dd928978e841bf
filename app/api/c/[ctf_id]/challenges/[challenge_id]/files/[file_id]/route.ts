import { downloadResponse } from "@/lib/api/download";
import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { fileContracts as files } from "@/lib/ctf/file-contracts";
import { playerFileDownload } from "@/lib/ctf/files";

// A player downloads a challenge's file (their cookie) while the competition runs.
export const GET = handle(files.playerDownload, async ({ db, player, params }) => downloadResponse(await playerFileDownload(db, player, params.challenge_id, params.file_id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
