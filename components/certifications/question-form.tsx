"use client";

import type { ReactNode } from "react";
import { errorAt, FieldMessage, ownErrorAt } from "@/components/forms/field";
import { fieldLabel } from "@/components/forms/field-labels";
import { FormErrors } from "@/components/forms/form-errors";
import { TextArea } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { MAX_OPTIONS, type QuestionInput } from "@/lib/certification/own/schemas";
import { questionSchema, type QuestionValues } from "./certification-forms";

export const letter = (index: number) => String.fromCharCode(65 + index);

/** The question's type: one right option (radio) or several (check boxes, scored all or nothing). */
function TypeSwitch({ idPrefix, type, onChange }: { idPrefix: string; type: QuestionValues["type"]; onChange: (type: QuestionValues["type"]) => void }) {
  const choices = [
    { value: "single", label: "One right answer" },
    { value: "multiple", label: "Several right answers (choose N)" },
  ] as const;
  return (
    <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      <legend className="mb-1 text-sm font-medium text-slate-700">Type</legend>
      {choices.map((choice) => (
        <label key={choice.value} className="flex items-center gap-2">
          <input
            type="radio"
            name={`${idPrefix}-type`}
            value={choice.value}
            className="h-4 w-4"
            checked={type === choice.value}
            onChange={() => onChange(choice.value)}
          />
          {choice.label}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * A question's prompt, its type, 2–8 options with a radio for the correct one (check boxes
 * for the right set of a multiple-response question), and explanation,
 * checked with the contract's `questionInput`; each option's error stands beside it.
 * `save` sends the body (add or replace); `onSaved` follows a success.
 */
export function QuestionForm({
  idPrefix,
  initial,
  submitLabel,
  save,
  onSaved,
  onCancel,
  children,
}: {
  idPrefix: string;
  initial: QuestionValues;
  submitLabel: string;
  save: (body: QuestionInput) => Promise<unknown>;
  onSaved: () => void;
  onCancel?: () => void;
  /** Extra fields shown first (the domain select of a new question). */
  children?: ReactNode;
}) {
  const form = useApiForm(questionSchema, { defaultValues: initial });
  const saving = useFormMutation(form, { mutationFn: save, onSuccess: onSaved });
  const options = form.watch("options");
  const type = form.watch("type") ?? "single";
  const correct = form.watch("correct");
  const correctSet = form.watch("correctSet") ?? [];
  const errors = form.formState.errors;
  const update = (next: Partial<QuestionValues>) => {
    for (const [name, value] of Object.entries(next)) form.setValue(name as keyof QuestionValues, value as never, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  };
  const shift = (index: number, removed: number) => (index > removed ? index - 1 : index);
  const removeOption = (index: number) =>
    update({
      options: options.filter((_, i) => i !== index),
      correct: correct === index ? 0 : shift(correct, index),
      correctSet: correctSet.filter((i) => i !== index).map((i) => shift(i, index)),
    });
  const isRight = (index: number) => (type === "multiple" ? correctSet.includes(index) : correct === index);
  const toggleRight = (index: number) =>
    type === "multiple"
      ? update({ correctSet: correctSet.includes(index) ? correctSet.filter((i) => i !== index) : [...correctSet, index].sort((a, b) => a - b) })
      : update({ correct: index });
  const switchType = (next: QuestionValues["type"]) =>
    update(next === "multiple" ? { type: next, correctSet: correctSet.length ? correctSet : [correct] } : { type: next, correct: correctSet[0] ?? correct });
  const listError = [ownErrorAt(errors, "options"), errorAt(errors, "correct")].filter(Boolean).join(" ") || undefined;

  return (
    <form className="space-y-4" noValidate onSubmit={form.handleSubmit((body) => saving.mutate(body))}>
      {children}
      <TextArea form={form} name="prompt" id={`${idPrefix}-prompt`} required maxLength={2000} />
      <TypeSwitch idPrefix={idPrefix} type={type} onChange={switchType} />
      <fieldset className="space-y-2" aria-describedby={`${idPrefix}-options-hint${listError ? ` ${idPrefix}-options-error` : ""}`}>
        <legend className="text-sm font-medium text-slate-700">
          {fieldLabel("options")}: {type === "multiple" ? "check every right one (2 or more, not all)" : "select the correct one"}
        </legend>
        {options.map((option, index) => {
          const id = `${idPrefix}-option-${index}`;
          const error = errorAt(errors, `options.${index}`);
          return (
            <div key={index}>
              <div className="flex items-center gap-2">
                <input
                  type={type === "multiple" ? "checkbox" : "radio"}
                  id={`${idPrefix}-correct-${index}`}
                  name={`${idPrefix}-correct`}
                  className="h-4 w-4 shrink-0"
                  checked={isRight(index)}
                  onChange={() => toggleRight(index)}
                  aria-label={`${fieldLabel(`options.${index}`)} is ${type === "multiple" ? "a right one" : "the correct one"}`}
                />
                <label htmlFor={id} className="w-5 shrink-0 text-sm font-medium text-slate-600">
                  <span aria-hidden="true">{letter(index)}</span>
                  <span className="sr-only">{fieldLabel(`options.${index}`)}</span>
                </label>
                <input
                  id={id}
                  className={`${inputClass} min-w-0`}
                  value={option}
                  maxLength={500}
                  required={index < 2 || isRight(index)}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  onChange={(e) => update({ options: options.map((text, i) => (i === index ? e.target.value : text)) })}
                />
                {options.length > 2 ? (
                  <Button type="button" variant="ghost" className="shrink-0 px-2" onClick={() => removeOption(index)} aria-label={`Remove ${fieldLabel(`options.${index}`).toLowerCase()}`}>
                    ✕
                  </Button>
                ) : null}
              </div>
              <div className="ml-12">
                <FieldMessage id={`${id}-error`} error={error} />
              </div>
            </div>
          );
        })}
        {options.length < MAX_OPTIONS ? (
          <Button type="button" variant="secondary" onClick={() => update({ options: [...options, ""] })}>
            Add an option
          </Button>
        ) : null}
        <p id={`${idPrefix}-options-hint`} className="text-xs text-slate-500">
          2 to {MAX_OPTIONS} options; empty ones at the end are left out.
        </p>
        <FieldMessage id={`${idPrefix}-options-error`} error={listError} />
      </fieldset>
      <TextArea form={form} name="explanation" id={`${idPrefix}-explanation`} optional inputClassName="min-h-16" maxLength={2000} />
      <FormErrors errors={errors} />
      <div className="flex flex-wrap gap-2">
        <SubmitButton pending={saving.isPending} pendingLabel="Saving…">
          {submitLabel}
        </SubmitButton>
        {onCancel ? (
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
