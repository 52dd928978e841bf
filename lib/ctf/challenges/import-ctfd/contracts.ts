import { contract } from "@/lib/kernel/contract";
import { ctfParams } from "@/lib/ctf/competitions/contracts";
import { formatBytes } from "@/lib/kernel/values";
import { ARCHIVE_MAX_BYTES, ARCHIVE_MAX_ENTRIES, MAX_IMPORTED_CHALLENGES, READ_MAX_BYTES, TABLE_MAX_BYTES } from "./limits";
import { FALLBACK_CATEGORY } from "./categories";
import { ctfdImportReport, importCtfdQuery } from "./schemas";

/** Bringing challenges over from a CTFd export (docs/competition-api.md, "Import from CTFd"). */
export const importCtfdContracts = {
  importCtfd: contract({
    id: "challenges.import_ctfd",
    method: "POST",
    path: "/api/v1/ctfs/{ctf_id}/import/ctfd",
    caller: "workspace",
    scope: "ctf:write",
    params: ctfParams,
    query: importCtfdQuery,
    binaryFile: {
      field: "file",
      description: "The zip CTFd's admin export produces (Admin → Config → Backup → Export).",
      mediaTypes: ["application/zip"],
    },
    maxBodyBytes: ARCHIVE_MAX_BYTES,
    status: 201,
    response: ctfdImportReport,
    docs: {
      tag: "Challenges",
      summary: "Import challenges from a CTFd export",
      description:
        "The export zip as the body (`Content-Type: application/zip`) or as the part `file` of multipart/form-data. Every challenge with a static or regex flag becomes a draft " +
        "challenge of the competition with its hints and costs, tags, files, prerequisites (mapped to the new ids), attempt cap and dynamic value (logarithmic decay); " +
        "`skipped` lists those without a usable flag, `notes` what each lost on the way (second flags, a linear decay, an unknown type, a category put in " +
        `\`${FALLBACK_CATEGORY}\`…). A malformed archive (not a zip, no \`db/challenges.json\`, bad JSON, a row naming an unknown challenge, a file \`db/files.json\` names ` +
        "missing from `uploads/`) imports nothing: 422 naming the entry. " +
        `Limits: the archive ${formatBytes(ARCHIVE_MAX_BYTES)} (413), ${ARCHIVE_MAX_ENTRIES} entries, each table read ${formatBytes(TABLE_MAX_BYTES)} and each file FILE_MAX_BYTES inflated, ` +
        `${formatBytes(READ_MAX_BYTES)} inflated in all (413 naming the entry), ${MAX_IMPORTED_CHALLENGES} challenges (422). \`dry_run=true\` reports without writing (still 201). ` +
        "An archived competition → 409.",
      errors: [409],
    },
  }),
};
