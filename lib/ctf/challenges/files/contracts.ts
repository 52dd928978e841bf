import { contract, prefixedParam } from "@/lib/kernel/contract";
import { pagingQuery } from "@/lib/kernel/paging";
import { deleted } from "@/lib/ctf/competitions/contracts";
import { challengeFileList, challengeFileView } from "./schemas";
import { MAX_FILE_NAME_LENGTH, MAX_FILES_PER_CHALLENGE } from "./rules";
import { challengeParams } from "@/lib/ctf/competitions/contracts";

/** A file of a challenge in the path. */
export const fileParams = challengeParams.extend({ file_id: prefixedParam("fil", "File") });

const download =
  "Answered as an attachment (`Content-Disposition: attachment` with the uploaded name), `Content-Type` the uploaded type only when it is a safe one (archives, PDF, plain text, images but SVG…), else `application/octet-stream`; `X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox`, `Repr-Digest` with the SHA-256.";
const whileEditable = `While the challenge can be edited (draft, unpublished, publish_failed, generation_failed) and the competition is not archived: else 409, as for PATCH.`;

/** Challenge files: the organiser's routes (/api/v1, an API key or the dashboard's session) and the players' download. */
export const fileContracts = {
  list: contract({
    id: "challenges.files.list",
    method: "GET",
    path: "/api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/files",
    caller: "workspace",
    scope: "ctf:read",
    params: challengeParams,
    query: pagingQuery,
    status: 200,
    response: challengeFileList,
    docs: { tag: "Challenges", summary: "List a challenge's files", description: "Oldest first: name, size, content type, SHA-256." },
  }),
  upload: contract({
    id: "challenges.files.upload",
    method: "POST",
    path: "/api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/files",
    caller: "workspace",
    scope: "ctf:write",
    params: challengeParams,
    upload: { field: "file", description: "The file; its filename is the name players download it under." },
    status: 201,
    response: challengeFileView,
    docs: {
      tag: "Challenges",
      summary: "Upload a file to a challenge",
      description:
        "`multipart/form-data` with the file in a part named `file` (`curl -F file=@capture.pcap`); one file per request. " +
        `At most FILE_MAX_BYTES (10 MB by default): 413 beyond. The name must be 1–${MAX_FILE_NAME_LENGTH} characters, not a path (no \`/\` or \`\\\`), without control characters or direction overrides, not only dots: else 422 on \`file\`. ` +
        `At most ${MAX_FILES_PER_CHALLENGE} files per challenge (409). ${whileEditable}`,
      errors: [409],
    },
  }),
  download: contract({
    id: "challenges.files.download",
    method: "GET",
    path: "/api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/files/{file_id}",
    caller: "workspace",
    scope: "ctf:read",
    params: fileParams,
    status: 200,
    produces: "application/octet-stream",
    docs: { tag: "Challenges", summary: "Download a challenge's file", description: `The organiser's copy, in any state of the challenge. ${download}` },
  }),
  remove: contract({
    id: "challenges.files.delete",
    method: "DELETE",
    path: "/api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/files/{file_id}",
    caller: "workspace",
    scope: "ctf:write",
    params: fileParams,
    status: 200,
    response: deleted,
    docs: { tag: "Challenges", summary: "Delete a challenge's file", description: `The file and its stored bytes. ${whileEditable}`, errors: [409] },
  }),
  playerDownload: contract({
    id: "play.files.download",
    method: "GET",
    path: "/api/c/{ctf_id}/challenges/{challenge_id}/files/{file_id}",
    caller: "player",
    params: fileParams,
    status: 200,
    produces: "application/octet-stream",
    docs: {
      tag: "Players",
      summary: "Download a challenge's file",
      description: `A file of a published challenge, while the competition runs (409 \`conflict\` otherwise, the message giving the time). A challenge locked for the player or their team (additive: its \`requires\` not all solved) → 409 \`Locked: solve “…” first.\`. Another competition's challenge → 404. ${download}`,
      errors: [409],
    },
  }),
};
