/**
 * Rules of challenge files with no dependency, so the dashboard checks a chosen file with
 * the same rules the server applies.
 */

/** Files one challenge may carry. */
export const MAX_FILES_PER_CHALLENGE = 20;
/** Longest file name, in characters. */
export const MAX_FILE_NAME_LENGTH = 200;

// C0 and C1 controls, DEL, and the bidirectional overrides and isolates that make
// "invoice\u202Etxt.exe" display as "invoiceexe.txt".
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const forbidden = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * Why a file name is refused, or null. A name is only ever shown and sent in
 * Content-Disposition (storage keys never contain it), but a name that is a path, hides
 * characters or cannot be stored is refused rather than silently changed.
 */
export function fileNameProblem(name: string): string | null {
  if (!name.trim()) return "The file has no name.";
  if (name.length > MAX_FILE_NAME_LENGTH) return `The file name is longer than ${MAX_FILE_NAME_LENGTH} characters.`;
  if (!name.isWellFormed() || forbidden.test(name)) return "The file name contains control characters (NUL, line breaks, direction overrides…).";
  if (/[\\/]/.test(name)) return "The file name must be a name, not a path: no / or \\.";
  if (/^\.+$/.test(name)) return "The file name cannot be only dots.";
  if (name !== name.trim()) return "The file name must not start or end with spaces.";
  return null;
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,62}$/;

/** The uploaded type as `type/subtype` (lower case, parameters dropped); anything else is `application/octet-stream`. */
export function normaliseContentType(declared: string): string {
  const essence = declared.split(";")[0].trim().toLowerCase();
  return MEDIA_TYPE.test(essence) ? essence : "application/octet-stream";
}

