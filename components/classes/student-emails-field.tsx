import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { FieldLabel, TextArea } from "@/components/forms/inputs";
import { plural } from "@/components/tests/format";
import { parseRecipients } from "@/lib/certification/tests/parse-recipients";

/**
 * The students of a class form, as one textarea read as test recipients are (an address,
 * `Name <email>` or `email, name` each); its errors are those of `emails` and `emails.<n>`,
 * each naming its address, and the pieces that are not addresses are listed under it.
 */
export function StudentEmailsField<T extends FieldValues & { emailsText: string }>({
  form,
  id,
  optional,
  note,
  placeholder,
}: {
  form: UseFormReturn<T, unknown, unknown>;
  id: string;
  optional?: boolean;
  /** Said after "One per line, or separated by commas." */
  note?: string;
  placeholder: string;
}) {
  const text: string = form.watch("emailsText" as Path<T>) ?? "";
  const { recipients, invalid } = parseRecipients(text);
  return (
    <div className="space-y-1">
      <TextArea
        form={form}
        name={"emailsText" as Path<T>}
        id={id}
        label={<FieldLabel name="emails" optional={optional} />}
        errorPath="emails"
        itemName={emailItemName(text)}
        inputClassName="min-h-28 font-mono"
        placeholder={placeholder}
        spellCheck={false}
        autoCapitalize="none"
        hint={
          <>
            One per line, or separated by commas. <code>Name &lt;email&gt;</code> and <code>email, name</code> add a name.
            {note ? ` ${note}` : ""}
            {recipients.length ? ` ${plural(recipients.length, "address", "addresses")}.` : ""}
          </>
        }
      />
      {invalid.length ? (
        <ul className="space-y-0.5 text-xs text-red-800" data-testid="invalid-students">
          {invalid.map((issue, index) => (
            <li key={index}>
              Line {issue.line}: <span className="break-all font-mono">{issue.text}</span> — {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Names an address of the list by the form's text (`emails.1` → "E-mail 2 (b@x.io)"). */
export function emailItemName(text: string) {
  const recipients = parseRecipients(text).recipients;
  return (list: string, index: number) => (list === "emails" ? recipients[index]?.email : undefined);
}
