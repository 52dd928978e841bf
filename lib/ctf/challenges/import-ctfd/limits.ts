/**
 * The bounds of an import from CTFd, with no dependency (the contract's text and the
 * dashboard's form say them too). ./archive.ts explains how they keep a zip bomb harmless.
 */
const MiB = 1024 * 1024;
/** The archive as sent (the route's body limit: 413 beyond). */
export const ARCHIVE_MAX_BYTES = 50 * MiB;
/** Entries in the archive's directory (422 beyond). */
export const ARCHIVE_MAX_ENTRIES = 10_000;
/** One `db/<table>.json` read, inflated (413 beyond). */
export const TABLE_MAX_BYTES = 16 * MiB;
/** Rows in one table read (422 beyond): 500 challenges with 40 flags, hints, tags or files each. */
export const TABLE_MAX_ROWS = 20_000;
/**
 * Everything read from the archive, inflated (413 beyond, before anything is inflated): an
 * archive at its 50 MiB bound of files that are already compressed (captures, binaries,
 * images) fits; what inflates far beyond is not an export. A larger event's files are
 * uploaded on their own.
 */
export const READ_MAX_BYTES = 64 * MiB;
/** Imports inflating at once per server process (./gate.ts); another waits its turn… */
export const INFLATING_MAX = 2;
/** …for up to this long, then 503… */
export const INFLATE_WAIT_MS = 10_000;
/** …with this Retry-After, in seconds. */
export const INFLATE_RETRY_AFTER = 5;
/** Challenges one archive may bring (422 beyond; a larger event is imported in parts). */
export const MAX_IMPORTED_CHALLENGES = 500;
