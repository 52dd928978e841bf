import { formatBytes } from "@/lib/kernel/values";
import type { PlayerFileView } from "@/lib/ctf/challenges/files/schemas";

/** A file a player's page lists, with where its download is (a competition's route or a deployment's). */
export type FileLink = PlayerFileView & { url: string };

/** A challenge's files on a player's page: each name a download link, its size and the start of its SHA-256. */
export function ChallengeFiles({ title, files }: { title: string; files: FileLink[] }) {
  if (!files.length) return null;
  return (
    <ul className="mt-3 space-y-1 text-sm" aria-label={`Files of ${title}`}>
      {files.map((file) => (
        <li key={file.id} className="flex flex-wrap items-baseline gap-2" data-testid="challenge-file">
          <a className="break-all font-medium text-brand-700 underline underline-offset-2" href={file.url} download={file.name}>
            {file.name}
          </a>
          <span className="tabular-nums text-slate-500">{formatBytes(file.size)}</span>
          <span className="font-mono text-xs text-slate-400" title={`SHA-256 ${file.sha256}`}>
            sha256 {file.sha256.slice(0, 12)}…
          </span>
        </li>
      ))}
    </ul>
  );
}
