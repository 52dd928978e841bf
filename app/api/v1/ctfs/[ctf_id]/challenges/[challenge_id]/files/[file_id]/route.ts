import { downloadResponse } from "@/lib/platform/http/download";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { fileContracts as files } from "@/lib/ctf/challenges/files/contracts";
import { deleteChallengeFile, organiserFileDownload } from "@/lib/ctf/challenges/files/files";
import { handle } from "@/lib/registry/handle";

// GET …/files/{file_id} – the organiser downloads a file (an attachment)
export const GET = handle(files.download, async ({ db, workspaceId, params }) =>
  downloadResponse(await organiserFileDownload(db, workspaceId, params.ctf_id, params.challenge_id, params.file_id)),
);

// DELETE …/files/{file_id} – the file and its stored bytes
export const DELETE = handle(files.remove, ({ db, workspaceId, params }) => deleteChallengeFile(db, workspaceId, params.ctf_id, params.challenge_id, params.file_id));
export const { POST, PUT, PATCH, OPTIONS } = otherMethods({ GET, DELETE });
