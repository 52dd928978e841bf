import { useTranslations } from "next-intl";
import { Fragment, type Ref } from "react";
import { Card } from "@/components/ui/card";
import type { TakingView } from "@/lib/certification/taking/taking";
import { includesOption, isComplete, type AnswerValue } from "./answer-value";

type Question = TakingView["questions"][number];

type Props = {
  questions: TakingView["questions"];
  answers: Record<number, AnswerValue>;
  onJump: (index: number) => void;
  headingRef: Ref<HTMLHeadingElement>;
};

/** Before submitting: every question with the answer chosen (or "Not answered"), each a jump back to it. */
export function ReviewPanel({ questions, answers, onJump, headingRef }: Props) {
  const t = useTranslations("taking.review");
  const left = questions.filter((question) => !isComplete(question, answers[question.id])).length;
  return (
    <Card>
      <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold">
        {t("heading")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {left ? t("left", { count: left }) : t("allAnswered")} {t("goBack")}
      </p>
      <ol className="mt-3 space-y-2" data-testid="review-list">
        {questions.map((question, index) => (
          <li key={question.id}>
            <ReviewItem question={question} number={index + 1} chosen={answers[question.id]} onJump={() => onJump(index)} />
          </li>
        ))}
      </ol>
    </Card>
  );
}

/**
 * One question as a button back to it: its number and text (two lines at most on screen; the
 * whole text is in the button's name), then the option(s) chosen, or "Not answered".
 */
function ReviewItem({ question, number, chosen, onJump }: { question: Question; number: number; chosen: AnswerValue | undefined; onJump: () => void }) {
  const t = useTranslations("taking.review");
  const complete = isComplete(question, chosen);
  const picked = question.options.filter((_, position) => includesOption(chosen, position));
  return (
    <button
      type="button"
      data-testid="review-item"
      data-answered={complete ? "true" : "false"}
      onClick={onJump}
      className={`flex min-h-11 w-full min-w-0 flex-col gap-1 rounded-md border px-3 py-2 text-left text-sm hover:bg-slate-50 ${
        complete ? "border-slate-200" : "border-amber-300 bg-amber-50"
      }`}
    >
      <span className="flex min-w-0 items-start gap-3">
        <span className="shrink-0 font-semibold text-brand-700 underline">{t("question", { number })}</span>{" "}
        <span data-testid="review-prompt" className="line-clamp-2 min-w-0 wrap-anywhere text-slate-800">
          {question.prompt}
        </span>
      </span>{" "}
      {complete ? (
        <span data-testid="review-answer" className="block min-w-0 text-slate-700">
          <span className="font-medium">{t("yourAnswer", { count: picked.length })}</span>{" "}
          {picked.map((option, position) => (
            <Fragment key={position}>
              <span data-testid="review-option" className="line-clamp-2 block wrap-anywhere">
                {option}
              </span>{" "}
            </Fragment>
          ))}
        </span>
      ) : (
        <span data-testid="review-answer" className="block font-medium text-amber-900">
          {Array.isArray(chosen) && chosen.length > 0 ? t("partial", { checked: chosen.length, choose: question.choose }) : t("notAnswered")}
        </span>
      )}
    </button>
  );
}
