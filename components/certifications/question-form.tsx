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

/**
 * A question's prompt, 2–8 options with a radio for the correct one, and explanation,
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
  const correct = form.watch("correct");
  const errors = form.formState.errors;
  const update = (next: Partial<QuestionValues>) => {
    for (const [name, value] of Object.entries(next)) form.setValue(name as keyof QuestionValues, value as never, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  };
  const removeOption = (index: number) =>
    update({ options: options.filter((_, i) => i !== index), correct: correct === index ? 0 : correct > index ? correct - 1 : correct });
  const listError = [ownErrorAt(errors, "options"), errorAt(errors, "correct")].filter(Boolean).join(" ") || undefined;

  return (
    <form className="space-y-4" noValidate onSubmit={form.handleSubmit((body) => saving.mutate(body))}>
      {children}
      <TextArea form={form} name="prompt" id={`${idPrefix}-prompt`} required maxLength={2000} />
      <fieldset className="space-y-2" aria-describedby={`${idPrefix}-options-hint${listError ? ` ${idPrefix}-options-error` : ""}`}>
        <legend className="text-sm font-medium text-slate-700">{fieldLabel("options")}: select the correct one</legend>
        {options.map((option, index) => {
          const id = `${idPrefix}-option-${index}`;
          const error = errorAt(errors, `options.${index}`);
          return (
            <div key={index}>
              <div className="flex items-center gap-2">
                <input
                  type="radio"
                  id={`${idPrefix}-correct-${index}`}
                  name={`${idPrefix}-correct`}
                  className="h-4 w-4 shrink-0"
                  checked={correct === index}
                  onChange={() => update({ correct: index })}
                  aria-label={`${fieldLabel(`options.${index}`)} is the correct one`}
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
                  required={index < 2 || correct === index}
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
