import { Scoreboard, type Viewer } from "@/components/play/scoreboard";
import { Notice } from "@/components/ui/card";
import type { PublicScoreboard, ScoreGraph } from "@/lib/ctf/play/schemas";
import { isOpen, type CompetitionPhase } from "./phase";

/**
 * The scoreboard and the top ten's graph, live while the competition is open and final after;
 * `board` is null when the host could not be read. `titles`: the challenges' titles by id
 * (first bloods name them).
 */
export function ScoreboardSection({
  ctfId,
  phase,
  board,
  graph,
  me,
  titles,
}: {
  ctfId: string;
  phase: CompetitionPhase;
  board: PublicScoreboard | null;
  graph: ScoreGraph | null;
  me?: Viewer;
  titles: Record<string, string>;
}) {
  const open = isOpen(phase);
  return (
    <section aria-labelledby="scoreboard-title" className="mt-10" data-testid="scoreboard-section" data-final={open ? undefined : "true"}>
      <h2 id="scoreboard-title" className="text-xl font-semibold">
        {open ? "Scoreboard" : "Final scoreboard"}
      </h2>
      {board ? null : (
        <div className="mt-3">
          <Notice tone="error">The scoreboard could not be read from the hosting platform just now.</Notice>
        </div>
      )}
      <Scoreboard
        ctfId={ctfId}
        initial={board ?? { data: [], pagination: { page: 1, per_page: 100, total: 0 }, frozen_at: null }}
        initialGraph={graph}
        live={open}
        me={me}
        titles={titles}
      />
    </section>
  );
}
