/**
 * Where a competition's public page stands: before, during or after its window (a deployed
 * competition), or archived (only the snapshot's final scoreboard is left).
 */
export type CompetitionPhase = "not_started" | "running" | "ended" | "archived";

/** Whether people may still join and play: before the start and while it runs. */
export const isOpen = (phase: CompetitionPhase) => phase === "not_started" || phase === "running";
