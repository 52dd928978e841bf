import { formatWindow } from "@/components/competitions/format";
import type { PublicCompetition } from "@/lib/ctf/play/public";
import type { CompetitionPhase } from "./phase";

const phases = {
  not_started: { label: "Not started yet", tone: "bg-amber-50 text-amber-800 ring-amber-200" },
  running: { label: "Running now", tone: "bg-green-50 text-green-800 ring-green-200" },
  ended: { label: "Ended", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
  archived: { label: "Archived", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
} as const satisfies Record<CompetitionPhase, { label: string; tone: string }>;

/** The competition's title, its phase as a coloured pill, its window and its description. */
export function CompetitionHeader({ ctf, phase }: { ctf: PublicCompetition; phase: CompetitionPhase }) {
  const current = phases[phase];
  return (
    <header className="space-y-3">
      <h1 className="wrap-anywhere text-3xl font-semibold tracking-tight">{ctf.title}</h1>
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
        <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${current.tone}`} data-testid="ctf-phase">
          {current.label}
        </span>
        <span data-testid="ctf-window">{formatWindow(ctf.starts_at, ctf.ends_at)}</span>
      </div>
      {ctf.description ? <p className="max-w-3xl whitespace-pre-line text-slate-700">{ctf.description}</p> : null}
    </header>
  );
}
