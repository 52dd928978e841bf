import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import type { PublicChallenge } from "@/lib/ctf/public";

/** One challenge as competitors see it: never its flag. Hints stay folded (they may cost points). */
export function PublicChallengeCard({ challenge, headingLevel = 3 }: { challenge: PublicChallenge; headingLevel?: 1 | 2 | 3 }) {
  const Heading = (["h1", "h2", "h3"] as const)[headingLevel - 1];
  return (
    <article className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" data-testid="public-challenge" data-title={challenge.title}>
      <ChallengeHeader challenge={challenge} heading={Heading} />
      {challenge.description ? <p className="mt-3 whitespace-pre-line text-sm text-slate-700">{challenge.description}</p> : null}
      {challenge.hints.length ? (
        <div className="mt-3 space-y-1">
          {challenge.hints.map((hint, index) => (
            <details key={index} className="rounded-md border border-slate-200 px-3 py-2 text-sm">
              <summary className="cursor-pointer font-medium text-slate-700">
                Hint {index + 1}
                {hint.cost ? <span className="font-normal text-slate-500"> (costs {hint.cost} points)</span> : null}
              </summary>
              <p className="mt-1 text-slate-700">{hint.text}</p>
            </details>
          ))}
        </div>
      ) : null}
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
        <Heading className="text-lg font-semibold break-words">{challenge.title}</Heading>
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
