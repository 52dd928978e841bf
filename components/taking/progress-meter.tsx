import { useTranslations } from "next-intl";

export function ProgressMeter({ answered, total }: { answered: number; total: number }) {
  const t = useTranslations("taking.progress");
  const text = t("answered", { answered, total });
  const percent = total ? Math.round((answered / total) * 100) : 0;
  return (
    <div
      data-testid="progress"
      role="progressbar"
      aria-label={t("label")}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={answered}
      aria-valuetext={text}
      className="space-y-1.5"
    >
      <p className="text-sm font-medium text-slate-700">{text}</p>
      <div className="h-2 w-full overflow-hidden rounded-full bg-slate-200">
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
