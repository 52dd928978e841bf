import { downloadResponse } from "@/lib/platform/http/download";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { deploymentFileDownload } from "@/lib/ctf/deployments/content";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployments/play-contracts";
import { handle } from "@/lib/registry/handle";

// A deployment's player downloads a file of its challenge (their cookie) while it is live.
export const GET = handle(play.fileDownload, async ({ db, player, params }) => downloadResponse(await deploymentFileDownload(db, player, params.file_id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
