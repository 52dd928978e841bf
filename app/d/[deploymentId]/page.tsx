import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { formatDateTime } from "@/components/format/date";
import { PublicChallengeCard } from "@/components/competitions/public-challenge";
import { ChallengeArtifact } from "@/components/play/challenge-artifact";
import { ChallengeFiles } from "@/components/play/challenge-files";
import { DeploymentFlagForm, DeploymentHint, DeploymentJoinForm } from "@/components/play/deployment-play";
import { RefreshAt } from "@/components/play/refresh-at";
import { Card } from "@/components/ui/card";
import { urlOf } from "@/lib/kernel/contract";
import { deploymentPageContent } from "@/lib/ctf/deployments/content";
import { deploymentPlayerCookieName, deploymentProgress, findDeploymentPlayer } from "@/lib/ctf/deployments/play";
import { deploymentPlayContracts } from "@/lib/ctf/deployments/play-contracts";
import { deploymentPage } from "@/lib/ctf/deployments/page";
import { getDb } from "@/lib/platform/database";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ deploymentId: string }> };

const load = cache(async (deploymentId: string) => deploymentPage(await getDb(), deploymentId));

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const page = await load((await params).deploymentId);
  if (!page) return { title: "Challenge not found" };
  return { title: page.state === "live" ? page.challenge.title : `${page.title} (not live)` };
}

/**
 * A standalone deployment of one challenge, served by the app whatever the competition's
 * host. While live (inside its window): the challenge, and to whoever enters a display name
 * (the deployment's player cookie) its files, its generated artifact (file, web target), its
 * hints and the flag form, solves recorded to the deployment; the page turns itself into "no longer live" at the end. Being deployed or
 * failed: said so. After its window or once stopped: "no longer live". Unknown: 404.
 */
export default async function DeploymentPage({ params }: Params) {
  const page = await load((await params).deploymentId);
  if (!page) notFound();
  if (page.state !== "live") {
    const [heading, text] =
      page.state === "over"
        ? ["This challenge is no longer live", `Its window ended on ${formatDateTime(page.ended_at)}. Ask the organisers if it comes back.`]
        : page.state === "deploying"
          ? ["This challenge is not live yet", "It is being deployed: reload this page in a moment."]
          : ["This challenge is not live", "Its deployment failed. Ask the organisers for a new link."];
    return (
      <main className="mx-auto flex min-h-screen w-full max-w-md flex-col justify-center px-4 py-12">
        <p className="mb-2 text-sm font-bold text-brand-600">Certify · Challenge</p>
        <Card>
          <p className="text-sm font-medium text-slate-500" data-testid="deployment-title">
            {page.title}
          </p>
          <h1 className="mt-1 text-xl font-semibold" data-testid="deployment-state" data-state={page.state}>
            {heading}
          </h1>
          <p className="mt-2 text-sm text-slate-600">{text}</p>
        </Card>
      </main>
    );
  }

  const db = await getDb();
  const player = await findDeploymentPlayer(db, page.id, (await cookies()).get(deploymentPlayerCookieName(page.id))?.value);
  const { challenge } = page;
  const [progress, content] = player ? await Promise.all([deploymentProgress(db, player), deploymentPageContent(db, page.id, challenge.id)]) : [null, null];
  return (
    <main className="mx-auto w-full max-w-2xl px-4 py-10">
      <RefreshAt at={page.ends_at} />
      <p className="mb-2 text-sm font-bold text-brand-600">Certify · Challenge</p>
      <p
        className="mb-4 inline-flex items-center gap-2 rounded-full bg-green-50 px-3 py-1 text-sm font-medium text-green-800 ring-1 ring-inset ring-green-200"
        data-testid="live-until"
        data-state="live"
      >
        <span aria-hidden="true" className="inline-block h-2 w-2 rounded-full bg-green-600" />
        Live until {formatDateTime(page.ends_at)}
      </p>
      <PublicChallengeCard challenge={challenge} headingLevel={1} solved={progress?.solved}>
        {player && progress && content ? (
          <>
            {content.artifact ? <ChallengeArtifact title={challenge.title} artifact={content.artifact} /> : null}
            <ChallengeFiles
              title={challenge.title}
              files={content.files.map((file) => ({ ...file, url: urlOf(deploymentPlayContracts.fileDownload, { deployment_id: page.id, file_id: file.id }) }))}
            />
            {challenge.hints.length ? (
              <div className="mt-3 space-y-2">
                {challenge.hints.map((hint, index) => (
                  <DeploymentHint key={index} deploymentId={page.id} n={index + 1} cost={hint.cost} text={progress.hints[index + 1]} />
                ))}
              </div>
            ) : null}
            {progress.solved ? null : <DeploymentFlagForm deploymentId={page.id} title={challenge.title} />}
          </>
        ) : challenge.hints.length ? (
          <p className="mt-3 text-sm text-slate-600">
            {challenge.hints.length === 1 ? "1 hint" : `${challenge.hints.length} hints`} ({challenge.hints.map((hint) => (hint.cost ? `${hint.cost} points` : "free")).join(", ")}), for players.
          </p>
        ) : null}
      </PublicChallengeCard>
      {player && progress ? (
        <Card className="mt-6">
          <p className="text-sm text-slate-600">
            Playing as <span className="font-semibold text-slate-900" data-testid="player-name">{player.name}</span> · score{" "}
            <span className="font-semibold tabular-nums text-slate-900" data-testid="player-score">
              {progress.score}
            </span>
            {progress.solved ? " · solved" : ""}
          </p>
        </Card>
      ) : (
        <Card className="mt-6">
          <h2 className="font-semibold">Play this challenge</h2>
          <p className="mt-1 mb-3 text-sm text-slate-600">Enter a display name to unlock hints and submit the flag.</p>
          <DeploymentJoinForm deploymentId={page.id} />
        </Card>
      )}
    </main>
  );
}
