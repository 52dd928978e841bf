"use client";

import { useQuery, type DefinedUseQueryResult, type QueryKey, type UseQueryOptions, type UseQueryResult } from "@tanstack/react-query";
import { useState } from "react";

type PageQueryOptions<T> = Omit<UseQueryOptions<T, Error, T, QueryKey>, "initialData" | "refetchOnMount"> & {
  /** What the server rendered the page with (undefined: nothing, the query loads it). */
  initial: T | undefined;
};

/**
 * A query whose first data came with the page from the server. The server read it just now, so
 * it is newer than a copy the browser's cache kept from an earlier visit (TanStack Query would
 * otherwise show that copy and ignore `initialData`): until the cache holds data read after the
 * page was shown, the page's own data is what renders, and an older copy is read again at once.
 */
export function usePageQuery<T>(options: PageQueryOptions<T> & { initial: T }): DefinedUseQueryResult<T, Error>;
export function usePageQuery<T>(options: PageQueryOptions<T>): UseQueryResult<T, Error>;
export function usePageQuery<T>({ initial, ...options }: PageQueryOptions<T>): UseQueryResult<T, Error> {
  const [shownAt] = useState(() => Date.now());
  const query = useQuery<T, Error, T, QueryKey>({
    ...options,
    initialData: initial,
    refetchOnMount: (cached) => (initial !== undefined && cached.state.dataUpdatedAt < shownAt ? "always" : true),
  });
  if (initial === undefined || query.dataUpdatedAt >= shownAt) return query;
  return { ...query, data: initial } as UseQueryResult<T, Error>;
}
