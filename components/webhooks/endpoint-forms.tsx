"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { CheckboxList, TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { queryKeys } from "@/components/query-keys";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { webhookContracts } from "@/lib/platform/webhooks/contracts";
import { RECOVER_RETENTION_DAYS, updateWebhookInput, type UpdateWebhookInput, type WebhookView } from "@/lib/platform/webhooks/schemas";
import { competitionEndpointContracts, testResultEndpointContracts } from "@/lib/platform/webhooks/management-contracts";

/** The management routes of one kind of endpoint (/api/v1/webhooks or /api/v1/test-result-webhooks). */
export type EndpointKind = "competition" | "certification";

export const managementOf = (kind: EndpointKind) => (kind === "certification" ? testResultEndpointContracts : competitionEndpointContracts);

/** Changes an endpoint's address and, for a competition endpoint, its events (none ticked: all). */
export function EditEndpointForm({ webhook, kind, onDone }: { webhook: WebhookView; kind: EndpointKind; onDone: () => void }) {
  const manage = managementOf(kind);
  const form = useApiForm(updateWebhookInput, { defaultValues: { url: webhook.url, events: kind === "competition" ? webhook.events : undefined } });
  // The competition list (already loaded by the panel) names the events an endpoint can take.
  const list = useQuery({
    queryKey: queryKeys.webhooks(),
    queryFn: () => callApi(webhookContracts.list, { query: { per_page: 100 } }),
    enabled: kind === "competition",
  });
  const save = useFormMutation(form, {
    mutationFn: (body: UpdateWebhookInput) => callApi(manage.update, { params: { id: webhook.id }, body: kind === "competition" ? body : { url: body.url } }),
    onSuccess: () => onDone(),
  });
  const choices = list.data?.available_events.map((name) => ({ value: name, description: list.data.event_descriptions[name] ?? "" })) ?? [];
  return (
    <ApiForm form={form} mutation={save} className="space-y-3 rounded border border-slate-200 p-3" submitLabel="Save" pendingLabel="Saving…" variant="secondary">
      <TextInput form={form} name="url" id={`edit-url-${webhook.id}`} type="url" required />
      {kind === "competition" ? <CheckboxList form={form} name="events" id={`edit-events-${webhook.id}`} hint="None ticked: every event." choices={choices} /> : null}
    </ApiForm>
  );
}

/** `datetime-local` text for a moment, in the browser's time zone. */
function localInputValue(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/**
 * Queues again every delivery since the chosen moment that was dropped or not sent while the
 * endpoint was disabled, once each; answers how many.
 */
export function RecoverForm({ webhook, kind, onRecovered }: { webhook: WebhookView; kind: EndpointKind; onRecovered: () => void }) {
  const manage = managementOf(kind);
  const now = new Date();
  const [since, setSince] = useState(() => localInputValue(new Date(now.getTime() - 86_400_000)));
  const recover = useMutation({
    mutationFn: () => callApi(manage.recover, { params: { id: webhook.id }, body: { since: new Date(since).toISOString() } }),
    onSuccess: () => onRecovered(),
  });
  const id = `recover-since-${webhook.id}`;
  return (
    <form
      className="space-y-2 rounded border border-slate-200 p-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        recover.mutate();
      }}
    >
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        Since
      </label>
      <input
        id={id}
        type="datetime-local"
        className={inputClass}
        value={since}
        min={localInputValue(new Date(now.getTime() - RECOVER_RETENTION_DAYS * 86_400_000))}
        max={localInputValue(now)}
        onChange={(event) => setSince(event.target.value)}
      />
      <p className="text-xs text-slate-500">
        Dropped deliveries and those not sent while disabled, from this moment on (at most {RECOVER_RETENTION_DAYS} days back), are sent again once each.
      </p>
      <RequestErrorNotice error={recover.error} />
      {recover.data ? <p className="text-sm text-slate-700" role="status">{recover.data.queued} queued again.</p> : null}
      <Button type="submit" variant="secondary" disabled={recover.isPending || !since}>
        {recover.isPending ? "Queuing…" : "Recover"}
      </Button>
    </form>
  );
}
