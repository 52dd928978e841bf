"use client";

import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import type { RevealView } from "@/lib/ctf/play/artifacts/schemas";

/** Asked every time: a flag on screen is a flag anyone behind the organiser can read. */
export function revealQuestion(title: string): string {
  return `Reveal the flag and the solution of "${title}"? Anyone who can see your screen will see them. The reveal is recorded.`;
}

/**
 * A generated challenge's flag and solution steps, as the reveal answered them. Kept in the
 * page's memory only (never in a cached query): hidden, it is gone until revealed again.
 */
export function RevealedFlag({ title, revealed, onHide }: { title: string; revealed: RevealView; onHide: () => void }) {
  return (
    <section aria-label={`Flag and solution of ${title}`} className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm" data-testid="revealed-flag">
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-medium text-slate-700">Flag</span>
        <code className="break-all rounded bg-white px-2 py-1 font-mono text-slate-900 ring-1 ring-amber-200" data-testid="revealed-flag-value">
          {revealed.flag}
        </code>
        <CopyButton value={revealed.flag} label="Copy flag" target={title} />
        <Button type="button" variant="ghost" onClick={onHide}>
          Hide
        </Button>
      </div>
      <div>
        <p className="font-medium text-slate-700">Solution ({revealed.template})</p>
        <ol className="mt-1 list-decimal space-y-1 pl-5 text-slate-700">
          {revealed.solution.map((step, index) => (
            <li key={index} className="wrap-anywhere">
              {step}
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
