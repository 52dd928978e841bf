import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { formatDateTime } from "@/components/format/date";
import { PublicChallengeCard } from "@/components/competitions/public-challenge";
import { getDb } from "@/db";
import { publicDeployment } from "@/lib/ctf/public";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ deploymentId: string }> };

const load = cache(async (deploymentId: string) => publicDeployment(await getDb(), deploymentId));

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const deployment = await load((await params).deploymentId);
  return { title: deployment?.challenge.title ?? "Challenge not live" };
}

/** A live standalone deployment of one challenge, served by the built-in host until its window ends. */
export default async function DeploymentPage({ params }: Params) {
  const deployment = await load((await params).deploymentId);
  if (!deployment) notFound();
  return (
    <main className="mx-auto w-full max-w-2xl px-4 py-10">
      <p className="mb-2 text-sm font-bold text-brand-600">Certify · Challenge</p>
      <p className="mb-4 inline-flex items-center gap-2 rounded-full bg-green-50 px-3 py-1 text-sm font-medium text-green-800 ring-1 ring-inset ring-green-200" data-testid="live-until">
        <span aria-hidden="true" className="inline-block h-2 w-2 rounded-full bg-green-600" />
        Live until {formatDateTime(deployment.ends_at)}
      </p>
      <PublicChallengeCard challenge={deployment.challenge} headingLevel={1} />
    </main>
  );
}
