"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, type UseMutationOptions } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { useForm, type FieldValues, type Path, type SubmitHandler, type UseFormProps, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { RequestError } from "@/components/fetch-json";
import { formErrorMap } from "./issue-messages";

/**
 * A form validated in the browser with the same zod schema the server validates with (the
 * contract's body, or a form schema built from it): errors show beside their fields as soon
 * as a field is left, and again on submit.
 */
export function useApiForm<S extends z.ZodType<unknown, FieldValues>>(
  schema: S,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, "resolver"> = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  // formErrorMap: a check the contract left without a message of its own reads as a sentence, not as zod's code words.
  return useForm<z.input<S>, unknown, z.output<S>>({ mode: "onTouched", ...options, resolver: zodResolver(schema as never, { error: formErrorMap } as never) as never });
}

/**
 * Puts the server's answer on the form: each field error (422) beside its field, by its
 * path in the body (`recipients.2.email`), or under `mapField` when the form names it
 * differently; anything else (a plan limit, a state conflict, an outage) as the form's
 * root error. Returns whether field errors were set.
 */
export function showServerErrors<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  error: unknown,
  mapField: (field: string) => string = (field) => field,
): boolean {
  if (error instanceof RequestError && error.fields.length) {
    for (const { field, message } of error.fields) {
      form.setError((field === "(body)" ? "root.server" : mapField(field)) as Path<T>, { type: "server", message });
    }
    form.setError("root.server" as Path<T>, { type: "server", message: error.message });
    return true;
  }
  form.setError("root.server" as Path<T>, {
    type: error instanceof RequestError ? `status-${error.status}` : "server",
    message: error instanceof Error ? error.message : "Something went wrong.",
  });
  return false;
}

/**
 * The mutation a form submits: its failure lands on the form (`showServerErrors`), each
 * field error beside its field and the rest in the form's `FormErrors`.
 */
export function useFormMutation<T extends FieldValues, TData, TVariables>(
  form: UseFormReturn<T, unknown, unknown>,
  { mapField, ...options }: UseMutationOptions<TData, Error, TVariables> & { mapField?: (field: string) => string },
) {
  return useMutation<TData, Error, TVariables>({
    ...options,
    onError: (...args) => {
      showServerErrors(form, args[0], mapField);
      return options.onError?.(...args);
    },
  });
}

/**
 * A form's submit handler that also catches a date-time picker left half filled: the browser
 * gives such a field no value (`validity.badInput`), which would read as "none" (open at once,
 * never closes). It gets "Enter a date and time." with every other error of the form, and
 * nothing is sent. Use as `onSubmit={submitWithDates(form, (body) => …)}`.
 */
export function submitWithDates<T extends FieldValues, O>(form: UseFormReturn<T, unknown, O>, onValid: SubmitHandler<O>) {
  return async (event: FormEvent<HTMLFormElement>) => {
    const pickers = event.currentTarget.querySelectorAll<HTMLInputElement>('input[type="datetime-local"], input[type="date"], input[type="time"]');
    const incomplete = [...pickers].filter((input) => input.name && input.validity.badInput);
    if (!incomplete.length) return form.handleSubmit(onValid)(event);
    event.preventDefault();
    await form.trigger();
    for (const input of incomplete) form.setError(input.name as Path<T>, { type: "incomplete", message: "Enter a date and time." });
  };
}
