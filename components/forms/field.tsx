import type { ReactNode } from "react";
import { get, type FieldErrors, type FieldValues } from "react-hook-form";
import { fieldLabel, fieldMessage, type ItemName } from "./field-labels";

/** What a control needs to be tied to its label, hint and error. */
export type ControlProps = { id: string; "aria-invalid"?: true; "aria-describedby"?: string };

/**
 * A labelled control with its hint and, beside it, its error: the control gets
 * `aria-invalid` and `aria-describedby` naming the hint and the error, so a screen reader
 * reads the error with the field. `children` renders the control with those props.
 */
export function Field({
  id,
  label,
  hint,
  error,
  className = "space-y-1",
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children({ id, ...(error ? { "aria-invalid": true as const } : {}), ...(describedBy ? { "aria-describedby": describedBy } : {}) })}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldMessage id={errorId} error={error} />
    </div>
  );
}

/** The error of one field, shown beside it (an id for `aria-describedby`), in the form's words as `errorAt` and `ownErrorAt` give it. */
export function FieldMessage({ id, error }: { id?: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="text-xs font-medium text-red-700" data-testid="field-error">
      {error}
    </p>
  );
}

/**
 * The messages at `path` and below it (a textarea of recipients shows the errors of
 * `recipients.2.email` too, each naming its item), joined into one line.
 */
export function errorAt<T extends FieldValues>(errors: FieldErrors<T>, path: string, itemName?: ItemName): string | undefined {
  const node = get(errors, path);
  if (!node) return undefined;
  const messages: string[] = [];
  const walk = (value: unknown, at: string) => {
    if (!value || typeof value !== "object") return;
    const entry = value as { message?: unknown; type?: unknown };
    if (typeof entry.message === "string" && entry.type !== undefined) {
      messages.push(at === path ? fieldMessage(entry.message) : `${fieldLabel(at, itemName)}: ${fieldMessage(entry.message)}`);
    }
    for (const [key, child] of Object.entries(value)) {
      // A list's own error sits under `root`: it is the list's, not an item's.
      if (key === "root") walk(child, at);
      else if (key !== "message" && key !== "type" && key !== "ref" && key !== "types") walk(child, `${at}.${key}`);
    }
  };
  walk(node, path);
  return messages.length ? messages.join(" ") : undefined;
}

/** The message at exactly `path` (a list's own error, say "At most 200 questions in all."), without its items'. */
export function ownErrorAt<T extends FieldValues>(errors: FieldErrors<T>, path: string): string | undefined {
  const node = get(errors, path) as { message?: unknown; root?: { message?: unknown } } | undefined;
  const message = node?.message ?? node?.root?.message;
  return typeof message === "string" ? fieldMessage(message) : undefined;
}
