"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { errorAt, Field } from "@/components/forms/field";
import { FormErrors } from "@/components/forms/form-errors";
import { showServerErrors, useApiForm } from "@/components/forms/use-api-form";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import { OneTimeSecret } from "@/components/ui/one-time-secret";
import { queryKeys } from "@/components/query-keys";
import { webhookContracts } from "@/lib/platform/webhooks/contracts";
import { createTestResultWebhookInput, type CreateTestResultWebhookInput } from "@/lib/platform/webhooks/schemas";
import { EndpointCard } from "./webhooks-panel";

/**
 * Test-result endpoints (the certification service's webhooks): an address that receives
 * `test.completed` when a recipient finishes a test. The secret is generated and shown once.
 */
export function TestResultEndpoints() {
  const client = useQueryClient();
  const endpoints = useQuery({
    queryKey: queryKeys.testResultWebhooks(),
    queryFn: () => callApi(webhookContracts.listTestResults, { query: { per_page: 100 } }),
  });
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const form = useApiForm(createTestResultWebhookInput, { defaultValues: { url: "" } });

  const add = useMutation({
    mutationFn: (body: CreateTestResultWebhookInput) => callApi(webhookContracts.createTestResult, { body }),
    onMutate: () => setCreated(null),
    onSuccess: (webhook) => {
      setCreated({ url: webhook.url, secret: webhook.secret });
      form.reset({ url: "" });
      client.invalidateQueries({ queryKey: queryKeys.testResultWebhooks() });
    },
    onError: (error) => showServerErrors(form, error),
  });
  const remove = useMutation({
    mutationFn: (id: string) => callApi(webhookContracts.removeTestResult, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.testResultWebhooks() }),
  });

  return (
    <div className="space-y-6">
      {created ? (
        <OneTimeSecret title="Test-result endpoint added" secret={created.secret} testId="test-result-secret" onDone={() => setCreated(null)}>
          Signing secret for <span className="break-all font-mono">{created.url}</span> (the key of <code>X-Webhook-Signature</code>). Copy it now: it is shown this once.
        </OneTimeSecret>
      ) : null}

      <Card>
        <h3 className="font-semibold">Add a test-result endpoint</h3>
        <form className="mt-4 space-y-4" noValidate onSubmit={form.handleSubmit((body) => add.mutate(body))}>
          <Field
            id="test-result-url"
            label="Address"
            hint="Receives test.completed when a recipient finishes a test."
            error={errorAt(form.formState.errors, "url")}
          >
            {(control) => <input {...control} type="url" className={inputClass} placeholder="https://example.com/webhooks/results" {...form.register("url")} />}
          </Field>
          <FormErrors errors={form.formState.errors} />
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? "Adding…" : "Add test-result endpoint"}
          </Button>
        </form>
      </Card>

      {endpoints.isLoading ? <p className="text-sm text-slate-500">Loading…</p> : null}
      {endpoints.error ? <p className="text-sm text-red-700">{endpoints.error.message}</p> : null}
      {endpoints.data?.data.length === 0 ? <p className="text-sm text-slate-600">No test-result endpoint yet.</p> : null}
      {endpoints.data?.data.map((webhook) => (
        <EndpointCard
          key={webhook.id}
          webhook={webhook}
          kind="certification"
          onDelete={() => remove.mutate(webhook.id)}
          deleting={remove.isPending}
        />
      ))}
    </div>
  );
}
