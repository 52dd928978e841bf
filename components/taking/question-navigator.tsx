import { useTranslations } from "next-intl";
import type { TakingView } from "@/lib/certification/taking/taking";
import { isComplete, type AnswerValue } from "./answer-value";

type Props = {
  questions: TakingView["questions"];
  answers: Record<number, AnswerValue>;
  current: number | null;
  onJump: (index: number) => void;
};

/** Numbered buttons, one per question; answered ones are filled and say so. */
export function QuestionNavigator({ questions, answers, current, onJump }: Props) {
  const t = useTranslations("taking.navigator");
  return (
    <nav aria-label={t("label")}>
      <h2 className="mb-2 text-sm font-medium text-slate-700">{t("label")}</h2>
      <ol className="grid grid-cols-[repeat(auto-fill,minmax(2.75rem,1fr))] gap-2">
        {questions.map((question, index) => {
          const answered = isComplete(question, answers[question.id]);
          const isCurrent = index === current;
          return (
            <li key={question.id}>
              <button
                type="button"
                onClick={() => onJump(index)}
                aria-label={t(answered ? "answered" : "unanswered", { number: index + 1 })}
                aria-current={isCurrent ? "step" : undefined}
                data-answered={answered ? "true" : "false"}
                className={`h-11 w-full rounded-md text-sm font-medium transition-colors ${
                  answered ? "bg-brand-600 text-white hover:bg-brand-700" : "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50"
                } ${isCurrent ? "ring-2 ring-slate-900 ring-offset-2" : ""}`}
              >
                {index + 1}
              </button>
            </li>
          );
        })}
      </ol>
      <p className="mt-2 text-xs text-slate-500">{t("legend")}</p>
    </nav>
  );
}
