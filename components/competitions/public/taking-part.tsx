import { JoinCompetitionForm } from "@/components/competitions/join-competition-form";
import { ResendLinkForm } from "@/components/play/resend-link-form";
import { Card } from "@/components/ui/card";
import type { Player } from "@/lib/ctf/play/players";
import type { PublicCompetition } from "@/lib/ctf/play/public";
import { isOpen, type CompetitionPhase } from "./phase";

/**
 * How the visitor takes part: where a competition hosted on CTFd is played; the player's name
 * (and score when played here); else, while it is open, the join form (a public competition)
 * or the word that it is by invitation, and the way to get one's link again.
 */
export function TakingPart({
  ctf,
  phase,
  playedHere,
  player,
  progress,
}: {
  ctf: PublicCompetition;
  phase: CompetitionPhase;
  playedHere: boolean;
  player: Player | null;
  progress: { score: number } | null;
}) {
  const open = isOpen(phase);
  return (
    <>
      {!playedHere && open ? (
        <Card className="mt-8">
          <p className="text-sm text-slate-700" data-testid="played-on-host">
            This competition is played on CTFd
            {ctf.url ? (
              <>
                :{" "}
                <a className="font-medium text-brand-700 underline" href={ctf.url}>
                  open it
                </a>
              </>
            ) : null}
            . Register there with the address you take part with, so your score shows here.
          </p>
        </Card>
      ) : null}

      {player && (progress || phase === "archived") ? (
        <Card className="mt-8">
          <p className="text-sm text-slate-600">
            {open ? "Playing as " : "You played as "}
            <span className="font-semibold text-slate-900" data-testid="player-name">{player.name}</span>
            {progress && playedHere ? (
              <>
                {" "}
                · score <span className="font-semibold tabular-nums text-slate-900" data-testid="player-score">{progress.score}</span>
              </>
            ) : null}
          </p>
        </Card>
      ) : !open || player ? null : ctf.is_public ? (
        <Card className="mt-8">
          <h2 className="font-semibold">Join this competition</h2>
          <p className="mt-1 mb-3 text-sm text-slate-600">Enter your e-mail address: we send you a link to confirm. No account or password needed.</p>
          <JoinCompetitionForm ctfId={ctf.id} />
        </Card>
      ) : (
        <p className="mt-6 text-sm text-slate-600">Taking part is by invitation: use the link in your invitation e-mail.</p>
      )}

      {player || !open ? null : (
        <details className="mt-4 text-sm">
          <summary className="cursor-pointer font-medium text-slate-700">Already taking part? Send me my link again</summary>
          <div className="mt-3 max-w-md">
            <ResendLinkForm ctfId={ctf.id} />
          </div>
        </details>
      )}
    </>
  );
}
