import { otherMethods } from "@/lib/platform/http/unrouted";
import { fileContracts as files } from "@/lib/ctf/challenges/files/contracts";
import { listChallengeFiles, uploadChallengeFile } from "@/lib/ctf/challenges/files/files";
import { handle } from "@/lib/registry/handle";

// GET /api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/files – a challenge's files
export const GET = handle(files.list, ({ db, workspaceId, params, query }) => listChallengeFiles(db, workspaceId, params.ctf_id, params.challenge_id, query));

// POST /api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/files – upload one (multipart/form-data, part `file`)
export const POST = handle(files.upload, ({ db, workspaceId, params, body }) => uploadChallengeFile(db, workspaceId, params.ctf_id, params.challenge_id, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
