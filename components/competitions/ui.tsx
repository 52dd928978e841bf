import { Badge } from "@/components/ui/badge";
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
