import type { PageArtifact } from "@/lib/ctf/play/artifacts/artifacts";

const sizeOf = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`);

/**
 * What a generated challenge gives its player: the file (short text shown as it is, and a
 * download either way) and the web target, opened in its own tab.
 */
export function ChallengeArtifact({ title, artifact }: { title: string; artifact: PageArtifact }) {
  return (
    <div className="mt-3 space-y-2 text-sm" data-testid="challenge-artifact">
      {artifact.file?.text ? (
        <figure>
          <figcaption className="sr-only">
            {artifact.file.name} of {title}
          </figcaption>
          {/* Focusable: a long text scrolls, and the keyboard must reach it. */}
          <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-800 ring-1 ring-slate-200" tabIndex={0}>
            {artifact.file.text}
          </pre>
        </figure>
      ) : null}
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {artifact.file ? (
          <a className="font-medium text-brand-700 underline" href={artifact.file.url} download={artifact.file.name}>
            Download {artifact.file.name} <span className="font-normal text-slate-500">({sizeOf(artifact.file.size)})</span>
          </a>
        ) : null}
        {artifact.target ? (
          <a className="font-medium text-brand-700 underline" href={artifact.target} target="_blank" rel="noopener noreferrer">
            Open the target<span className="sr-only"> of {title}</span>
          </a>
        ) : null}
      </div>
    </div>
  );
}
