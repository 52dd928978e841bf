import { RequestError } from "@/components/fetch-json";
import { FieldErrorList } from "@/components/forms/form-errors";
import { ApiMessage } from "@/components/ui/api-message";
import { Notice } from "@/components/ui/card";

/**
 * A refused action that is not a form (a button: re-send, publish, stop, delete): the API's
 * own message (a 409 names the state or limit that forbids it), and any field error under
 * its label. Forms show their errors beside their fields and in `FormErrors` instead.
 * Nothing while there is no error; `className` places it in a wrapper (a card's padding).
 */
export function RequestErrorNotice({ error, className }: { error: unknown; className?: string }) {
  if (!error) return null;
  const fields = error instanceof RequestError ? error.fields : [];
  const notice = (
    <Notice tone="error">
      <p className={fields.length ? "font-semibold" : undefined} data-testid="request-error">
        {error instanceof Error ? <ApiMessage text={error.message} /> : "Something went wrong."}
      </p>
      <FieldErrorList fields={fields.map(({ field, message }) => ({ path: field, message }))} />
    </Notice>
  );
  return className ? <div className={className}>{notice}</div> : notice;
}
