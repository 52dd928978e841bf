"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { CheckboxList, TextInput } from "@/components/forms/inputs";
import { formatDateTime } from "@/components/format/date";
import { ApiForm } from "@/components/forms/api-form";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { OneTimeSecret } from "@/components/ui/one-time-secret";
import { queryKeys } from "@/components/query-keys";
import { webhookContracts } from "@/lib/platform/webhooks/contracts";
import { DeliveryEventCell, EndpointHealth } from "./endpoint-health";
import { EndpointControls } from "./endpoint-controls";
import type { EndpointKind } from "./endpoint-forms";
import { createWebhookInput, type CreateWebhookInput, type DeliveryView, type WebhookView } from "@/lib/platform/webhooks/schemas";

export function WebhooksPanel() {
  const client = useQueryClient();
  const webhooks = useQuery({ queryKey: queryKeys.webhooks(), queryFn: () => callApi(webhookContracts.list, { query: { per_page: 100 } }) });
  const form = useApiForm(createWebhookInput, { defaultValues: { url: "", events: [] } });
  const add = useFormMutation(form, {
    mutationFn: (body: CreateWebhookInput) => callApi(webhookContracts.create, { body }),
    onSuccess: () => {
      form.reset();
      client.invalidateQueries({ queryKey: queryKeys.webhooks() });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => callApi(webhookContracts.remove, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhooks() }),
  });
  const created = add.data;
  const events = webhooks.data?.available_events.map((name) => ({ value: name, description: webhooks.data.event_descriptions[name] ?? "" })) ?? [];

  return (
    <div className="space-y-6">
      {created ? (
        <OneTimeSecret title="Endpoint added" secret={created.secret ?? ""} testId="webhook-secret" onDone={() => add.reset()}>
          Signing secret for <span className="break-all font-mono">{created.url}</span>. Copy it now: it is shown this once.
        </OneTimeSecret>
      ) : null}

      <Card>
        <h2 className="font-semibold">Add an endpoint</h2>
        <ApiForm form={form} mutation={add} className="mt-4 space-y-4" submitLabel="Add endpoint" pendingLabel="Adding…">
          <TextInput form={form} name="url" id="webhook-url" type="url" required placeholder="https://example.com/webhooks" />
          <CheckboxList form={form} name="events" id="webhook-events" hint="None ticked: every event." choices={events} />
        </ApiForm>
      </Card>
      <RequestErrorNotice error={remove.error} />

      {webhooks.isLoading ? <p className="text-sm text-slate-500">Loading…</p> : null}
      {webhooks.data?.data.length === 0 ? <p className="text-sm text-slate-600">No endpoint yet.</p> : null}
      {webhooks.data?.data.map((webhook) => (
        <EndpointCard key={webhook.id} webhook={webhook} onDelete={() => remove.mutate(webhook.id)} deleting={remove.isPending} />
      ))}
    </div>
  );
}

/** One endpoint of either kind: its test event, delivery log (read through its kind's route), redelivery and management (EndpointControls). */
export function EndpointCard({
  webhook,
  onDelete,
  deleting,
  kind = "competition",
}: {
  webhook: WebhookView;
  onDelete: () => void;
  deleting: boolean;
  kind?: EndpointKind;
}) {
  const deliveriesOf = kind === "certification" ? webhookContracts.testResultDeliveries : webhookContracts.deliveries;
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const deliveries = useQuery({
    queryKey: queryKeys.deliveries(webhook.id),
    queryFn: () => callApi(deliveriesOf, { params: { id: webhook.id }, query: { per_page: 25 } }).then((b) => b.data),
    enabled: open,
    // Follow pending deliveries until they settle.
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === "pending") ? 1_500 : false),
  });
  const sendTest = useMutation({
    mutationFn: () => callApi(webhookContracts.sendTest, { params: { id: webhook.id } }),
    onSuccess: () => {
      setOpen(true);
      client.invalidateQueries({ queryKey: queryKeys.deliveries(webhook.id) });
    },
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) => callApi(webhookContracts.redeliver, { params: { id: deliveryId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.deliveries(webhook.id) }),
  });

  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3" data-testid="webhook-row">
        <div className="min-w-0">
          <p className="break-all font-mono text-sm font-medium">{webhook.url}</p>
          <p className="mt-1 text-xs text-slate-500">
            {webhook.events.length ? webhook.events.join(", ") : "All events"} · added {formatDateTime(webhook.created_at)}
          </p>
          <EndpointHealth webhook={webhook} />
          <EndpointControls webhook={webhook} kind={kind} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" type="button" onClick={() => sendTest.mutate()} disabled={sendTest.isPending}>
            Send test event
          </Button>
          <Button variant="secondary" type="button" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
            {open ? "Hide deliveries" : "Deliveries"}
          </Button>
          <ConfirmButton
            variant="danger"
            disabled={deleting}
            question={`Delete ${webhook.url}? Nothing more will be sent to it.`}
            onConfirm={() => onDelete()}
          >
            Delete
          </ConfirmButton>
        </div>
      </div>
      <RequestErrorNotice error={sendTest.error} />
      {open ? (
        <div className="mt-4 md:overflow-x-auto">
          {deliveries.data?.length === 0 ? <p className="text-sm text-slate-600">No delivery yet.</p> : null}
          {deliveries.data?.length ? (
            <table role="table" className="stack-table block w-full min-w-[640px] text-left text-sm max-md:min-w-0 md:table">
              <caption className="sr-only">Deliveries to {webhook.url}</caption>
              <thead className="text-xs uppercase text-slate-500 max-md:sr-only">
                <tr>
                  <th className="py-1">Event</th>
                  <th>Status</th>
                  <th>Attempts</th>
                  <th>Created (UTC)</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="block divide-y divide-slate-100 md:table-row-group">
                {deliveries.data.map((delivery) => (
                  <tr key={delivery.id} data-testid="delivery-row" data-event={delivery.event} data-status={delivery.status}>
                    <DeliveryEventCell delivery={delivery} />
                    <td data-label="Status">
                      <StatusBadge status={delivery.status} />
                    </td>
                    <td data-label="Attempts">
                      <ol className="space-y-0.5">
                        {delivery.attempts.map((attempt) => (
                          <li key={attempt.number} className="text-xs" title={attempt.response_excerpt || undefined} data-attempt-state={attempt.state}>
                            {attempt.state === "in_flight" ? (
                              <>#{attempt.number}: sending…</>
                            ) : attempt.state === "interrupted" ? (
                              <span className="text-amber-700">#{attempt.number}: interrupted — no response recorded</span>
                            ) : (
                              <>
                                #{attempt.number}: {attempt.status_code ?? "—"} {attempt.error && !attempt.ok ? `(${attempt.error})` : ""} · {attempt.duration_ms} ms
                              </>
                            )}
                          </li>
                        ))}
                        {delivery.status === "pending" ? <li className="text-xs text-slate-500">next try pending…</li> : null}
                      </ol>
                    </td>
                    <td className="text-xs" data-label="Created (UTC)">{formatDateTime(delivery.created_at, { seconds: true })}</td>
                    <td className="text-right">
                      <Button variant="ghost" type="button" onClick={() => redeliver.mutate(delivery.id)} disabled={redeliver.isPending}>
                        Redeliver
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}

function StatusBadge({ status }: { status: DeliveryView["status"] }) {
  const tones: Record<DeliveryView["status"], string> = {
    pending: "bg-amber-100 text-amber-800",
    delivered: "bg-green-100 text-green-800",
    dropped: "bg-red-100 text-red-800",
    not_sent: "bg-slate-100 text-slate-700",
  };
  return <span className={`rounded px-2 py-0.5 text-xs font-medium ${tones[status]}`}>{status === "not_sent" ? "not sent (disabled)" : status}</span>;
}
