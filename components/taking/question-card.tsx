import { useTranslations } from "next-intl";
import type { Ref } from "react";
import { Card } from "@/components/ui/card";
import type { TakingView } from "@/lib/certification/taking/taking";
import type { SaveState } from "./answer-queue";
import { SaveStatus } from "./save-status";
import { includesOption, isComplete, toggled, type AnswerValue } from "./answer-value";

type Props = {
  question: TakingView["questions"][number];
  number: number;
  total: number;
  chosen: AnswerValue | undefined;
  saveState: SaveState | undefined;
  onChoose: (value: AnswerValue) => void;
  onRetry: () => void;
  headingRef: Ref<HTMLHeadingElement>;
};

/** One question: the prompt is the legend of a group of real radio buttons (check boxes for a multiple-response question). */
export function QuestionCard({ question, number, total, chosen, saveState, onChoose, onRetry, headingRef }: Props) {
  const t = useTranslations("taking.question");
  const multiple = question.type === "multiple";
  const checked = Array.isArray(chosen) ? chosen.length : 0;
  const full = checked >= question.choose;
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 ref={headingRef} tabIndex={-1} className="text-sm font-medium text-slate-500">
          {t("heading", { number, total })}
        </h2>
        <p data-testid="question-domain" className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-700">
          {question.domain}
        </p>
      </div>
      <fieldset className="mt-3 min-w-0">
        <legend className="text-base font-medium wrap-anywhere text-slate-900 sm:text-lg">{question.prompt}</legend>
        {multiple ? <ChooseHint id={`question-${question.id}-choose`} choose={question.choose} checked={checked} /> : null}
        <div className="mt-4 space-y-2">
          {question.options.map((option, index) => (
            <label
              key={index}
              className="flex min-h-12 cursor-pointer items-start gap-3 rounded-md border border-slate-300 bg-white px-3 py-3 text-sm hover:bg-slate-50 has-checked:border-brand-600 has-checked:bg-brand-50 has-focus-visible:ring-2 has-focus-visible:ring-brand-600/30"
            >
              <input
                type={multiple ? "checkbox" : "radio"}
                name={`question-${question.id}`}
                value={index}
                checked={includesOption(chosen, index)}
                disabled={multiple && full && !includesOption(chosen, index)}
                aria-describedby={multiple ? `question-${question.id}-choose` : undefined}
                onChange={() => onChoose(multiple ? toggled(chosen, index, question.choose) : index)}
                className="mt-0.5 size-4 shrink-0 accent-brand-600"
              />
              <span className="min-w-0 wrap-anywhere">{option}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="mt-3">
        <SaveStatus
          answered={isComplete(question, chosen)}
          state={saveState}
          onRetry={onRetry}
          unanswered={
            multiple
              ? saveState?.kind === "saved"
                ? t("notSavedUntil", { choose: question.choose })
                : t("checkToSave", { choose: question.choose })
              : undefined
          }
        />
      </div>
    </Card>
  );
}

/** "Choose 2", with how many are checked (the answer is saved only once that many are: SaveStatus says so). */
function ChooseHint({ id, choose, checked }: { id: string; choose: number; checked: number }) {
  const t = useTranslations("taking.question");
  return (
    <p id={id} className="mt-2 text-sm text-slate-700" data-testid="choose-hint">
      <span className="font-semibold">{t("choose", { choose })}</span>{" "}
      <span aria-live="polite" data-testid="choose-count">
        {t("chosen", { checked, choose })}
      </span>{" "}
      <span className="text-slate-500">
        {checked === choose ? t("uncheckFirst") : t("exactly", { choose })}
      </span>
    </p>
  );
}
