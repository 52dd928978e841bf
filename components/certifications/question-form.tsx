"use client";

import { useState, type ReactNode } from "react";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { MAX_OPTIONS, type QuestionView } from "@/lib/certification/manage-schemas";
import { certificationFieldLabel } from "./labels";

export type QuestionDraft = { prompt: string; options: string[]; correct: number; explanation: string };

export const emptyQuestion: QuestionDraft = { prompt: "", options: ["", "", "", ""], correct: 0, explanation: "" };

export function draftOf(question: QuestionView): QuestionDraft {
  return { prompt: question.prompt, options: [...question.options], correct: question.correct, explanation: question.explanation };
}

export const letter = (index: number) => String.fromCharCode(65 + index);

/**
 * A question's prompt, 2–8 options with a radio for the correct one, and explanation.
 * Empty trailing options are dropped on submit, so the 4 blank rows of a new question
 * can be used for 2 or 3 options.
 */
export function QuestionForm({
  idPrefix,
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
  children,
}: {
  idPrefix: string;
  initial: QuestionDraft;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (draft: QuestionDraft) => void;
  onCancel?: () => void;
  /** Extra fields shown first (the domain select of a new question). */
  children?: ReactNode;
}) {
  const [draft, setDraft] = useState<QuestionDraft>(initial);
  const setOption = (index: number, value: string) =>
    setDraft((d) => ({ ...d, options: d.options.map((option, i) => (i === index ? value : option)) }));
  const removeOption = (index: number) =>
    setDraft((d) => ({
      ...d,
      options: d.options.filter((_, i) => i !== index),
      correct: d.correct === index ? 0 : d.correct > index ? d.correct - 1 : d.correct,
    }));

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        // Blank options at the end are left out; a blank one in the middle is reported by the server.
        let options = [...draft.options];
        while (options.length > 2 && !options[options.length - 1].trim() && draft.correct < options.length - 1) options = options.slice(0, -1);
        onSubmit({ ...draft, options });
      }}
    >
      {children}
      <div className="space-y-1">
        <label htmlFor={`${idPrefix}-prompt`} className="block text-sm font-medium text-slate-700">
          Question
        </label>
        <textarea
          id={`${idPrefix}-prompt`}
          className={`${inputClass} min-h-20`}
          value={draft.prompt}
          required
          maxLength={2000}
          onChange={(e) => setDraft((d) => ({ ...d, prompt: e.target.value }))}
        />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Options: select the correct one</legend>
        {draft.options.map((option, index) => (
          <div key={index} className="flex items-center gap-2">
            <input
              type="radio"
              id={`${idPrefix}-correct-${index}`}
              name={`${idPrefix}-correct`}
              className="h-4 w-4 shrink-0"
              checked={draft.correct === index}
              onChange={() => setDraft((d) => ({ ...d, correct: index }))}
              aria-label={`Option ${letter(index)} is the correct one`}
            />
            <label htmlFor={`${idPrefix}-option-${index}`} className="w-5 shrink-0 text-sm font-medium text-slate-600">
              <span aria-hidden="true">{letter(index)}</span>
              <span className="sr-only">Option {letter(index)}</span>
            </label>
            <input
              id={`${idPrefix}-option-${index}`}
              className={`${inputClass} min-w-0`}
              value={option}
              maxLength={500}
              required={index < 2 || draft.correct === index}
              onChange={(e) => setOption(index, e.target.value)}
            />
            {draft.options.length > 2 ? (
              <Button type="button" variant="ghost" className="shrink-0 px-2" onClick={() => removeOption(index)} aria-label={`Remove option ${letter(index)}`}>
                ✕
              </Button>
            ) : null}
          </div>
        ))}
        {draft.options.length < MAX_OPTIONS ? (
          <Button type="button" variant="secondary" onClick={() => setDraft((d) => ({ ...d, options: [...d.options, ""] }))}>
            Add an option
          </Button>
        ) : null}
        <p className="text-xs text-slate-500">2 to {MAX_OPTIONS} options; empty ones at the end are left out.</p>
      </fieldset>
      <div className="space-y-1">
        <label htmlFor={`${idPrefix}-explanation`} className="block text-sm font-medium text-slate-700">
          Explanation <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <textarea
          id={`${idPrefix}-explanation`}
          className={`${inputClass} min-h-16`}
          value={draft.explanation}
          maxLength={2000}
          onChange={(e) => setDraft((d) => ({ ...d, explanation: e.target.value }))}
        />
      </div>
      {error ? <RequestErrorNotice error={error} label={(field) => certificationFieldLabel(field)} /> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
        {onCancel ? (
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
