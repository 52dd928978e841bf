"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { queryKeys } from "@/components/query-keys";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { OneTimeSecret } from "@/components/ui/one-time-secret";
import type { WebhookView } from "@/lib/platform/webhooks/schemas";
import { EditEndpointForm, type EndpointKind, managementOf, RecoverForm } from "./endpoint-forms";

/**
 * Pause or resume an endpoint, change its address (and events), rotate its secret (the new one
 * shown once) and recover what it missed: the same /api/v1 routes an integrator calls, with
 * the session. Each change refreshes every webhook query (the lists, delivery logs, health).
 */
export function EndpointControls({ webhook, kind }: { webhook: WebhookView; kind: EndpointKind }) {
  const manage = managementOf(kind);
  const client = useQueryClient();
  const onChanged = () => client.invalidateQueries({ queryKey: queryKeys.webhooks() });
  const [panel, setPanel] = useState<"edit" | "recover" | null>(null);
  const toggle = useMutation({
    mutationFn: () => callApi(manage.update, { params: { id: webhook.id }, body: { enabled: !webhook.enabled } }),
    onSuccess: () => onChanged(),
  });
  const rotate = useMutation({
    mutationFn: () => callApi(manage.rotateSecret, { params: { id: webhook.id }, body: {} }),
    onSuccess: () => onChanged(),
  });
  const done = () => {
    setPanel(null);
    onChanged();
  };

  return (
    <div className="mt-3 space-y-3" data-testid="endpoint-controls">
      {rotate.data ? (
        <OneTimeSecret title="Secret rotated" secret={rotate.data.secret} testId="rotated-secret" onDone={() => rotate.reset()}>
          New signing secret for <span className="break-all font-mono">{webhook.url}</span>. Copy it now: it is shown this once. Until{" "}
          {new Date(rotate.data.previous_secret_expires_at).toUTCString()} the previous secret signs every delivery too.
        </OneTimeSecret>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {webhook.enabled ? (
          <ConfirmButton variant="secondary" disabled={toggle.isPending} question={`Disable ${webhook.url}? Nothing is sent until you enable it; events meanwhile are recorded as not sent.`} onConfirm={() => toggle.mutate()}>
            Disable
          </ConfirmButton>
        ) : (
          <Button variant="secondary" type="button" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
            Enable
          </Button>
        )}
        <Button variant="ghost" type="button" aria-expanded={panel === "edit"} onClick={() => setPanel(panel === "edit" ? null : "edit")}>
          Edit
        </Button>
        <ConfirmButton variant="ghost" disabled={rotate.isPending} question="Rotate the signing secret? The old one keeps signing for 24 hours." onConfirm={() => rotate.mutate()}>
          Rotate secret
        </ConfirmButton>
        <Button variant="ghost" type="button" aria-expanded={panel === "recover"} onClick={() => setPanel(panel === "recover" ? null : "recover")}>
          Recover missed
        </Button>
      </div>
      {webhook.enabled ? null : <p className="text-xs text-slate-600">Disabled: nothing is sent; events are recorded as not sent (recover them once enabled).</p>}
      <RequestErrorNotice error={toggle.error ?? rotate.error} />
      {panel === "edit" ? <EditEndpointForm webhook={webhook} kind={kind} onDone={done} /> : null}
      {panel === "recover" ? <RecoverForm webhook={webhook} kind={kind} onRecovered={onChanged} /> : null}
    </div>
  );
}
