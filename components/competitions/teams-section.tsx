"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callApi } from "@/components/api";
import { TextInput } from "@/components/forms/inputs";
import { ApiForm } from "@/components/forms/api-form";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { queryKeys } from "@/components/query-keys";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { EmailAddress } from "@/components/ui/email-address";
import { usePageQuery } from "@/components/use-page-query";
import { ctfContracts } from "@/lib/ctf/competitions/contracts";
import type { CtfView } from "@/lib/ctf/competitions/schemas";
import { teamContracts } from "@/lib/ctf/teams/contracts";
import { renameTeamInput, type RenameTeamInput, type TeamView } from "@/lib/ctf/teams/schemas";
import { ListCard } from "./ui";

/**
 * A teams-mode competition's teams, as players formed them: each with its members; rename one,
 * take a member out (the team keeps its solves), delete one (its solves go with it; its members
 * may form or join another). It follows the competition's own query, so switching the mode
 * shows or hides it at once; archived, the teams are final and read-only.
 */
export function TeamsSection({ initial }: { initial: CtfView }) {
  const ctf = usePageQuery({ queryKey: queryKeys.ctf(initial.id), queryFn: () => callApi(ctfContracts.get, { params: { ctf_id: initial.id } }), initial }).data;
  const teams = useQuery({
    queryKey: queryKeys.ctfTeams(ctf.id),
    queryFn: () => callApi(teamContracts.list, { params: { ctf_id: ctf.id }, query: { per_page: 100 } }),
    enabled: ctf.mode === "teams",
    // While deployed, players form and join teams: follow them.
    refetchInterval: ctf.status === "deployed" ? 10_000 : false,
  });
  if (ctf.mode !== "teams") return null;
  const archived = ctf.status === "archived";

  return (
    <section aria-labelledby="teams-title" className="space-y-4" data-testid="teams-section">
      <div>
        <h2 id="teams-title" className="text-lg font-semibold">
          Teams
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Players create a team on the competition&apos;s page and share its invite code with their teammates
          {ctf.team_size_max === null ? "" : ` (at most ${ctf.team_size_max} per team)`}. A team&apos;s members share its solves, hint costs and wrong tries.
        </p>
      </div>
      <ListCard query={teams} loading="Loading teams…" empty="No team yet.">
        {(list) => (
          <ul className="divide-y divide-slate-200">
            {list.map((team) => (
              <TeamRow key={team.id} ctfId={ctf.id} team={team} archived={archived} />
            ))}
          </ul>
        )}
      </ListCard>
    </section>
  );
}

function TeamRow({ ctfId, team, archived }: { ctfId: string; team: TeamView; archived: boolean }) {
  const client = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.ctfTeams(ctfId) });
  const removeMember = useMutation({
    mutationFn: (memberId: string) => callApi(teamContracts.removeMember, { params: { ctf_id: ctfId, team_id: team.id, member_id: memberId } }),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: () => callApi(teamContracts.remove, { params: { ctf_id: ctfId, team_id: team.id } }), onSettled: refresh });

  return (
    <li className="space-y-3 p-4" data-testid="team-row" data-team={team.name}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 className="font-semibold wrap-anywhere">{team.name}</h3>
        {archived ? null : (
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="secondary" onClick={() => setRenaming(!renaming)} aria-expanded={renaming}>
              Rename<span className="sr-only"> {team.name}</span>
            </Button>
            <ConfirmButton
              type="button"
              variant="danger"
              disabled={remove.isPending}
              question={`Delete team “${team.name}”? Its solves, hint unlocks and flag attempts are deleted with it; its members are left without a team.`}
              onConfirm={() => remove.mutate()}
            >
              {remove.isPending ? "Deleting…" : "Delete"}
              <span className="sr-only"> team {team.name}</span>
            </ConfirmButton>
          </div>
        )}
      </div>
      {renaming ? <RenameForm ctfId={ctfId} team={team} onDone={() => setRenaming(false)} /> : null}
      {team.members.length === 0 ? (
        <p className="text-sm text-slate-600">No member.</p>
      ) : (
        <ul className="space-y-2 text-sm" aria-label={`Members of ${team.name}`}>
          {team.members.map((member) => (
            <li key={member.id} className="flex flex-wrap items-center justify-between gap-2" data-testid="team-member" data-member={member.id}>
              <span className="min-w-0 wrap-anywhere">
                <span className="font-medium text-slate-900">{member.name}</span> <span className="text-slate-600">(<EmailAddress address={member.email} />)</span>
              </span>
              {archived ? null : (
                <ConfirmButton
                  type="button"
                  variant="secondary"
                  disabled={removeMember.isPending}
                  question={`Take ${member.name} out of “${team.name}”? The team keeps its solves and gets a new invite code, so the old one no longer lets anyone in.`}
                  onConfirm={() => removeMember.mutate(member.id)}
                >
                  Remove<span className="sr-only"> {member.name} from {team.name}</span>
                </ConfirmButton>
              )}
            </li>
          ))}
        </ul>
      )}
      <RequestErrorNotice error={removeMember.error ?? remove.error} />
    </li>
  );
}

function RenameForm({ ctfId, team, onDone }: { ctfId: string; team: TeamView; onDone: () => void }) {
  const client = useQueryClient();
  const form = useApiForm(renameTeamInput, { defaultValues: { name: team.name } });
  const rename = useFormMutation(form, {
    mutationFn: (body: RenameTeamInput) => callApi(teamContracts.rename, { params: { ctf_id: ctfId, team_id: team.id }, body }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.ctfTeams(ctfId) });
      onDone();
    },
  });
  return (
    <ApiForm form={form} mutation={rename} submitLabel="Save name" pendingLabel="Saving…" className="max-w-md space-y-3">
      <TextInput form={form} name="name" id={`team-name-${team.id}`} label="New name" autoComplete="off" maxLength={40} />
    </ApiForm>
  );
}
