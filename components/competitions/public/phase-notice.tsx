import { Countdown } from "@/components/play/countdown";
import { Card } from "@/components/ui/card";
import type { PublicCompetition } from "@/lib/ctf/play/public";
import type { CompetitionPhase } from "./phase";

/** Before the start: the countdown; after the end or once archived: that the scoreboard is final. */
export function PhaseNotice({ ctf, phase }: { ctf: PublicCompetition; phase: CompetitionPhase }) {
  return (
    <>
      {phase === "not_started" ? (
        <Card className="mt-8">
          <Countdown until={ctf.starts_at} />
          <p className="mt-1 text-sm text-slate-600">The challenges open at the start.</p>
        </Card>
      ) : null}

      {phase === "ended" || phase === "archived" ? (
        <p className="mt-8 text-sm text-slate-600" data-testid="ctf-over">
          {phase === "archived" ? "This competition is over and archived: its challenges are no longer served." : `This competition ended: no more flags are accepted.`} The
          scoreboard below is final.
        </p>
      ) : null}
    </>
  );
}
