import type { Ref } from "react";
import { Card } from "@/components/ui/card";
import type { TakingView } from "@/lib/certification/taking/taking";
import type { SaveState } from "./answer-queue";
import { SaveStatus } from "./save-status";

type Props = {
  question: TakingView["questions"][number];
  number: number;
  total: number;
  chosen: number | undefined;
  saveState: SaveState | undefined;
  onChoose: (option: number) => void;
  onRetry: () => void;
  headingRef: Ref<HTMLHeadingElement>;
};

/** One question: the prompt is the legend of a group of real radio buttons. */
export function QuestionCard({ question, number, total, chosen, saveState, onChoose, onRetry, headingRef }: Props) {
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 ref={headingRef} tabIndex={-1} className="text-sm font-medium text-slate-500">
          Question {number} of {total}
        </h2>
        <p data-testid="question-domain" className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-700">
          {question.domain}
        </p>
      </div>
      <fieldset className="mt-3 min-w-0">
        <legend className="text-base font-medium break-words text-slate-900 sm:text-lg">{question.prompt}</legend>
        <div className="mt-4 space-y-2">
          {question.options.map((option, index) => (
            <label
              key={index}
              className="flex min-h-12 cursor-pointer items-start gap-3 rounded-md border border-slate-300 bg-white px-3 py-3 text-sm hover:bg-slate-50 has-checked:border-brand-600 has-checked:bg-brand-50 has-focus-visible:ring-2 has-focus-visible:ring-brand-600/30"
            >
              <input
                type="radio"
                name={`question-${question.id}`}
                value={index}
                checked={chosen === index}
                onChange={() => onChoose(index)}
                className="mt-0.5 size-4 shrink-0 accent-brand-600"
              />
              <span className="min-w-0 break-words">{option}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="mt-3">
        <SaveStatus answered={chosen !== undefined} state={saveState} onRetry={onRetry} />
      </div>
    </Card>
  );
}
