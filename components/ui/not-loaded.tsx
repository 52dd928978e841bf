import type { ReactNode } from "react";
import { Card, Notice } from "./card";

/** What a page shows until its query has data: "Loading…", then why it could not be loaded. */
export function NotLoaded({ query, failure }: { query: { isLoading: boolean; error: Error | null }; failure: string }) {
  if (query.isLoading) return <p className="text-sm text-slate-600">Loading…</p>;
  return <Notice tone="error">{query.error?.message ?? failure}</Notice>;
}

/**
 * What a page's list shows while it has no rows: "Loading…", why it could not be read (when
 * nothing was), or else `children` in a card: the list is empty.
 */
export function EmptyList({ loading, error, loaded, children }: { loading: boolean; error: Error | null; loaded: boolean; children: ReactNode }) {
  if (loading) return <p className="text-sm text-slate-600">Loading…</p>;
  if (error && !loaded) return <Notice tone="error">{error.message}</Notice>;
  return <Card>{children}</Card>;
}
