import { Button } from "@/components/ui/button";
import type { SaveState } from "./answer-queue";

/** What happened to the current question's answer; a polite live region. */
export function SaveStatus({ answered, state, onRetry, unanswered }: { answered: boolean; state: SaveState | undefined; onRetry: () => void; unanswered?: string }) {
  return (
    <div aria-live="polite" className="min-h-11 text-sm">
      <StatusText answered={answered} state={state} onRetry={onRetry} unanswered={unanswered} />
    </div>
  );
}

function StatusText({ answered, state, onRetry, unanswered }: { answered: boolean; state: SaveState | undefined; onRetry: () => void; unanswered?: string }) {
  if (!answered) return <p className="py-2 text-slate-500">{unanswered ?? "Choose an answer: it is saved at once."}</p>;
  if (!state || state.kind === "saved") return <p className="py-2 font-medium text-green-700">✓ Saved</p>;
  if (state.kind === "saving") return <p className="py-2 text-slate-600">Saving…</p>;
  const retrying = state.kind === "retrying";
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
      <p className="min-w-0 flex-1">
        {retrying ? (
          <>
            Not saved yet. {state.message} Your choice is kept on this device and saved automatically.
          </>
        ) : (
          <>Could not save this answer: {state.message}</>
        )}
      </p>
      <Button type="button" variant="secondary" className="min-h-11" onClick={onRetry}>
        Retry now
      </Button>
    </div>
  );
}
