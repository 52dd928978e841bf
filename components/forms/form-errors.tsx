import type { FieldErrors, FieldValues } from "react-hook-form";
import { ApiMessage } from "@/components/ui/api-message";
import { Notice } from "@/components/ui/card";
import { PLAN_SETTINGS_HINT } from "@/lib/kernel/errors";
import { fieldLabel, fieldMessage, type ItemName } from "./field-labels";

type Leaf = { path: string; message: string };

/** Every message in `errors` (a form's errors, or those under one path `at`), each with its path. */
export function errorLeaves(errors: unknown, at = ""): Leaf[] {
  if (!errors || typeof errors !== "object") return [];
  const entry = errors as { message?: unknown; type?: unknown };
  const found: Leaf[] = typeof entry.message === "string" && entry.type !== undefined && at && !at.startsWith("root") ? [{ path: at, message: entry.message }] : [];
  for (const [key, child] of Object.entries(errors)) {
    if (key === "message" || key === "type" || key === "ref" || key === "types") continue;
    found.push(...errorLeaves(child, at ? `${at}.${key}` : key));
  }
  return found;
}

/**
 * The form's outcome after a submit: the server's own message (a plan limit says which; a
 * conflict why), and a list of every field to correct, each by its human label — the
 * same errors that stand beside the fields, gathered where the submit button is.
 */
export function FormErrors<T extends FieldValues>({ errors, itemName }: { errors: FieldErrors<T>; itemName?: ItemName }) {
  const root = (errors.root as Record<string, { message?: string; type?: string }> | undefined)?.server;
  const fields = errorLeaves(errors);
  if (!root && !fields.length) return null;
  // A 409 is a plan's limit (its message ends with where the plans are compared) or a state
  // that forbids it now (the message says why): a plan's limit is named as such; the other
  // needs no heading above its own sentence.
  const refused = root?.type === "status-409";
  const planLimit = refused && Boolean(root?.message?.endsWith(PLAN_SETTINGS_HINT));
  return (
    <Notice tone="error">
      {planLimit ? <p className="font-semibold">Your plan&apos;s limit is reached</p> : null}
      {root?.message ? (
        <p className={fields.length || (refused && !planLimit) ? "font-semibold" : undefined} data-testid={refused ? "plan-error" : undefined}>
          <ApiMessage text={root.message} />
        </p>
      ) : (
        <p className="font-semibold">Some fields must be corrected.</p>
      )}
      <FieldErrorList fields={fields} itemName={itemName} />
    </Notice>
  );
}

/** Field errors listed each under its human label, in the form's words: "Address: Must be an absolute… URL." */
export function FieldErrorList({ fields, itemName }: { fields: Leaf[]; itemName?: ItemName }) {
  if (!fields.length) return null;
  return (
    <ul className="mt-1 list-disc space-y-0.5 pl-5" data-testid="field-errors">
      {fields.map((field, index) => (
        <li key={`${field.path}-${index}`}>
          <span className="font-medium">{fieldLabel(field.path, itemName)}:</span> {fieldMessage(field.message)}
        </li>
      ))}
    </ul>
  );
}
