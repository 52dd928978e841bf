import type { AppError } from "@/lib/kernel/errors";
import { UNAVAILABLE_DIGEST } from "@/lib/kernel/unavailable";
import { toAppError } from "@/lib/kernel/to-app-error";
import { reportDatabaseError } from "@/lib/platform/database";

/**
 * `error` as the service_unavailable AppError (503 in a route; carrying the digest that
 * makes error.tsx show the unavailable page), or undefined when it is another failure.
 * A lost connection also marks the database down (see reportDatabaseError).
 */
export function asUnavailable(error: unknown): AppError | undefined {
  const appError = toAppError(error);
  if (appError.code !== "service_unavailable") return undefined;
  reportDatabaseError(error);
  if (appError !== error) appError.cause ??= error;
  return Object.assign(appError, { digest: UNAVAILABLE_DIGEST });
}

/** For server components: runs `load`, turning a database outage into the unavailable page. */
export async function loadForPage<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw asUnavailable(error) ?? error;
  }
}
