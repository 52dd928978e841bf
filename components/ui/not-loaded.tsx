import { Notice } from "./card";

/** What a page shows until its query has data: "Loading…", then why it could not be loaded. */
export function NotLoaded({ query, failure }: { query: { isLoading: boolean; error: Error | null }; failure: string }) {
  if (query.isLoading) return <p className="text-sm text-slate-600">Loading…</p>;
  return <Notice tone="error">{query.error?.message ?? failure}</Notice>;
}
