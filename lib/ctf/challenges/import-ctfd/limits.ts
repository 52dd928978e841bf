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
/** Everything read from the archive, inflated (413 beyond). */
export const READ_MAX_BYTES = 200 * MiB;
/** Challenges one archive may bring (422 beyond; a larger event is imported in parts). */
export const MAX_IMPORTED_CHALLENGES = 500;
