import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { inputClass } from "@/components/ui/field";
import { errorAt, Field, FieldMessage } from "./field";
import { fieldLabel, type ItemName } from "./field-labels";

/** A control bound to one field of a form: its label is `fieldLabel(name)`, its error the one at `name`. */
type Bound<T extends FieldValues> = {
  form: UseFormReturn<T, unknown, unknown>;
  name: Path<T>;
  id: string;
  /** Marks the label "(optional)". */
  optional?: boolean;
  /** What the form shows instead of `fieldLabel(name)` (a label built from it, say). */
  label?: ReactNode;
  hint?: ReactNode;
  /** Where the field's errors are when not at `name`: a textarea parsed into a list (`emails`). */
  errorPath?: string;
  itemName?: ItemName;
  className?: string;
};

/** The label of a field, from the one source of labels. */
export function FieldLabel({ name, optional }: { name: string; optional?: boolean }) {
  return (
    <>
      {fieldLabel(name)}
      {optional ? <span className="font-normal text-slate-500"> (optional)</span> : null}
    </>
  );
}

type Attributes<E> = Omit<E, "id" | "name" | "form">;

/** Splits a bound control's props: what its `Field` shows, its registration, and the element's own attributes. */
function bind<T extends FieldValues, R>({ form, name, id, optional, label, hint, errorPath, itemName, className, ...rest }: Bound<T> & R) {
  return {
    field: { id, hint, className, label: label ?? <FieldLabel name={name} optional={optional} />, error: errorAt(form.formState.errors, errorPath ?? name, itemName) },
    registered: form.register(name),
    rest,
  };
}

/** The attributes of an input for a whole number from `min` to `max` (phones show a number pad). */
export function wholeNumberInput(min: number, max: number) {
  return { type: "number", inputMode: "numeric", min, max, step: 1 } as const;
}

export function TextInput<T extends FieldValues>(props: Bound<T> & Attributes<InputHTMLAttributes<HTMLInputElement>>) {
  const { field, registered, rest } = bind(props);
  return <Field {...field}>{(control) => <input {...control} className={inputClass} {...rest} {...registered} />}</Field>;
}

export function TextArea<T extends FieldValues>({ inputClassName = "min-h-20", ...props }: Bound<T> & Attributes<TextareaHTMLAttributes<HTMLTextAreaElement>> & { inputClassName?: string }) {
  const { field, registered, rest } = bind(props);
  return <Field {...field}>{(control) => <textarea {...control} className={`${inputClass} ${inputClassName}`} {...rest} {...registered} />}</Field>;
}

export function Select<T extends FieldValues>({ children, ...props }: Bound<T> & Attributes<SelectHTMLAttributes<HTMLSelectElement>> & { children: ReactNode }) {
  const { field, registered, rest } = bind(props);
  return (
    <Field {...field}>
      {(control) => (
        <select {...control} className={inputClass} {...rest} {...registered}>
          {children}
        </select>
      )}
    </Field>
  );
}

/** One choice of a radio group bound to `name` (a mode: equal split or per domain, full access or scopes). */
export function Radio<T extends FieldValues>({
  form,
  name,
  value,
  onChoose,
  children,
}: {
  form: UseFormReturn<T, unknown, unknown>;
  name: Path<T>;
  value: string;
  /** Runs once this choice is made (after the form holds it). */
  onChoose?: () => void;
  children: ReactNode;
}) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="radio" value={value} {...form.register(name, onChoose ? { onChange: onChoose } : undefined)} />
      {children}
    </label>
  );
}

/**
 * Checkboxes of one list field (webhook events, key scopes): the ticked values make the
 * array. The fieldset is described by its hint and its error.
 */
export function CheckboxList<T extends FieldValues>({
  form,
  name,
  id,
  legend,
  hint,
  choices,
  className = "mt-2 grid gap-2 sm:grid-cols-2",
}: {
  form: UseFormReturn<T, unknown, unknown>;
  name: Path<T>;
  id: string;
  legend?: ReactNode;
  hint?: ReactNode;
  choices: { value: string; description: string }[];
  className?: string;
}) {
  const error = errorAt(form.formState.errors, name);
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset id={id} aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-medium text-slate-700">{legend ?? fieldLabel(name)}</legend>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <div className={className}>
        {choices.map((choice) => (
          <label key={choice.value} className="flex items-start gap-2 text-sm">
            <input type="checkbox" className="mt-1" value={choice.value} {...form.register(name)} />
            <span>
              <code className="font-mono">{choice.value}</code>
              <span className="block text-xs text-slate-500">{choice.description}</span>
            </span>
          </label>
        ))}
      </div>
      <FieldMessage id={`${id}-error`} error={error} />
    </fieldset>
  );
}

/** A ticked-or-not field with its explanation under the label. */
export function Checkbox<T extends FieldValues>({ form, name, id, label, hint }: { form: UseFormReturn<T, unknown, unknown>; name: Path<T>; id: string; label?: ReactNode; hint?: ReactNode }) {
  const error = errorAt(form.formState.errors, name);
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="flex items-start gap-2 text-sm">
        <input id={id} type="checkbox" className="mt-1" aria-describedby={describedBy} {...form.register(name)} />
        <span className="font-medium text-slate-700">{label ?? fieldLabel(name)}</span>
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="ml-6 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldMessage id={`${id}-error`} error={error} />
    </div>
  );
}
