/**
 * What a page says while the database is unavailable. Shared by the server (proxy.ts, the
 * error a page throws) and the browser (error.tsx), so nothing here imports anything.
 *
 * A server component's error reaches error.tsx with its message hidden in production, but
 * with its `digest`: Next keeps a digest the error already carries. This one tells
 * error.tsx to show the "temporarily unavailable" page instead of a generic error.
 */
export const UNAVAILABLE_DIGEST = "certify:service-unavailable";

export const unavailableCopy = {
  title: "Temporarily unavailable",
  body: "We cannot reach our database for a moment. Nothing you saved is lost. This page tries again by itself every few seconds.",
  retry: "Try again",
} as const;

/** How long the unavailable page waits before it loads the page again by itself (also its `Retry-After`). */
export const UNAVAILABLE_RETRY_SECONDS = 5;
