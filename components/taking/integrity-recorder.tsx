"use client";

import { useIntegrity } from "./use-integrity";

/**
 * Records the page's integrity signals (./use-integrity.ts) for a test with `record_integrity`:
 * rendered by the personal link's page above the start page or the test, so it stays mounted
 * when Start turns one into the other.
 */
export function IntegrityRecorder({ token, attempt }: { token: string; attempt: boolean }) {
  useIntegrity(token, attempt);
  return null;
}
