import type { ReactNode } from "react";
import type { FieldErrors, FieldValues, UseFormReturn } from "react-hook-form";
import type { ItemName } from "./field-labels";
import { FormErrors } from "./form-errors";
import { SubmitButton } from "./submit-button";

/**
 * A form that sends its checked body to a mutation (`useFormMutation`): its fields, then the
 * summary of what to correct (`FormErrors`) and the submit button. The browser's own checks
 * are off (`noValidate`): the contract's schema speaks, beside each field.
 */
export function ApiForm<TValues extends FieldValues, TBody>({
  form,
  mutation,
  submitLabel,
  pendingLabel,
  className = "space-y-4",
  errors,
  itemName,
  variant,
  children,
}: {
  form: UseFormReturn<TValues, unknown, TBody>;
  mutation: { mutate: (body: TBody) => void; isPending: boolean };
  submitLabel: ReactNode;
  pendingLabel: string;
  className?: string;
  /** The errors to summarise, when not all of the form's (the CSV rows are listed beside the text). */
  errors?: FieldErrors<TValues>;
  itemName?: ItemName;
  variant?: "primary" | "secondary";
  children: ReactNode;
}) {
  return (
    <form className={className} noValidate onSubmit={form.handleSubmit((body) => mutation.mutate(body))}>
      {children}
      <FormErrors errors={errors ?? form.formState.errors} itemName={itemName} />
      <SubmitButton variant={variant} pending={mutation.isPending} pendingLabel={pendingLabel}>
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
