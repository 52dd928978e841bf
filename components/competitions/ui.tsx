import type { ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { RequestError } from "@/components/fetch-json";
import { Badge } from "@/components/ui/badge";
import { Notice } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import { ctfFieldLabel, statusStyles } from "./format";

/** A status as a coloured badge; the raw value stays readable by tests in data-status. */
export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  const style = statusStyles[status] ?? { label: status, tone: "neutral" as const };
  return (
    <span data-testid={testId} data-status={status} className="inline-flex">
      <Badge tone={style.tone}>{style.label}</Badge>
    </span>
  );
}

/**
 * A refused request: the API's own message (a 409 names the state that forbids the action),
 * and each field error under the form's label for it.
 */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!(error instanceof RequestError)) {
    return <Notice tone="error">{error instanceof Error ? error.message : "Something went wrong."}</Notice>;
  }
  return (
    <Notice tone="error">
      <p className={error.fields.length ? "font-semibold" : undefined} data-testid="request-error">
        {error.message}
      </p>
      {error.fields.length ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5" data-testid="field-errors">
          {error.fields.map((field, index) => (
            <li key={`${field.field}-${index}`}>
              <span className="font-medium">{ctfFieldLabel(field.field)}:</span> {field.message}
            </li>
          ))}
        </ul>
      ) : null}
    </Notice>
  );
}

export function SelectField({ label, id, children, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; id: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={id} className={inputClass} {...props}>
        {children}
      </select>
    </div>
  );
}

export function TextAreaField({ label, id, hint, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; id: string; hint?: string }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea id={id} className={`${inputClass} min-h-20`} aria-describedby={hint ? `${id}-hint` : undefined} {...props} />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** Host in use, explained once on the Competitions pages. */
export function HostNote({ host }: { host: string }) {
  return host === "ctfd" ? (
    <>
      Competitions are hosted on <span className="font-medium">CTFd</span>: deploying checks the configured CTFd instance, publishing creates the
      challenge there with its flag and hints, unpublishing hides it. Standalone deployments are served by this app at <code>/d/…</code>.
    </>
  ) : (
    <>
      Competitions are hosted by the <span className="font-medium">built-in host</span>: a deployed competition is served by this app at{" "}
      <code>/c/…</code> with its published challenges (and a join form when it is public), and a standalone deployment at <code>/d/…</code>. Set{" "}
      <code>CTFD_URL</code> and <code>CTFD_TOKEN</code> to host new competitions on CTFd instead.
    </>
  );
}
