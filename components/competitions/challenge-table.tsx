"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { callApi } from "@/components/api";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { actionsColumn, numeric, ScrollTable } from "@/components/ui/table";
import { artifactContracts } from "@/lib/ctf/play/artifacts/contracts";
import type { RevealView } from "@/lib/ctf/play/artifacts/schemas";
import type { CtfView } from "@/lib/ctf/competitions/schemas";
import type { ChallengeView } from "@/lib/ctf/challenges/schemas";
import { challengeContracts } from "@/lib/ctf/challenges/contracts";
import { queryKeys } from "@/components/query-keys";
import { ChallengeFiles } from "./challenge-files";
import { ChallengeSettingsSummary } from "./challenge-settings-fields";
import { challengeCan } from "./format";
import { RevealedFlag, revealQuestion } from "./revealed-flag";
import { StatusBadge } from "./ui";

/** A button of a challenge's row: shown when the challenge's status allows its `rule` (./format.ts); deleting asks first. */
type ChallengeButton = {
  action: "publish" | "unpublish" | "delete";
  rule: Parameters<typeof challengeCan>[0];
  label: string;
  running?: string;
  variant: "secondary" | "danger";
  question?: (title: string) => string;
};

const challengeButtons: ChallengeButton[] = [
  { action: "publish", rule: "publish", label: "Publish", running: "Publishing…", variant: "secondary" },
  { action: "unpublish", rule: "unpublish", label: "Unpublish", running: "Unpublishing…", variant: "secondary" },
  { action: "delete", rule: "remove", label: "Delete", variant: "danger", question: (title) => `Delete the challenge "${title}"?` },
];

/** Publish, unpublish or delete a challenge: the list is read again, and after a delete the competition's counts too. */
function useChallengeAction(ctfId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ challenge, action }: { challenge: ChallengeView; action: ChallengeButton["action"] }): Promise<unknown> =>
      action === "delete"
        ? callApi(challengeContracts.deleteChallenge, { params: { ctf_id: ctfId, challenge_id: challenge.id } })
        : callApi(challengeContracts[action], { params: { ctf_id: ctfId, challenge_id: challenge.id } }),
    onSettled: (_result, _error, { action }) => {
      client.invalidateQueries({ queryKey: queryKeys.ctfChallenges(ctfId) });
      if (action === "delete") {
        client.invalidateQueries({ queryKey: queryKeys.ctf(ctfId), exact: true });
        client.invalidateQueries({ queryKey: queryKeys.ctfList() });
      }
    },
  });
}

/** The flags of generated challenges the organiser revealed, by challenge id, and how to reveal or hide one. */
function useRevealedFlags(ctfId: string) {
  // Revealed flags live in the table's state only, never in the query cache.
  const [revealed, setRevealed] = useState<Record<string, RevealView>>({});
  const reveal = useMutation({
    mutationFn: (challenge: ChallengeView) => callApi(artifactContracts.reveal, { params: { ctf_id: ctfId, challenge_id: challenge.id }, body: { confirm: true } }),
    onSuccess: (answer) => setRevealed((shown) => ({ ...shown, [answer.challenge_id]: answer })),
  });
  const hide = (challengeId: string) =>
    setRevealed((all) => {
      const { [challengeId]: _hidden, ...rest } = all;
      return rest;
    });
  return { revealed, reveal, hide };
}

export function ChallengeTable({
  ctf,
  challenges,
  loading,
  error,
  maxFileBytes,
}: {
  ctf: CtfView;
  challenges?: ChallengeView[];
  loading: boolean;
  error: Error | null;
  maxFileBytes: number;
}) {
  // The challenge whose files are shown below its row (one at a time).
  const [filesOf, setFilesOf] = useState<string | null>(null);
  const act = useChallengeAction(ctf.id);
  // The host's own challenge id means something only on an external platform (CTFd); the built-in host's is ours alone.
  const external = ctf.host !== "builtin";
  const columns = external ? 6 : 5;
  const flags = useRevealedFlags(ctf.id);
  const deployed = ctf.status === "deployed";
  const archived = ctf.status === "archived";
  const titles = new Map((challenges ?? []).map((challenge) => [challenge.id, challenge.title]));

  if (loading) return <p className="text-sm text-slate-600">Loading challenges…</p>;
  if (error && !challenges) return <Notice tone="error">{error.message}</Notice>;
  return (
    <Card className="p-0">
      {!deployed && !archived && challenges?.some((challenge) => challengeCan("publish", challenge.status)) ? (
        <p className="border-b border-slate-200 bg-slate-50 px-4 py-2 text-sm text-slate-600">Challenges can be published once the competition is deployed.</p>
      ) : null}
      <RequestErrorNotice error={act.error} className="px-4 pt-3" />
      <RequestErrorNotice error={flags.reveal.error} className="px-4 pt-3" />
      {!challenges?.length ? (
        <p className="p-5 text-sm text-slate-600">No challenges yet{archived ? "." : ": add one or generate one above."}</p>
      ) : (
        <ScrollTable
          label="Challenges"
          caption={`Challenges of ${ctf.title}, newest first`}
          minWidth="min-w-[760px]"
          inset="px-4"
          columns={["Title", "Category", numeric("Points"), "Status", ...(external ? [numeric("Platform ID")] : []), actionsColumn]}
        >
          {challenges.map((challenge) => {
            const filesShown = filesOf === challenge.id;
            const shown = flags.revealed[challenge.id];
            return (
              <Fragment key={challenge.id}>
                <tr data-testid="challenge-row" data-title={challenge.title} data-status={challenge.status} className="align-top">
                  <ChallengeSummary challenge={challenge} titles={titles} />
                  <td className="px-4 py-3 text-slate-600" data-label="Category">
                    {challenge.category}
                    {challenge.difficulty ? <span className="block text-xs text-slate-500">{challenge.difficulty}</span> : null}
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums" data-label="Points">
                    {challenge.points}
                  </td>
                  <td className="px-4 py-3" data-label="Status">
                    <StatusBadge status={challenge.status} />
                  </td>
                  {external ? (
                    <td className="px-4 py-3 text-right tabular-nums" data-testid="platform-challenge-id" data-label="Platform ID">
                      {challenge.platform_challenge_id ?? <span className="text-slate-400">—</span>}
                    </td>
                  ) : null}
                  <td className="px-4 py-3 max-md:pt-2!">
                    <div className="flex flex-wrap justify-end gap-2 max-md:justify-start">
                      <Button
                        type="button"
                        variant="ghost"
                        aria-expanded={filesShown}
                        aria-controls={`files-${challenge.id}`}
                        aria-label={`Files of ${challenge.title}`}
                        onClick={() => setFilesOf(filesShown ? null : challenge.id)}
                      >
                        Files
                      </Button>
                      {archived ? null : <ChallengeStatusButtons challenge={challenge} act={act} deployed={deployed} />}
                      {challenge.template && challenge.status !== "generating" && !shown ? <RevealFlagButton challenge={challenge} reveal={flags.reveal} /> : null}
                    </div>
                  </td>
                </tr>
                {shown ? (
                  <tr>
                    <td colSpan={columns} className="px-4 pb-4">
                      <RevealedFlag title={challenge.title} revealed={shown} onHide={() => flags.hide(challenge.id)} />
                    </td>
                  </tr>
                ) : null}
                {filesShown ? (
                  <tr id={`files-${challenge.id}`} className="bg-slate-50">
                    <td colSpan={columns} className="px-4 py-4">
                      <ChallengeFiles ctfId={ctf.id} challenge={challenge} archived={archived} maxFileBytes={maxFileBytes} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </ScrollTable>
      )}
    </Card>
  );
}

/** The row's header cell: the title, and under it what the organiser needs to tell challenges apart or see why one failed. */
function ChallengeSummary({ challenge, titles }: { challenge: ChallengeView; titles: Map<string, string> }) {
  return (
    <th scope="row" className="px-4 py-3 font-medium">
      <span className="wrap-anywhere">{challenge.title}</span>
      {challenge.description ? <span className="mt-0.5 line-clamp-2 block text-xs font-normal text-slate-500">{challenge.description}</span> : null}
      {challenge.hints.length ? (
        <span className="block text-xs font-normal text-slate-500">{challenge.hints.length === 1 ? "1 hint" : `${challenge.hints.length} hints`}</span>
      ) : null}
      {challenge.template ? <span className="block text-xs font-normal text-slate-500">Generated ({challenge.template})</span> : null}
      <ChallengeSettingsSummary challenge={challenge} titles={titles} />
      {challenge.last_error && challenge.status.endsWith("_failed") ? (
        <span className="mt-1 block wrap-anywhere text-xs font-normal text-red-700">{challenge.last_error}</span>
      ) : null}
    </th>
  );
}

/** The buttons that change a challenge's status, those its status allows; publishing waits for the competition's deployment. */
function ChallengeStatusButtons({ challenge, act, deployed }: { challenge: ChallengeView; act: ReturnType<typeof useChallengeAction>; deployed: boolean }) {
  const busy = act.isPending && act.variables?.challenge.id === challenge.id;
  return (
    <>
      {challengeButtons
        .filter(({ rule }) => challengeCan(rule, challenge.status))
        .map(({ action, label, running, variant, question }) => (
          <ConfirmButton
            key={action}
            variant={variant}
            disabled={act.isPending || (action === "publish" && !deployed)}
            title={action === "publish" && !deployed ? "Deploy the competition first" : undefined}
            aria-label={`${label} ${challenge.title}`}
            question={question?.(challenge.title)}
            onConfirm={() => act.mutate({ challenge, action })}
          >
            {busy && running ? running : label}
          </ConfirmButton>
        ))}
    </>
  );
}

function RevealFlagButton({ challenge, reveal }: { challenge: ChallengeView; reveal: ReturnType<typeof useRevealedFlags>["reveal"] }) {
  return (
    <ConfirmButton
      variant="ghost"
      disabled={reveal.isPending}
      aria-label={`Reveal the flag of ${challenge.title}`}
      question={revealQuestion(challenge.title)}
      onConfirm={() => reveal.mutate(challenge)}
    >
      {reveal.isPending && reveal.variables?.id === challenge.id ? "Revealing…" : "Reveal flag"}
    </ConfirmButton>
  );
}
