"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { fetchJson, RequestError } from "@/components/fetch-json";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { OneTimeSecret } from "@/components/ui/one-time-secret";
import type { ApiKeyView } from "@/lib/keys/schemas";
import { apiScopes, scopeDescriptions, type ApiScope } from "@/lib/keys/scopes";
import { queryKeys } from "@/lib/query-keys";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (iso: string | null) => (iso ? `${dateFormat.format(new Date(iso))} UTC` : "Never");

export function ApiKeysPanel() {
  const client = useQueryClient();
  const keys = useQuery({
    queryKey: queryKeys.apiKeys(),
    queryFn: () => fetchJson<{ data: ApiKeyView[] }>("/api/app/keys").then((body) => body.data),
  });
  const [name, setName] = useState("");
  const [fullAccess, setFullAccess] = useState(true);
  const [scopes, setScopes] = useState<ApiScope[]>([]);
  const [created, setCreated] = useState<{ key: ApiKeyView; secret: string } | null>(null);

  const create = useMutation({
    mutationFn: () =>
      fetchJson<{ key: ApiKeyView; secret: string }>("/api/app/keys", {
        method: "POST",
        body: JSON.stringify({ name, scopes: fullAccess ? null : scopes }),
      }),
    onMutate: () => setCreated(null),
    onSuccess: (result) => {
      setCreated(result);
      setName("");
      client.invalidateQueries({ queryKey: queryKeys.apiKeys() });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => fetchJson<ApiKeyView>(`/api/app/keys/${id}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.apiKeys() }),
  });

  const active = keys.data?.filter((key) => !key.revoked_at) ?? [];

  return (
    <div className="space-y-6">
      {created ? (
        <OneTimeSecret title={<>Key &ldquo;{created.key.name}&rdquo; created</>} secret={created.secret} testId="new-key-secret" onDone={() => setCreated(null)}>
          Copy it now: it is shown this once and never again.
        </OneTimeSecret>
      ) : null}

      <Card>
        <h2 className="font-semibold">Create a key</h2>
        <p className="mt-1 text-sm text-slate-600">
          {active.length} of 5 active keys. Each key has its own rate limit: 120 requests per 60 seconds.
        </p>
        <form
          className="mt-4 space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate();
          }}
        >
          <TextField label="Name" id="key-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={64} placeholder="e.g. LMS integration" />
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">Access</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="access" checked={fullAccess} onChange={() => setFullAccess(true)} />
              Full access
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="access" checked={!fullAccess} onChange={() => setFullAccess(false)} />
              Only these scopes
            </label>
            {!fullAccess ? (
              <div className="ml-6 grid gap-2 sm:grid-cols-2">
                {apiScopes.map((scope) => (
                  <label key={scope} className="flex items-start gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="mt-1"
                      checked={scopes.includes(scope)}
                      onChange={(e) => setScopes((current) => (e.target.checked ? [...current, scope] : current.filter((s) => s !== scope)))}
                    />
                    <span>
                      <code className="font-mono">{scope}</code>
                      <span className="block text-xs text-slate-500">{scopeDescriptions[scope]}</span>
                    </span>
                  </label>
                ))}
              </div>
            ) : null}
          </fieldset>
          {create.error ? <Notice tone="error">{describe(create.error)}</Notice> : null}
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create key"}
          </Button>
        </form>
      </Card>

      <Card className="overflow-x-auto p-0">
        <table className="w-full min-w-[640px] text-left text-sm">
          <caption className="sr-only">API keys</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-500">
            <tr>
              <th className="px-4 py-2">Name</th>
              <th className="px-4 py-2">Key</th>
              <th className="px-4 py-2">Scopes</th>
              <th className="px-4 py-2">Created</th>
              <th className="px-4 py-2">Last used</th>
              <th className="px-4 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
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
                <td className="px-4 py-3 font-mono">{key.prefix}…</td>
                <td className="px-4 py-3">{key.scopes ? key.scopes.join(", ") : "Full access"}</td>
                <td className="px-4 py-3">{when(key.created_at)}</td>
                <td className="px-4 py-3">{when(key.last_used_at)}</td>
                <td className="px-4 py-3 text-right">
                  {key.revoked_at ? (
                    <span>Revoked</span>
                  ) : (
                    <Button
                      variant="danger"
                      type="button"
                      disabled={revoke.isPending}
                      onClick={() => {
                        if (confirm(`Revoke "${key.name}"? Requests with it will fail at once.`)) revoke.mutate(key.id);
                      }}
                    >
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {revoke.error ? <Notice tone="error">{describe(revoke.error)}</Notice> : null}
    </div>
  );
}

function describe(error: unknown): string {
  if (error instanceof RequestError && error.fields.length) {
    return `${error.message} ${error.fields.map((f) => `${f.field}: ${f.message}`).join("; ")}`;
  }
  return error instanceof Error ? error.message : "Something went wrong.";
}
