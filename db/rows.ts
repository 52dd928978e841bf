/** `db.execute()` answers `{ rows }` on PGlite and an array on postgres.js: hidden here. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
