import { ChallengeHeader } from "@/components/competitions/public-challenge";
import { Badge } from "@/components/ui/badge";
import { Markdown } from "@/components/ui/markdown";
import { urlOf } from "@/lib/kernel/contract";
import type { PageArtifact } from "@/lib/ctf/play/artifacts/artifacts";
import { fileContracts } from "@/lib/ctf/challenges/files/contracts";
import type { PlayerFileView } from "@/lib/ctf/challenges/files/schemas";
import type { ChallengeSummary } from "@/lib/ctf/play/public";
import { ChallengeArtifact } from "./challenge-artifact";
import { ChallengeFiles } from "./challenge-files";
import { FlagForm } from "./flag-form";
import { Hint } from "./hint";

/**
 * One challenge of a competition's page. Everyone sees its title, category and points; a
 * player of the running competition also sees its description, its files to download, its
 * hints (text once unlocked) and the flag form, or that it is solved.
 */
export function ChallengeCard({
  ctfId,
  challenge,
  play,
}: {
  ctfId: string;
  challenge: ChallengeSummary;
  play?: { description: string; solved: boolean; hints: Record<number, string>; files: PlayerFileView[]; artifact?: PageArtifact };
}) {
  return (
    <article
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="public-challenge"
      data-title={challenge.title}
      data-solved={play?.solved ? "true" : undefined}
    >
      <ChallengeHeader challenge={challenge}>{play?.solved ? <Badge tone="success">Solved</Badge> : null}</ChallengeHeader>
      {play ? (
        <>
          {play.description ? <Markdown text={play.description} className="mt-3 text-sm text-slate-700" /> : null}
          {play.artifact ? <ChallengeArtifact title={challenge.title} artifact={play.artifact} /> : null}
          <ChallengeFiles
            title={challenge.title}
            files={play.files.map((file) => ({ ...file, url: urlOf(fileContracts.playerDownload, { ctf_id: ctfId, challenge_id: challenge.id, file_id: file.id }) }))}
          />
          {challenge.hints.length ? (
            <div className="mt-3 space-y-2">
              {challenge.hints.map((hint, index) => (
                <Hint key={index} ctfId={ctfId} challengeId={challenge.id} n={index + 1} cost={hint.cost} text={play.hints[index + 1]} />
              ))}
            </div>
          ) : null}
          {play.solved ? null : <FlagForm ctfId={ctfId} challengeId={challenge.id} title={challenge.title} />}
        </>
      ) : null}
    </article>
  );
}
