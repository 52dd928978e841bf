"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import type { Page } from "@/lib/api/paging";
import type { CtfDeploymentView } from "@/lib/ctf/ctf-deployments";
import type { CtfView } from "@/lib/ctf/schemas";
import { queryKeys } from "@/lib/query-keys";
import { useChallenges } from "./challenges-section";
import { formatWindow, isTransitional } from "./format";
import { ErrorNotice, SelectField, StatusBadge } from "./ui";
import { callApi } from "@/components/api";
import { ctfContracts } from "@/lib/ctf/contracts";

const stopReasons: Record<string, string> = { window_elapsed: "window elapsed", stopped_by_request: "stopped by request" };

/** Single challenges of this competition deployed on their own for a time window; they stop by themselves. */
export function DeploymentsSection({ ctf }: { ctf: CtfView }) {
  const client = useQueryClient();
  const deployments = useQuery({
    queryKey: queryKeys.ctfDeployments(ctf.id),
    queryFn: () => (callApi(ctfContracts.deployments, { query: { ctf_id: ctf.id, per_page: 100 } }) as Promise<Page<CtfDeploymentView>>),
    // Every 2 s while one is starting; every 15 s while one is live (its window ends by itself).
    refetchInterval: (query) => {
      const list = query.state.data?.data ?? [];
      if (list.some((deployment) => isTransitional(deployment.status))) return 2_000;
      return list.some((deployment) => deployment.status === "live") ? 15_000 : false;
    },
  });
  const stop = useMutation({
    mutationFn: (deployment: CtfDeploymentView) => callApi(ctfContracts.stopDeployment, { params: { deployment_id: deployment.id } }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.ctfDeployments(ctf.id) }),
  });
  const list = deployments.data?.data;

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
      <Card className="p-0">
        {stop.error ? (
          <div className="px-4 pt-3">
            <ErrorNotice error={stop.error} />
          </div>
        ) : null}
        {deployments.isLoading ? <p className="p-5 text-sm text-slate-600">Loading deployments…</p> : null}
        {deployments.error && !list ? (
          <div className="p-4">
            <Notice tone="error">{deployments.error.message}</Notice>
          </div>
        ) : null}
        {list && list.length === 0 ? <p className="p-5 text-sm text-slate-600">No standalone deployments yet.</p> : null}
        {list?.length ? (
          <div className="overflow-x-auto" role="region" aria-label="Standalone deployments" tabIndex={0}>
            <table className="w-full min-w-[720px] text-left text-sm">
              <caption className="sr-only">Standalone deployments of this competition&rsquo;s challenges, newest first</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-2">Challenge</th>
                  <th scope="col" className="px-4 py-2">Status</th>
                  <th scope="col" className="px-4 py-2">Address</th>
                  <th scope="col" className="px-4 py-2">Window</th>
                  <th scope="col" className="px-4 py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {list.map((deployment) => (
                  <tr key={deployment.id} data-testid="deployment-row" data-status={deployment.status} data-deployment-id={deployment.id} className="align-top">
                    <th scope="row" className="px-4 py-3 font-medium">
                      {deployment.challenge_title}
                    </th>
                    <td className="px-4 py-3">
                      <StatusBadge status={deployment.status} />
                      {deployment.status === "stopped" && deployment.stop_reason ? (
                        <span className="mt-1 block text-xs text-slate-500">{stopReasons[deployment.stop_reason] ?? deployment.stop_reason}</span>
                      ) : null}
                      {deployment.status === "deploy_failed" && deployment.last_error ? (
                        <span className="mt-1 block break-words text-xs text-red-700">{deployment.last_error}</span>
                      ) : null}
                    </td>
                    <td className="px-4 py-3">
                      {deployment.status === "live" && deployment.url ? (
                        <a href={deployment.url} target="_blank" rel="noreferrer" className="break-all text-brand-700 underline underline-offset-2">
                          {deployment.url}
                        </a>
                      ) : (
                        <span className="text-slate-400">—</span>
                      )}
                    </td>
                    <td className="px-4 py-3 text-slate-600">{formatWindow(deployment.starts_at, deployment.ends_at)}</td>
                    <td className="px-4 py-3 text-right">
                      {deployment.status === "live" ? (
                        <Button
                          type="button"
                          variant="danger"
                          disabled={stop.isPending}
                          aria-label={`Stop the deployment of ${deployment.challenge_title}`}
                          onClick={() => {
                            if (window.confirm(`Stop the deployment of "${deployment.challenge_title}" now? Its page goes offline.`)) stop.mutate(deployment);
                          }}
                        >
                          {stop.isPending && stop.variables?.id === deployment.id ? "Stopping…" : "Stop"}
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Card>
    </section>
  );
}

function DeployForm({ ctf }: { ctf: CtfView }) {
  const client = useQueryClient();
  const challenges = useChallenges(ctf.id);
  const ready = (challenges.data?.data ?? []).filter((challenge) => !["generating", "generation_failed"].includes(challenge.status));
  const [challengeId, setChallengeId] = useState("");
  const [minutes, setMinutes] = useState("60");
  const deploy = useMutation({
    mutationFn: (body: { challenge_id: string; duration_minutes: number }) => callApi(ctfContracts.createDeployment, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.ctfDeployments(ctf.id) }),
  });
  const chosen = ready.some((challenge) => challenge.id === challengeId) ? challengeId : "";

  if (!challenges.isLoading && ready.length === 0) {
    return <p className="text-sm text-slate-600">Add a challenge to deploy it on its own.</p>;
  }
  return (
    <Card>
      <form
        className="flex flex-wrap items-end gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          deploy.mutate({ challenge_id: chosen, duration_minutes: Number(minutes) });
        }}
      >
        <div className="min-w-56 flex-1">
          <SelectField label="Challenge" id="deploy-challenge" value={chosen} onChange={(e) => setChallengeId(e.target.value)} required>
            <option value="">Choose a challenge</option>
            {ready.map((challenge) => (
              <option key={challenge.id} value={challenge.id}>
                {challenge.title} · {challenge.category}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="w-40">
          <TextField
            label="Minutes"
            id="deploy-minutes"
            type="number"
            min={1}
            max={60 * 24 * 30}
            step={1}
            value={minutes}
            onChange={(e) => setMinutes(e.target.value)}
            required
          />
        </div>
        <Button type="submit" disabled={deploy.isPending}>
          {deploy.isPending ? "Deploying…" : "Deploy challenge"}
        </Button>
      </form>
      {deploy.error ? (
        <div className="mt-3">
          <ErrorNotice error={deploy.error} />
        </div>
      ) : null}
    </Card>
  );
}
