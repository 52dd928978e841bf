"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { usePageQuery } from "@/components/use-page-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "@/components/api";
import { FormErrors } from "@/components/forms/form-errors";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { BackLink } from "@/components/ui/back-link";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { NotLoaded } from "@/components/ui/not-loaded";
import { ctfContracts } from "@/lib/ctf/competitions/contracts";
import type { CtfView } from "@/lib/ctf/competitions/schemas";
import { queryKeys } from "@/components/query-keys";
import { type CtfOptions } from "./api";
import { ChallengesSection } from "./challenges-section";
import { CompetitionFields } from "./competition-fields";
import { competitionValuesOf, editCompetitionSchema, type CtfPatch } from "./competition-forms";
import { DeploymentsSection } from "./deployments-section";
import { formatDateTime, formatWindow } from "@/components/format/date";
import { ctfActions, isTransitional, type CtfAction } from "./format";
import { MembersSection } from "./members-section";
import { SnapshotSection } from "./snapshot-section";
import { LocalWindow } from "@/components/format/time-zone";
import { HostNote, StatusBadge } from "./ui";

/**
 * One competition: its state and the actions valid in it, then challenges, standalone
 * deployments, members and (once archived) the final snapshot. Every list follows itself
 * every 2 s while something in it is in a transitional state.
 */
export function CompetitionDetail({ id, initial, options }: { id: string; initial?: CtfView; options: CtfOptions }) {
  const ctf = usePageQuery({
    queryKey: queryKeys.ctf(id),
    queryFn: () => callApi(ctfContracts.get, { params: { ctf_id: id } }),
    initial,
    refetchInterval: (query) => (query.state.data && isTransitional(query.state.data.status) ? 2_000 : false),
  });

  if (!ctf.data) return <NotLoaded query={ctf} failure="The competition could not be loaded." />;
  const data = ctf.data;

  return (
    <>
      <BackLink href="/competitions">All competitions</BackLink>
      <div className="space-y-6">
        <Overview ctf={data} />
        <ChallengesSection ctf={data} options={options} />
        <DeploymentsSection ctf={data} />
        <MembersSection ctf={data} />
        {data.status === "archived" ? <SnapshotSection ctf={data} /> : null}
      </div>
    </>
  );
}

const actionLabels: Record<CtfAction, (ctf: CtfView) => string> = {
  deploy: (ctf) => (ctf.status === "deploy_failed" ? "Retry deploy" : ctf.status === "stopped" ? "Deploy again" : "Deploy"),
  stop: () => "Stop",
  archive: () => "Archive",
  delete: () => "Delete",
};

const confirmations: Partial<Record<CtfAction, (ctf: CtfView) => string>> = {
  stop: (ctf) => `Stop "${ctf.title}"? The competition goes offline until you deploy it again.`,
  archive: (ctf) =>
    `Archive "${ctf.title}"? It goes offline for good; a final snapshot of its challenges, members and scores is kept, and nothing can change afterwards.`,
  delete: (ctf) => `Delete "${ctf.title}" with its challenges, members and deployments? This cannot be undone.`,
};

function Overview({ ctf }: { ctf: CtfView }) {
  const client = useQueryClient();
  const router = useRouter();
  const action = useMutation({
    mutationFn: (which: CtfAction): Promise<CtfView | { deleted: true }> =>
      which === "delete" ? callApi(ctfContracts.remove, { params: { ctf_id: ctf.id } }) : callApi(ctfContracts[which], { params: { ctf_id: ctf.id } }),
    onSuccess: (result, which) => {
      client.invalidateQueries({ queryKey: queryKeys.ctfList() });
      if (which === "delete") {
        client.removeQueries({ queryKey: queryKeys.ctf(ctf.id) });
        router.push("/competitions");
        return;
      }
      client.setQueryData(queryKeys.ctf(ctf.id), result as CtfView);
      client.invalidateQueries({ queryKey: queryKeys.ctfChallenges(ctf.id) });
    },
    // Refused (e.g. 409: it changed elsewhere): show the message and the state as it really is.
    onError: () => client.invalidateQueries({ queryKey: queryKeys.ctf(ctf.id), exact: true }),
  });
  const actions = ctfActions(ctf.status);

  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="wrap-anywhere text-2xl font-semibold tracking-tight">{ctf.title}</h1>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <StatusBadge status={ctf.status} testId="ctf-status" />
            <span>{ctf.is_public ? "Public" : "Private"}</span>
            <span aria-hidden="true">·</span>
            <span>{ctf.host === "ctfd" ? "Hosted on CTFd" : "Built-in host"}</span>
          </div>
        </div>
        <div className="flex flex-wrap gap-2" data-testid="ctf-actions">
          {actions.map((which) => (
            <ConfirmButton
              key={which}
              variant={which === "deploy" ? "primary" : which === "delete" ? "danger" : "secondary"}
              disabled={action.isPending}
              question={confirmations[which]?.(ctf)}
              onConfirm={() => action.mutate(which)}
            >
              {action.isPending && action.variables === which ? `${actionLabels[which](ctf)}…` : actionLabels[which](ctf)}
            </ConfirmButton>
          ))}
        </div>
      </div>

      {ctf.description ? <p className="mt-3 whitespace-pre-line text-sm text-slate-700">{ctf.description}</p> : null}

      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-slate-500">Window</dt>
        <dd>
          <span data-testid="ctf-window">{formatWindow(ctf.starts_at, ctf.ends_at)}</span>
          <LocalWindow startsAt={ctf.starts_at} endsAt={ctf.ends_at} />
        </dd>
        <dt className="text-slate-500">Mode</dt>
        <dd data-testid="ctf-mode">
          {ctf.mode === "teams" ? `Teams${ctf.team_size_max === null ? "" : ` of up to ${ctf.team_size_max}`}` : "Individual"}
        </dd>
        {ctf.freeze_at ? (
          <>
            <dt className="text-slate-500">Scoreboard freeze</dt>
            <dd data-testid="ctf-freeze">{formatDateTime(ctf.freeze_at)}</dd>
          </>
        ) : null}
        <dt className="text-slate-500">Challenges · members</dt>
        <dd>
          {ctf.challenges} · {ctf.members}
        </dd>
        {ctf.deployed_at ? (
          <>
            <dt className="text-slate-500">Last deployed</dt>
            <dd>{formatDateTime(ctf.deployed_at)}</dd>
          </>
        ) : null}
        {ctf.archived_at ? (
          <>
            <dt className="text-slate-500">Archived</dt>
            <dd>{formatDateTime(ctf.archived_at)}</dd>
          </>
        ) : null}
        {ctf.status === "deployed" && ctf.url ? (
          <>
            <dt className="text-slate-500">Address</dt>
            <dd className="min-w-0">
              <a href={ctf.url} target="_blank" rel="noreferrer" className="font-medium text-brand-700 underline underline-offset-2" data-testid="ctf-public-link">
                Open competition page
              </a>
              <span className="ml-2 break-all text-xs text-slate-500">{ctf.url}</span>
            </dd>
          </>
        ) : null}
      </dl>

      {ctf.status === "deploying" ? (
        <p className="mt-4 text-sm text-slate-600" aria-live="polite">
          Deploying in the background… this page updates by itself.
        </p>
      ) : null}
      {ctf.status === "deploy_failed" && ctf.last_error ? (
        <div className="mt-4">
          <Notice tone="error">
            <p className="font-semibold">The last deploy failed</p>
            <p data-testid="ctf-last-error" className="wrap-anywhere">
              {ctf.last_error}
            </p>
          </Notice>
        </div>
      ) : null}
      <RequestErrorNotice error={action.error} className="mt-4" />

      <p className="mt-4 text-xs text-slate-500">
        <HostNote host={ctf.host} />
      </p>

      {ctf.status !== "archived" ? <EditDetails ctf={ctf} /> : null}
    </Card>
  );
}

function EditDetails({ ctf }: { ctf: CtfView }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="mt-4 rounded-md border border-slate-200" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-700">Edit details</summary>
      {open ? <EditForm ctf={ctf} onDone={() => setOpen(false)} /> : null}
    </details>
  );
}

/** Mounted when opened: starts from the competition as it is then; polling does not overwrite typing. */
function EditForm({ ctf, onDone }: { ctf: CtfView; onDone: () => void }) {
  const client = useQueryClient();
  const form = useApiForm(editCompetitionSchema, { defaultValues: competitionValuesOf(ctf) });
  // As the server decides (lib/ctf/competitions/competitions.ts, hasStarted): players may have played.
  const started = ["deployed", "stopped"].includes(ctf.status) && ctf.deployed_at !== null && Date.now() >= Date.parse(ctf.starts_at);
  const save = useFormMutation(form, {
    mutationFn: (body: CtfPatch) => callApi(ctfContracts.update, { params: { ctf_id: ctf.id }, body }),
    onSuccess: (updated) => {
      client.setQueryData(queryKeys.ctf(ctf.id), updated);
      client.invalidateQueries({ queryKey: queryKeys.ctfList() });
      onDone();
    },
  });
  return (
    <form className="space-y-4 border-t border-slate-200 p-3" noValidate onSubmit={form.handleSubmit((body) => save.mutate(body))}>
      <CompetitionFields
        form={form}
        idPrefix="edit-ctf"
        modeLocked={started ? `The competition has started: it stays ${ctf.mode === "teams" ? "a teams" : "an individual"} competition (solves and tries are already counted that way).` : undefined}
      />
      {ctf.status === "deployed" && ctf.host === "ctfd" ? (
        <p className="text-xs text-slate-500">Changes are saved here; the running CTFd instance keeps its own settings.</p>
      ) : null}
      <FormErrors errors={form.formState.errors} />
      <div className="flex gap-2">
        <SubmitButton pending={save.isPending} pendingLabel="Saving…">
          Save changes
        </SubmitButton>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
