import { useTranslations } from "next-intl";
import type { Ref } from "react";
import { Card } from "@/components/ui/card";
import type { TakingView } from "@/lib/certification/taking/taking";
import { isComplete, type AnswerValue } from "./answer-value";

type Props = {
  questions: TakingView["questions"];
  answers: Record<number, AnswerValue>;
  onJump: (index: number) => void;
  headingRef: Ref<HTMLHeadingElement>;
};

/** Before submitting: which questions still need an answer, each a jump back to it. */
export function ReviewPanel({ questions, answers, onJump, headingRef }: Props) {
  const t = useTranslations("taking.review");
  const unanswered = questions.map((question, index) => ({ question, index })).filter(({ question }) => !isComplete(question, answers[question.id]));
  return (
    <Card>
      <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold">
        {t("heading")}
      </h2>
      {unanswered.length ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {t("left", { count: unanswered.length })}
          </p>
          <ul className="mt-3 space-y-2">
            {unanswered.map(({ question, index }) => (
              <li key={question.id}>
                <button
                  type="button"
                  data-testid="unanswered-item"
                  onClick={() => onJump(index)}
                  className="flex min-h-11 w-full items-start gap-3 rounded-md border border-slate-200 px-3 py-2 text-left text-sm hover:bg-slate-50"
                >
                  <span className="shrink-0 font-semibold text-brand-700 underline">{t("question", { number: index + 1 })}</span>
                  <span className="line-clamp-2 min-w-0 break-words text-slate-700">{question.prompt}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-600">{t("allAnswered")}</p>
      )}
    </Card>
  );
}
