import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Markdown } from "@/components/ui/markdown";
import type { PublicChallenge } from "@/lib/ctf/play/public";

/**
 * One challenge as a standalone deployment's visitors see it: never its flag, never a hint's
 * text (a player unlocks it); `children` adds the play parts (hints, the flag form).
 */
export function PublicChallengeCard({
  challenge,
  headingLevel = 3,
  solved = false,
  children,
}: {
  challenge: Omit<PublicChallenge, "hints">;
  headingLevel?: 1 | 2 | 3;
  solved?: boolean;
  children?: ReactNode;
}) {
  const Heading = (["h1", "h2", "h3"] as const)[headingLevel - 1];
  return (
    <article className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" data-testid="public-challenge" data-title={challenge.title} data-solved={solved ? "true" : undefined}>
      <ChallengeHeader challenge={challenge} heading={Heading}>
        {solved ? <Badge tone="success">Solved</Badge> : null}
      </ChallengeHeader>
      {challenge.description ? <Markdown text={challenge.description} className="mt-3 text-sm text-slate-700" /> : null}
      {children}
    </article>
  );
}

/** A challenge's title, points, category and difficulty, as every card shows them; `children` adds badges (Solved). */
export function ChallengeHeader({
  challenge,
  heading: Heading = "h3",
  children,
}: {
  challenge: { title: string; points: number; category: string; difficulty: string | null };
  heading?: "h1" | "h2" | "h3";
  children?: ReactNode;
}) {
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <Heading className="text-lg font-semibold wrap-anywhere">{challenge.title}</Heading>
        <span className="shrink-0 rounded-md bg-brand-50 px-2 py-1 text-sm font-semibold tabular-nums text-brand-700">{challenge.points} pts</span>
      </div>
      <div className="mt-1 flex flex-wrap gap-2">
        <Badge>{challenge.category}</Badge>
        {challenge.difficulty ? <Badge tone="info">{challenge.difficulty}</Badge> : null}
        {children}
      </div>
    </>
  );
}
