import { downloadResponse } from "@/lib/api/download";
import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { deploymentFileDownload } from "@/lib/ctf/deployment-content";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployment-play-contracts";

// A deployment's player downloads a file of its challenge (their cookie) while it is live.
export const GET = handle(play.fileDownload, async ({ db, player, params }) => downloadResponse(await deploymentFileDownload(db, player, params.file_id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
