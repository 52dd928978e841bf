import { useLocale, useTranslations } from "next-intl";
import type { DomainResultView as DomainResult } from "@/lib/certification/tests/schemas";
import { formatPercent } from "@/lib/platform/i18n/percent";

/** "85%", "66.7%" in English, "66,7 %" in German: a result's percent (0–100, one decimal) in the page's locale, as the e-mails write it. */
export function usePercent(): (percent: number) => string {
  const locale = useLocale();
  return (percent) => formatPercent(locale, percent);
}

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
  const t = useTranslations("taking.result");
  const percent = usePercent();
  return (
    <ul className="space-y-4">
      {domains.map((domain) => (
        <li key={domain.id} data-testid="domain-result" data-domain={domain.name} className="space-y-1.5">
          {/* The name wraps in its own column; the numbers keep theirs, on the name's first line, at every width. */}
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="min-w-0 wrap-anywhere font-medium text-slate-800" data-testid="domain-name">
              {domain.name}
            </span>
            <span className="shrink-0 text-right text-slate-600" data-testid="domain-score">
              <span className="font-semibold text-slate-900">{percent(domain.percent)}</span>
              {domain.questions !== undefined ? (
                <span className="block text-xs sm:inline sm:text-sm">
                  <span className="hidden sm:inline"> · </span>
                  {t("domainCorrect", { correct: domain.correct, questions: domain.questions })}
                </span>
              ) : null}
            </span>
          </div>
          <ScoreBar percent={domain.percent} />
        </li>
      ))}
    </ul>
  );
}
