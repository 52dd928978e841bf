"use client";

import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { UNAVAILABLE_DIGEST, UNAVAILABLE_RETRY_SECONDS, unavailableCopy } from "@/lib/kernel/unavailable";

/** True for the error a page throws while the database is unavailable (see lib/platform/server/unavailable.ts). */
export function isUnavailable(error: unknown): boolean {
  return (error as { digest?: unknown } | null)?.digest === UNAVAILABLE_DIGEST;
}

/**
 * The page shown by error.tsx: "temporarily unavailable" during a database outage, a
 * generic apology for anything else. "Try again" reloads the whole page, so the server
 * decides afresh (and answers 503 from proxy.ts while the outage lasts); during an outage
 * the page also reloads itself every few seconds, as the proxy's page does.
 */
export function ErrorPage({
  error,
  otherwise,
  copy = { ...unavailableCopy, brand: "Certify" },
}: {
  error: unknown;
  otherwise: { title: string; body: string };
  /** The outage's wording and the brand line: English by default (the trainer area), a recipient's page passes its language's. */
  copy?: { title: string; body: string; retry: string; brand: string };
}) {
  const unavailable = isUnavailable(error);
  const { title, body } = unavailable ? copy : otherwise;
  useEffect(() => {
    if (!unavailable) return;
    const timer = window.setTimeout(() => window.location.reload(), UNAVAILABLE_RETRY_SECONDS * 1_000);
    return () => window.clearTimeout(timer);
  }, [unavailable]);
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col justify-center px-4 py-12" data-testid={unavailable ? "unavailable" : "error"}>
      <p className="mb-2 text-sm font-bold text-brand-600">{copy.brand}</p>
      <Card>
        <h1 className="text-xl font-semibold">{title}</h1>
        <p className="mt-2 text-sm text-slate-600">{body}</p>
        <Button type="button" className="mt-4 min-h-11" onClick={() => window.location.reload()}>
          {copy.retry}
        </Button>
      </Card>
    </main>
  );
}
