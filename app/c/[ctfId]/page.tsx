import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { JoinCompetitionForm } from "@/components/competitions/join-competition-form";
import { formatWindow } from "@/components/competitions/format";
import { PublicChallengeCard } from "@/components/competitions/public-challenge";
import { Card } from "@/components/ui/card";
import { getDb } from "@/db";
import { publicCompetition } from "@/lib/ctf/public";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ ctfId: string }> };

const load = cache(async (ctfId: string) => publicCompetition(await getDb(), ctfId));

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const ctf = await load((await params).ctfId);
  return { title: ctf?.title ?? "Competition not found" };
}

function phase(startsAt: string, endsAt: string, now = Date.now()): { label: string; tone: string } {
  if (now < Date.parse(startsAt)) return { label: "Not started yet", tone: "bg-amber-50 text-amber-800 ring-amber-200" };
  if (now < Date.parse(endsAt)) return { label: "Running now", tone: "bg-green-50 text-green-800 ring-green-200" };
  return { label: "Ended", tone: "bg-slate-100 text-slate-700 ring-slate-200" };
}

/** A deployed competition, served by the built-in host: anyone with the address may read it. */
export default async function PublicCompetitionPage({ params }: Params) {
  const ctf = await load((await params).ctfId);
  if (!ctf) notFound();
  const current = phase(ctf.starts_at, ctf.ends_at);
  const categories = [...new Set(ctf.challenges.map((challenge) => challenge.category))];

  return (
    <main className="mx-auto w-full max-w-4xl px-4 py-10">
      <p className="mb-2 text-sm font-bold text-brand-600">Certify · Competition</p>
      <header className="space-y-3">
        <h1 className="break-words text-3xl font-semibold tracking-tight">{ctf.title}</h1>
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
          <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${current.tone}`} data-testid="ctf-phase">
            {current.label}
          </span>
          <span data-testid="ctf-window">{formatWindow(ctf.starts_at, ctf.ends_at)}</span>
        </div>
        {ctf.description ? <p className="max-w-3xl whitespace-pre-line text-slate-700">{ctf.description}</p> : null}
      </header>

      {ctf.is_public ? (
        <Card className="mt-8">
          <h2 className="font-semibold">Join this competition</h2>
          <p className="mt-1 mb-3 text-sm text-slate-600">Enter your e-mail address: we send you a link to confirm. No account or password needed.</p>
          <JoinCompetitionForm ctfId={ctf.id} />
        </Card>
      ) : (
        <p className="mt-6 text-sm text-slate-600">Taking part is by invitation: use the link in your invitation e-mail.</p>
      )}

      <section aria-labelledby="challenges-title" className="mt-10">
        <h2 id="challenges-title" className="text-xl font-semibold">
          Challenges <span className="font-normal text-slate-500">({ctf.challenges.length})</span>
        </h2>
        {ctf.challenges.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">No challenges are published yet. Come back when the competition starts.</p>
        ) : (
          categories.map((category) => (
            <div key={category} className="mt-6">
              <h3 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">{category}</h3>
              <div className="grid gap-4 md:grid-cols-2">
                {ctf.challenges
                  .filter((challenge) => challenge.category === category)
                  .map((challenge) => (
                    <PublicChallengeCard key={challenge.id} challenge={challenge} />
                  ))}
              </div>
            </div>
          ))
        )}
      </section>
    </main>
  );
}
