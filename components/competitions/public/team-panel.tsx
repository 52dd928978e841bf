"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { callApi } from "@/components/api";
import { ApiForm } from "@/components/forms/api-form";
import { TextInput } from "@/components/forms/inputs";
import { useApiForm, useFormMutation } from "@/components/forms/use-api-form";
import { queryKeys } from "@/components/query-keys";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { teamContracts } from "@/lib/ctf/teams/contracts";
import { createTeamInput, joinTeamInput, type CreateTeamInput, type JoinTeamInput, type PlayerTeamView } from "@/lib/ctf/teams/schemas";

/**
 * A teams-mode competition's player: their team (name, members, the invite code to share), or
 * the two ways to get one — create a team, or join one with the code a member shares. Either
 * reads the page again (the challenges then show the team's progress).
 */
export function TeamPanel({ ctfId, team, teamSizeMax, canChange }: { ctfId: string; team: PlayerTeamView | null; teamSizeMax: number | null; canChange: boolean }) {
  const size = teamSizeMax === null ? "" : ` A team has at most ${teamSizeMax} member${teamSizeMax === 1 ? "" : "s"}.`;
  return (
    <section aria-labelledby="team-title" className="mt-8" data-testid="team-panel">
      <Card>
        {team ? (
          <TeamCard team={team} size={size} />
        ) : (
          <>
            <h2 id="team-title" className="font-semibold">
              Your team
            </h2>
            {canChange ? (
              <>
                <p className="mt-1 text-sm text-slate-600">In this competition you play in a team: its members share solves, hint costs and wrong tries.{size}</p>
                <div className="mt-4 grid gap-6 sm:grid-cols-2">
                  <CreateTeamForm ctfId={ctfId} />
                  <JoinTeamForm ctfId={ctfId} />
                </div>
              </>
            ) : (
              <p className="mt-1 text-sm text-slate-600">You did not join a team.</p>
            )}
          </>
        )}
      </Card>
    </section>
  );
}

function TeamCard({ team, size }: { team: PlayerTeamView; size: string }) {
  return (
    <div data-testid="my-team" data-team={team.name}>
      <h2 id="team-title" className="font-semibold">
        Your team: <span className="wrap-anywhere">{team.name}</span>
      </h2>
      <p className="mt-3 text-sm font-medium text-slate-700">Members</p>
      <ul className="mt-1 list-inside list-disc text-sm text-slate-700" data-testid="team-members">
        {team.members.map((member) => (
          <li key={member.member_id} className="wrap-anywhere">
            {member.name}
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm text-slate-600">Teammates join with this invite code.{size}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900 break-all" data-testid="invite-code">
          {team.invite_code}
        </code>
        <CopyButton value={team.invite_code} label="Copy invite code" />
      </div>
    </div>
  );
}

/** After a team is created or joined: the page again (the team, the challenges' shared progress) and the board. */
function useJoined(ctfId: string) {
  const router = useRouter();
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: queryKeys.scoreboard(ctfId) });
    router.refresh();
  };
}

function CreateTeamForm({ ctfId }: { ctfId: string }) {
  const joined = useJoined(ctfId);
  const form = useApiForm(createTeamInput, { defaultValues: { name: "" } });
  const create = useFormMutation(form, {
    mutationFn: (body: CreateTeamInput) => callApi(teamContracts.create, { params: { ctf_id: ctfId }, body }),
    onSuccess: joined,
  });
  return (
    <ApiForm form={form} mutation={create} submitLabel="Create team" pendingLabel="Creating…" className="space-y-3">
      <TextInput form={form} name="name" id="team-name" label="Team name" autoComplete="off" maxLength={40} />
    </ApiForm>
  );
}

function JoinTeamForm({ ctfId }: { ctfId: string }) {
  const joined = useJoined(ctfId);
  const form = useApiForm(joinTeamInput, { defaultValues: { invite_code: "" } });
  const join = useFormMutation(form, {
    mutationFn: (body: JoinTeamInput) => callApi(teamContracts.join, { params: { ctf_id: ctfId }, body }),
    onSuccess: joined,
  });
  return (
    <ApiForm form={form} mutation={join} submitLabel="Join team" pendingLabel="Joining…" className="space-y-3" variant="secondary">
      <TextInput form={form} name="invite_code" id="team-invite-code" label="Invite code" autoComplete="off" spellCheck={false} />
    </ApiForm>
  );
}
