import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Card, Notice } from "@/components/ui/card";
import type { QueryState } from "@/components/ui/not-loaded";
import { statusStyles } from "./format";

/** A status as a coloured badge; the raw value stays readable by tests in data-status. */
export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  const style = statusStyles[status] ?? { label: status, tone: "neutral" as const };
  return (
    <span data-testid={testId} data-status={status} className="inline-flex">
      <Badge tone={style.tone}>{style.label}</Badge>
    </span>
  );
}

/** Host in use, explained once on the Competitions pages. */
export function HostNote({ host }: { host: string }) {
  return host === "ctfd" ? (
    <>
      Competitions are hosted on <span className="font-medium">CTFd</span>: deploying checks the configured CTFd instance, publishing creates the
      challenge there with its flag and hints, unpublishing hides it. Standalone deployments are served by this app at <code>/d/…</code>.
    </>
  ) : (
    <>
      Competitions are hosted by the <span className="font-medium">built-in host</span>: a deployed competition is served by this app at{" "}
      <code>/c/…</code> with its published challenges (and a join form when it is public), and a standalone deployment at <code>/d/…</code>. Your
      administrator can connect a CTFd instance instead.
    </>
  );
}

/**
 * The card of a competition's list (deployments, members): `notice` (a refused row action)
 * first, then what the list is while it is read, why it could not be, `empty` when it is, or
 * the list itself (`children` renders its rows).
 */
export function ListCard<T>({
  query,
  loading,
  empty,
  notice,
  children,
}: {
  query: QueryState<{ data: T[] }>;
  loading: string;
  empty: string;
  notice?: ReactNode;
  children: (list: T[]) => ReactNode;
}) {
  const list = query.data?.data;
  return (
    <Card className="p-0">
      {notice}
      {query.isLoading ? <p className="p-5 text-sm text-slate-600">{loading}</p> : null}
      {query.error && !list ? (
        <div className="p-4">
          <Notice tone="error">{query.error.message}</Notice>
        </div>
      ) : null}
      {list && list.length === 0 ? <p className="p-5 text-sm text-slate-600">{empty}</p> : null}
      {list?.length ? children(list) : null}
    </Card>
  );
}
