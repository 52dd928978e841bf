"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** The longest delay a timer takes (about 24.8 days); a later moment is caught by a later visit. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Reads the page again (no reload) just after `at`: a running competition's page turns into
 * its final scoreboard at `ends_at`, a live challenge's page into "no longer live".
 */
export function RefreshAt({ at }: { at: string }) {
  const router = useRouter();
  useEffect(() => {
    const wait = Date.parse(at) - Date.now();
    if (!(wait > 0) || wait > MAX_TIMER_MS) return;
    const timer = setTimeout(() => router.refresh(), wait + 1_000);
    return () => clearTimeout(timer);
  }, [at, router]);
  return null;
}
