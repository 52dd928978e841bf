"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { FormErrors } from "@/components/forms/form-errors";
import { Select, TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Card, Notice } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { actionsColumn, ScrollTable } from "@/components/ui/table";
import type { Page } from "@/lib/kernel/paging";
import { deploymentPlayContracts } from "@/lib/ctf/deployments/play-contracts";
import type { CtfDeploymentView } from "@/lib/ctf/deployments/competition-deployments";
import type { CtfView } from "@/lib/ctf/competitions/schemas";
import { queryKeys } from "@/components/query-keys";
import { useChallenges } from "./challenges-section";
import { deploymentSchema, type DeploymentBody } from "./competition-forms";
import { formatDateTime, formatWindow } from "@/components/format/date";
import { isTransitional } from "./format";
import { ListCard, StatusBadge } from "./ui";
import { deploymentContracts } from "@/lib/ctf/deployments/contracts";

const stopReasons: Record<string, string> = { window_elapsed: "window elapsed", stopped_by_request: "stopped by request" };

/** Single challenges of this competition deployed on their own for a time window; they stop by themselves. */
export function DeploymentsSection({ ctf }: { ctf: CtfView }) {
  const client = useQueryClient();
  const deployments = useQuery({
    queryKey: queryKeys.ctfDeployments(ctf.id),
    queryFn: () => (callApi(deploymentContracts.deployments, { query: { ctf_id: ctf.id, per_page: 100 } }) as Promise<Page<CtfDeploymentView>>),
    // Every 2 s while one is starting; every 15 s while one is live (its window ends by itself).
    refetchInterval: (query) => {
      const list = query.state.data?.data ?? [];
      if (list.some((deployment) => isTransitional(deployment.status))) return 2_000;
      return list.some((deployment) => deployment.status === "live") ? 15_000 : false;
    },
  });
  const stop = useMutation({
    mutationFn: (deployment: CtfDeploymentView) => callApi(deploymentContracts.stopDeployment, { params: { deployment_id: deployment.id } }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.ctfDeployments(ctf.id) }),
  });

  return (
    <section aria-labelledby="deployments-title" className="space-y-4">
      <div>
        <h2 id="deployments-title" className="text-lg font-semibold">
          Standalone deployments
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Deploy one challenge on its own for a number of minutes, e.g. for a workshop. It stops by itself when the window ends.
        </p>
      </div>
      <DeployForm ctf={ctf} />
      <ListCard
        query={deployments}
        loading="Loading deployments…"
        empty="No standalone deployments yet."
        notice={<RequestErrorNotice error={stop.error} className="px-4 pt-3" />}
      >
        {(list) => (
          <ScrollTable
            label="Standalone deployments"
            caption="Standalone deployments of this competition&rsquo;s challenges, newest first"
            minWidth="min-w-[720px]"
            inset="px-4"
            columns={["Challenge", "Status", "Address", "Window", "Solves", actionsColumn]}
          >
            {list.map((deployment) => (
              <tr key={deployment.id} data-testid="deployment-row" data-status={deployment.status} data-deployment-id={deployment.id} className="align-top">
                <th scope="row" className="px-4 py-3 font-medium">
                  {deployment.challenge_title}
                </th>
                <td className="px-4 py-3" data-label="Status">
                  <StatusBadge status={deployment.status} />
                  {deployment.status === "stopped" && deployment.stop_reason ? (
                    <span className="mt-1 block text-xs text-slate-500">{stopReasons[deployment.stop_reason] ?? deployment.stop_reason}</span>
                  ) : null}
                  {deployment.status === "deploy_failed" && deployment.last_error ? (
                    <span className="mt-1 block wrap-anywhere text-xs text-red-700">{deployment.last_error}</span>
                  ) : null}
                </td>
                <td className="px-4 py-3" data-label="Address">
                  {deployment.status === "live" && deployment.url ? (
                    <a href={deployment.url} target="_blank" rel="noreferrer" className="break-all text-brand-700 underline underline-offset-2">
                      {deployment.url}
                    </a>
                  ) : (
                    <span className="text-slate-400">—</span>
                  )}
                </td>
                <td className="px-4 py-3 text-slate-600" data-label="Window">
                  {formatWindow(deployment.starts_at, deployment.ends_at)}
                </td>
                <td className="px-4 py-3" data-label="Solves">
                  <DeploymentSolves deploymentId={deployment.id} title={deployment.challenge_title} />
                </td>
                <td className="px-4 py-3 text-right max-md:pt-2!">
                  {deployment.status === "live" ? (
                    <ConfirmButton
                      variant="danger"
                      disabled={stop.isPending}
                      aria-label={`Stop the deployment of ${deployment.challenge_title}`}
                      question={`Stop the deployment of "${deployment.challenge_title}" now? Its page goes offline.`}
                      onConfirm={() => stop.mutate(deployment)}
                    >
                      {stop.isPending && stop.variables?.id === deployment.id ? "Stopping…" : "Stop"}
                    </ConfirmButton>
                  ) : null}
                </td>
              </tr>
            ))}
          </ScrollTable>
        )}
      </ListCard>
    </section>
  );
}

/** Who solved a deployment (`GET /api/v1/deployments/{id}/solves`), read when opened; refreshed while open. */
function DeploymentSolves({ deploymentId, title }: { deploymentId: string; title: string }) {
  const [open, setOpen] = useState(false);
  const solves = useQuery({
    queryKey: queryKeys.deploymentSolves(deploymentId),
    queryFn: () => callApi(deploymentPlayContracts.solves, { params: { deployment_id: deploymentId }, query: { per_page: 100 } }),
    enabled: open,
    refetchInterval: open ? 10_000 : false,
  });
  return (
    <details className="text-sm" onToggle={(event) => setOpen(event.currentTarget.open)} data-testid="deployment-solves">
      {/* The visible words begin the name (axe label-content-name-mismatch); the rest says whose solves. */}
      <summary className="cursor-pointer text-brand-700">
        {solves.data ? `${solves.data.pagination.total} solved` : "Show"}
        <span className="sr-only"> (solves of {title})</span>
      </summary>
      {solves.error ? <Notice tone="error">{solves.error.message}</Notice> : null}
      {solves.data ? (
        solves.data.data.length === 0 ? (
          <p className="mt-1 text-slate-600">Nobody yet.</p>
        ) : (
          <ol className="mt-1 space-y-1">
            {solves.data.data.map((solve) => (
              <li key={solve.player_id} data-testid="deployment-solve" data-name={solve.name} data-score={solve.score}>
                <span className="font-medium">{solve.name}</span> · {solve.score} pts
                {solve.hints_cost ? ` (${solve.points} − ${solve.hints_cost} for hints)` : ""} · {solve.attempts} {solve.attempts === 1 ? "try" : "tries"} ·{" "}
                <span className="text-slate-500">{formatDateTime(solve.solved_at)}</span>
              </li>
            ))}
          </ol>
        )
      ) : open ? (
        <p className="mt-1 text-slate-600">Loading…</p>
      ) : null}
    </details>
  );
}

function DeployForm({ ctf }: { ctf: CtfView }) {
  const client = useQueryClient();
  const challenges = useChallenges(ctf.id);
  const ready = (challenges.data?.data ?? []).filter((challenge) => !["generating", "generation_failed"].includes(challenge.status));
  const form = useApiForm(deploymentSchema, { defaultValues: { challenge_id: "", duration_minutes: "60" } });
  const deploy = useFormMutation(form, {
    mutationFn: (body: DeploymentBody) => callApi(deploymentContracts.createDeployment, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.ctfDeployments(ctf.id) }),
  });

  if (!challenges.isLoading && ready.length === 0) {
    return <p className="text-sm text-slate-600">Add a challenge to deploy it on its own.</p>;
  }
  return (
    <Card>
      <form className="space-y-3" noValidate onSubmit={form.handleSubmit((body) => deploy.mutate(body))}>
        <div className="flex flex-wrap items-start gap-4">
          <Select form={form} name="challenge_id" id="deploy-challenge" className="min-w-56 flex-1 space-y-1" required>
            <option value="">Choose a challenge</option>
            {ready.map((challenge) => (
              <option key={challenge.id} value={challenge.id}>
                {challenge.title} · {challenge.category}
              </option>
            ))}
          </Select>
          <TextInput form={form} name="duration_minutes" id="deploy-minutes" className="w-44 space-y-1" type="number" min={1} max={60 * 24 * 30} step={1} required />
          <SubmitButton className="mt-6" pending={deploy.isPending} pendingLabel="Deploying…">
            Deploy challenge
          </SubmitButton>
        </div>
        <FormErrors errors={form.formState.errors} />
      </form>
    </Card>
  );
}
