import { RequestError } from "@/components/fetch-json";
import { Notice } from "@/components/ui/card";

/**
 * A failed request, readable: 409 is a plan limit (the message says which), 422 lists each
 * field error under a readable label given by `label`.
 */
export function RequestErrorNotice({ error, label = (field) => field }: { error: unknown; label?: (field: string) => string }) {
  if (!(error instanceof RequestError)) {
    return <Notice tone="error">{error instanceof Error ? error.message : "Something went wrong."}</Notice>;
  }
  if (error.status === 409) {
    return (
      <Notice tone="error">
        <p className="font-semibold">Beyond your plan</p>
        <p data-testid="plan-error">{error.message}</p>
      </Notice>
    );
  }
  return (
    <Notice tone="error">
      <p className={error.fields.length ? "font-semibold" : undefined}>{error.message}</p>
      {error.fields.length ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5" data-testid="field-errors">
          {error.fields.map((field, index) => (
            <li key={`${field.field}-${index}`}>
              <span className="font-medium">{label(field.field)}:</span> {field.message}
            </li>
          ))}
        </ul>
      ) : null}
    </Notice>
  );
}
