import { otherMethods } from "@/lib/platform/http/unrouted";
import { importCtfdContracts } from "@/lib/ctf/challenges/import-ctfd/contracts";
import { importCtfdArchive } from "@/lib/ctf/challenges/import-ctfd/import";
import { handle } from "@/lib/registry/handle";

// POST /api/v1/ctfs/{ctf_id}/import/ctfd – draft challenges from a CTFd export (the zip as the body, or multipart part `file`)
export const POST = handle(importCtfdContracts.importCtfd, ({ db, workspaceId, params, query, body }) => importCtfdArchive(db, workspaceId, params.ctf_id, body, query));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
