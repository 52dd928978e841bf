import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import type { SaveState } from "./answer-queue";

/** What happened to the current question's answer; a polite live region. */
export function SaveStatus({ answered, state, onRetry, unanswered }: { answered: boolean; state: SaveState | undefined; onRetry: () => void; unanswered?: string }) {
  return (
    <div aria-live="polite" className="min-h-11 text-sm">
      <StatusText answered={answered} state={state} onRetry={onRetry} unanswered={unanswered} />
    </div>
  );
}

function StatusText({ answered, state, onRetry, unanswered }: { answered: boolean; state: SaveState | undefined; onRetry: () => void; unanswered?: string }) {
  const t = useTranslations("taking.save");
  if (!answered) return <p className="py-2 text-slate-500">{unanswered ?? t("chooseAnswer")}</p>;
  if (!state || state.kind === "saved") return <p className="py-2 font-medium text-green-700">{t("saved")}</p>;
  if (state.kind === "saving") return <p className="py-2 text-slate-600">{t("saving")}</p>;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
      <p className="min-w-0 flex-1">
        {state.kind === "retrying"
          ? t(state.reason === "offline" ? "retryingOffline" : "retryingServer")
          : state.ended
            ? t("failedEnded")
            : t("failed", { message: state.message })}
      </p>
      <Button type="button" variant="secondary" className="min-h-11" onClick={onRetry}>
        {t("retry")}
      </Button>
    </div>
  );
}
