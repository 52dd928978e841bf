"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { callApi } from "@/components/api";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { playContracts } from "@/lib/ctf/play/contracts";
import { queryKeys } from "@/components/query-keys";

/** One hint of a challenge: its text once unlocked (the server serves it only then), else a button saying what it costs. */
export function Hint({ ctfId, challengeId, n, cost, text }: { ctfId: string; challengeId: string; n: number; cost: number; text?: string }) {
  const router = useRouter();
  const client = useQueryClient();
  const unlock = useMutation({
    mutationFn: () => callApi(playContracts.unlockHint, { params: { ctf_id: ctfId, challenge_id: challengeId, n } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.scoreboard(ctfId) });
      router.refresh();
    },
  });
  return <HintCard n={n} cost={cost} text={text ?? unlock.data?.text} unlock={unlock} />;
}

/**
 * What a hint shows, wherever it is unlocked (a competition's challenge or a standalone
 * deployment): its text once unlocked, else a button saying what it costs, and the error
 * of a failed unlock.
 */
export function HintCard({ n, cost, text, unlock }: { n: number; cost: number; text?: string; unlock: { isPending: boolean; error: Error | null; mutate: () => void } }) {
  return (
    <div className="rounded-md border border-slate-200 px-3 py-2 text-sm" data-testid="hint" data-hint={n}>
      <p className="font-medium text-slate-700">
        Hint {n}
        <span className="font-normal text-slate-500">{cost ? ` (${cost} points)` : " (free)"}</span>
      </p>
      {text !== undefined ? (
        <p className="mt-1 text-slate-700" data-testid="hint-text">
          {text}
        </p>
      ) : (
        <Button type="button" variant="secondary" className="mt-2" disabled={unlock.isPending} onClick={() => unlock.mutate()}>
          {unlock.isPending ? "Unlocking…" : cost ? `Unlock hint ${n} for ${cost} points` : `Show hint ${n}`}
        </Button>
      )}
      <RequestErrorNotice error={unlock.error} />
    </div>
  );
}
