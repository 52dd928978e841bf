import { contract } from "@/lib/kernel/contract";
import { ctfParams } from "@/lib/ctf/competitions/contracts";
import { formatBytes } from "@/lib/kernel/values";
import { ARCHIVE_MAX_BYTES, ARCHIVE_MAX_ENTRIES, INFLATE_WAIT_MS, INFLATING_MAX, MAX_IMPORTED_CHALLENGES, READ_MAX_BYTES, TABLE_MAX_BYTES, TABLE_MAX_ROWS } from "./limits";
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
        "`skipped` lists those without a usable flag, `notes` what each lost or had changed on the way (second flags, a linear decay, an unknown type, a category put in " +
        `\`${FALLBACK_CATEGORY}\`, a name cut, a requirement that would close a circle, NUL characters removed…). A malformed archive (not a zip, no \`db/challenges.json\`, bad JSON, ` +
        "a row naming an unknown challenge, a file `db/files.json` names missing from `uploads/`, an entry whose bytes disagree with the size it declares) imports nothing: 422 naming the entry. " +
        `Limits: the archive ${formatBytes(ARCHIVE_MAX_BYTES)} (413), ${ARCHIVE_MAX_ENTRIES} entries, each table read ${formatBytes(TABLE_MAX_BYTES)} and ${TABLE_MAX_ROWS} rows, each file FILE_MAX_BYTES inflated, ` +
        `${formatBytes(READ_MAX_BYTES)} inflated in all (413 naming the entry), ${MAX_IMPORTED_CHALLENGES} challenges (422). Inflating runs off the main thread, ${INFLATING_MAX} archives at a time per server; ` +
        `another waits its turn up to ${INFLATE_WAIT_MS / 1000} s, then 503 with Retry-After. \`dry_run=true\` reports without writing (still 201). An archived competition → 409.`,
      errors: [409],
    },
  }),
};
