import { downloadResponse } from "@/lib/platform/http/download";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { fileContracts as files } from "@/lib/ctf/challenges/files/contracts";
import { playerFileDownload } from "@/lib/ctf/play/files";
import { handle } from "@/lib/registry/handle";

// A player downloads a challenge's file (their cookie) while the competition runs.
export const GET = handle(files.playerDownload, async ({ db, player, params }) => downloadResponse(await playerFileDownload(db, player, params.challenge_id, params.file_id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
