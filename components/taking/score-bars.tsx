import type { DomainResultView as DomainResult } from "@/lib/tests/schemas";

function barColor(percent: number): string {
  if (percent >= 70) return "bg-green-600";
  if (percent >= 50) return "bg-amber-500";
  return "bg-red-600";
}

/** A plain bar; the numbers next to it carry the meaning, so it is hidden from screen readers. */
export function ScoreBar({ percent }: { percent: number }) {
  const width = Math.max(0, Math.min(100, percent));
  return (
    <div aria-hidden="true" className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200">
      <div className={`h-full rounded-full ${barColor(percent)}`} style={{ width: `${width}%` }} />
    </div>
  );
}

export function DomainBars({ domains }: { domains: DomainResult[] }) {
  return (
    <ul className="space-y-4">
      {domains.map((domain) => (
        <li key={domain.id} data-testid="domain-result" data-domain={domain.name} className="space-y-1.5">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 text-sm">
            <span className="font-medium text-slate-800">{domain.name}</span>
            <span className="text-slate-600">
              <span className="font-semibold text-slate-900">{domain.percent}%</span>
              {domain.questions !== undefined ? ` · ${domain.correct} of ${domain.questions} correct` : null}
            </span>
          </div>
          <ScoreBar percent={domain.percent} />
        </li>
      ))}
    </ul>
  );
}
