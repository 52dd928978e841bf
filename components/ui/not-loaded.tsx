import type { ReactNode } from "react";
import { Card, Notice } from "./card";

/** What these read of a query (TanStack Query's result has it). */
export type QueryState<T> = { isLoading: boolean; error: Error | null; data: T | undefined };

/** What a page shows until its query has data: "Loading…", then why it could not be loaded. */
export function NotLoaded({ query, failure }: { query: QueryState<unknown>; failure: string }) {
  if (query.isLoading) return <p className="text-sm text-slate-600">Loading…</p>;
  return <Notice tone="error">{query.error?.message ?? failure}</Notice>;
}

/**
 * What a page's list shows while it has no rows: "Loading…", why it could not be read (when
 * nothing was), or else `children` in a card: the list is empty.
 */
export function EmptyList({ query, children }: { query: QueryState<unknown>; children: ReactNode }) {
  if (query.isLoading) return <p className="text-sm text-slate-600">Loading…</p>;
  if (query.error && query.data === undefined) return <Notice tone="error">{query.error.message}</Notice>;
  return <Card>{children}</Card>;
}
