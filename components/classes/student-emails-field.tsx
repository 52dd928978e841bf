import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { FieldLabel, TextArea } from "@/components/forms/inputs";
import { plural } from "@/components/tests/format";
import { parseEmails } from "./emails";

/** The students' addresses of a class form, as one textarea; its errors are those of `emails` and `emails.<n>`, each naming its address. */
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
  const emails = parseEmails(text);
  return (
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
      hint={`One per line, or separated by commas.${note ? ` ${note}` : ""}${emails.length ? ` ${plural(emails.length, "address", "addresses")}.` : ""}`}
    />
  );
}

/** Names an address of the list by the form's text (`emails.1` → "E-mail 2 (b@x.io)"). */
export function emailItemName(text: string) {
  const emails = parseEmails(text);
  return (list: string, index: number) => (list === "emails" ? emails[index] : undefined);
}
