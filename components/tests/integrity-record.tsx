import type { ReactNode } from "react";
import type { IntegrityView } from "@/lib/certification/integrity/schemas";

/** Seconds as the trainer reads them: "45 s", "3 min 20 s", "2 h 5 min". */
function seconds(total: number): string {
  if (total < 60) return `${total} s`;
  if (total < 3600) return `${Math.floor(total / 60)} min${total % 60 ? ` ${total % 60} s` : ""}`;
  return `${Math.floor(total / 3600)} h${Math.floor((total % 3600) / 60) ? ` ${Math.floor((total % 3600) / 60)} min` : ""}`;
}

/**
 * The answer sheet's integrity record (the test's `record_integrity`): what was seen, to read
 * beside the answers, never a verdict. Nothing is shown when nothing was recorded.
 */
export function IntegrityRecord({ integrity }: { integrity: IntegrityView | null | undefined }) {
  if (!integrity) return null;
  const { start, submit, hidden } = integrity;
  return (
    <section className="rounded-md border border-slate-200 p-3 text-sm" data-testid="integrity-record" data-flagged={String(integrity.flagged)} aria-label="Integrity record">
      <h3 className="font-medium">
        Integrity record <span className="font-normal text-slate-500">{integrity.flagged ? "· something was seen" : "· nothing was seen"}</span>
      </h3>
      <dl className="mt-2 grid gap-x-4 gap-y-2 sm:grid-cols-2">
        <Item term="Start">{start ? <Seen address={start.address} browser={start.browser} /> : "Not recorded"}</Item>
        <Item term="Submit">{submit ? <Seen address={submit.address} browser={submit.browser} /> : "Not recorded"}</Item>
        <Item term="Browsers that opened the link" testId="integrity-browsers">
          {integrity.browsers}
        </Item>
        <Item term="Address changed" testId="integrity-address-changed">
          {integrity.address_changed ? "Yes" : "No"}
        </Item>
        <Item term="Page hidden" testId="integrity-hidden" data={hidden.count}>
          {hidden.count === 0 ? "Never" : `${hidden.count} ${hidden.count === 1 ? "time" : "times"}, ${seconds(hidden.seconds)} in all`}
        </Item>
        <Item term="Copy attempts" testId="integrity-copies">
          {integrity.copy_attempts}
        </Item>
        <Item term="Left full screen" testId="integrity-fullscreen">
          {integrity.fullscreen_exits}
        </Item>
      </dl>
    </section>
  );
}

function Seen({ address, browser }: { address: string | null; browser: string | null }) {
  return (
    <>
      <span className="block font-mono text-xs">{address ?? "address unknown"}</span>
      <span className="block text-xs text-slate-500 [overflow-wrap:anywhere]">{browser ?? "browser unknown"}</span>
    </>
  );
}

function Item({ term, testId, data, children }: { term: string; testId?: string; data?: number; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase text-slate-500">{term}</dt>
      <dd className="mt-0.5 [overflow-wrap:anywhere]" data-testid={testId} data-value={data}>
        {children}
      </dd>
    </div>
  );
}
