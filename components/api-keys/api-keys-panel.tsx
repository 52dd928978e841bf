"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "@/components/api";
import { CheckboxList, Radio, TextInput } from "@/components/forms/inputs";
import { formatDateTime } from "@/components/format/date";
import { ApiForm } from "@/components/forms/api-form";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Card } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { OneTimeSecret } from "@/components/ui/one-time-secret";
import { actionsColumn, ScrollTable } from "@/components/ui/table";
import { keyContracts } from "@/lib/platform/keys/contracts";
import type { CreateApiKeyInput } from "@/lib/platform/keys/schemas";
import { apiScopes, scopeDescriptions } from "@/lib/kernel/scopes";
import { queryKeys } from "@/components/query-keys";
import { newKeySchema } from "./new-key-schema";

const when = (iso: string | null) => formatDateTime(iso, { missing: "Never" });

export function ApiKeysPanel() {
  const client = useQueryClient();
  const keys = useQuery({ queryKey: queryKeys.apiKeys(), queryFn: () => callApi(keyContracts.list).then((body) => body.data) });
  const form = useApiForm(newKeySchema, { defaultValues: { name: "", access: "full", scopes: [] } });
  const create = useFormMutation(form, {
    mutationFn: (body: CreateApiKeyInput) => callApi(keyContracts.create, { body }),
    onSuccess: () => {
      form.reset({ ...form.getValues(), name: "" });
      client.invalidateQueries({ queryKey: queryKeys.apiKeys() });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => callApi(keyContracts.revoke, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys() }),
  });

  const active = keys.data?.filter((key) => !key.revoked_at) ?? [];
  const created = create.data;
  return (
    <div className="space-y-6">
      {created ? (
        <OneTimeSecret title={<>Key &ldquo;{created.key.name}&rdquo; created</>} secret={created.secret} testId="new-key-secret" onDone={() => create.reset()}>
          Copy it now: it is shown this once and never again.
        </OneTimeSecret>
      ) : null}

      <Card>
        <h2 className="font-semibold">Create a key</h2>
        <p className="mt-1 text-sm text-slate-600">
          {active.length} of 5 active keys. Each key has its own rate limit: 120 requests per 60 seconds.
        </p>
        <ApiForm form={form} mutation={create} className="mt-4 space-y-4" submitLabel="Create key" pendingLabel="Creating…">
          <TextInput form={form} name="name" id="key-name" required maxLength={64} placeholder="e.g. LMS integration" />
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">Access</legend>
            <Radio form={form} name="access" value="full">
            Full access
          </Radio>
            <Radio form={form} name="access" value="scopes">
            Only these scopes
          </Radio>
            {form.watch("access") === "scopes" ? (
              <div className="ml-6">
                <CheckboxList form={form} name="scopes" id="key-scopes" choices={apiScopes.map((scope) => ({ value: scope, description: scopeDescriptions[scope] }))} />
              </div>
            ) : null}
          </fieldset>
        </ApiForm>
      </Card>

      <Card className="p-0">
        <ScrollTable label="API keys" caption="API keys" minWidth="min-w-[640px]" inset="px-4" columns={["Name", "Key", "Scopes", "Created", "Last used", actionsColumn]}>
            {keys.isLoading ? (
              <tr>
                <td className="px-4 py-3 text-slate-500" colSpan={6}>
                  Loading…
                </td>
              </tr>
            ) : null}
            {keys.data?.length === 0 ? (
              <tr>
                <td className="px-4 py-3 text-slate-500" colSpan={6}>
                  No keys yet.
                </td>
              </tr>
            ) : null}
            {keys.data?.map((key) => (
              <tr key={key.id} data-testid="api-key-row" className={key.revoked_at ? "text-slate-400" : ""}>
                <td className="px-4 py-3 font-medium">{key.name}</td>
                <td className="px-4 py-3 font-mono" data-label="Key">{key.prefix}…</td>
                <td className="px-4 py-3" data-label="Scopes">{key.scopes ? key.scopes.join(", ") : "Full access"}</td>
                <td className="px-4 py-3" data-label="Created">{when(key.created_at)}</td>
                <td className="px-4 py-3" data-label="Last used">{when(key.last_used_at)}</td>
                <td className="px-4 py-3 text-right max-md:pt-2!">
                  {key.revoked_at ? (
                    <span>Revoked</span>
                  ) : (
                    <ConfirmButton
                      variant="danger"
                      disabled={revoke.isPending}
                      question={`Revoke "${key.name}"? Requests with it will fail at once.`}
                      onConfirm={() => revoke.mutate(key.id)}
                    >
                      Revoke
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            ))}
        </ScrollTable>
      </Card>
      <RequestErrorNotice error={revoke.error} />
    </div>
  );
}
