import { FieldMessage } from "@/components/forms/field";
import { inputClass } from "@/components/ui/field";
import { plural } from "./format";
import type { ParsedRecipients } from "./parse-recipients";

/**
 * The recipients textarea with what was understood: the parsed count, the lines that are not
 * addresses and the repeated ones. The caller parses (`parseRecipients`) and passes the result.
 */
export function RecipientsInput({
  id,
  label = "E-mail addresses",
  value,
  onChange,
  parsed,
  error,
  seatsNote,
}: {
  id: string;
  label?: string;
  value: string;
  onChange: (value: string) => void;
  parsed: ParsedRecipients;
  /** The field's error (the form's or the server's), shown beside it. */
  error?: string;
  /** Plan seats, shown under the count. */
  seatsNote?: string;
}) {
  const { recipients, invalid, duplicates } = parsed;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        One per line, or separated by commas or semicolons. <code>Name &lt;email&gt;</code> and <code>email, name</code> add a name.
      </p>
      <textarea
        id={id}
        rows={6}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-hint ${id}-summary${error ? ` ${id}-error` : ""}`}
        aria-invalid={invalid.length > 0 || Boolean(error) || undefined}
        spellCheck={false}
        autoCapitalize="none"
        autoComplete="off"
        className={`${inputClass} font-mono`}
        placeholder={"ada@example.com\nGrace Hopper <grace@example.com>\nalan@example.com, Alan Turing"}
      />
      <FieldMessage id={`${id}-error`} error={error} />
      <div id={`${id}-summary`} aria-live="polite" className="space-y-1 text-sm">
        <p data-testid="parsed-count" className="text-slate-700">
          {plural(recipients.length, "recipient")}
          {seatsNote ? <span className="text-slate-500"> · {seatsNote}</span> : null}
        </p>
        {invalid.length ? (
          <div className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800" data-testid="invalid-recipients">
            <p className="font-medium">
              {invalid.length === 1 ? "1 entry is not an address:" : `${invalid.length} entries are not addresses:`}
            </p>
            <ul className="mt-1 space-y-0.5">
              {invalid.map((issue, index) => (
                <li key={index}>
                  Line {issue.line}: <span className="break-all font-mono">{issue.text}</span> — {issue.message}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {duplicates.length ? (
          <div className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
            <p className="font-medium">{plural(duplicates.length, "repeated address", "repeated addresses")} ignored:</p>
            <ul className="mt-1 space-y-0.5">
              {duplicates.map((issue, index) => (
                <li key={index}>
                  Line {issue.line}: {issue.message}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </div>
  );
}
