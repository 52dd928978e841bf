"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { callApi } from "@/components/api";
import { RequestErrorNotice } from "@/components/tests/request-error";
import { Button } from "@/components/ui/button";
import { Markdown } from "@/components/ui/markdown";
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
 * of a failed unlock. A paid hint asks first, in place (its cost comes off the score and
 * cannot be taken back): the question takes the focus, Cancel gives it back to the button,
 * and once unlocked the focus moves to the text. A free hint opens at once.
 */
export function HintCard({ n, cost, text, unlock }: { n: number; cost: number; text?: string; unlock: { isPending: boolean; error: Error | null; mutate: () => void } }) {
  const [asking, setAsking] = useState(false);
  const focusNext = useRef<"question" | "button" | "text" | null>(null);
  const questionRef = useRef<HTMLParagraphElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const questionId = useId();
  const buttonId = useId(); // Button takes no ref: the focus goes back to it by id
  const unlocked = text !== undefined;

  // Focus follows the step shown (never on first render: focusNext is set by a click).
  useEffect(() => {
    const target = { question: questionRef.current, button: document.getElementById(buttonId), text: textRef.current }[focusNext.current ?? "question"];
    if (focusNext.current && target) {
      target.focus();
      focusNext.current = null;
    }
  }, [asking, unlocked, buttonId]);

  const open = () => {
    focusNext.current = "text";
    unlock.mutate();
  };

  return (
    <div className="rounded-md border border-slate-200 px-3 py-2 text-sm" data-testid="hint" data-hint={n}>
      <p className="font-medium text-slate-700">
        Hint {n}
        <span className="font-normal text-slate-500">{cost ? ` (${cost} points)` : " (free)"}</span>
      </p>
      {unlocked ? (
        <div ref={textRef} tabIndex={-1} className="mt-1 text-slate-700" data-testid="hint-text">
          <Markdown text={text ?? ""} />
        </div>
      ) : asking ? (
        <div role="group" aria-labelledby={questionId} className="mt-2 space-y-2" data-testid="hint-confirm">
          <p id={questionId} ref={questionRef} tabIndex={-1} className="text-slate-800">
            Unlock hint {n} for {cost} points? Your score drops by {cost}.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="button" disabled={unlock.isPending} onClick={open}>
              {unlock.isPending ? "Unlocking…" : `Unlock for ${cost} points`}
            </Button>
            <Button
              type="button"
              variant="secondary"
              disabled={unlock.isPending}
              onClick={() => {
                focusNext.current = "button";
                setAsking(false);
              }}
            >
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <Button
          id={buttonId}
          type="button"
          variant="secondary"
          className="mt-2"
          disabled={unlock.isPending}
          onClick={() => {
            if (!cost) return open();
            focusNext.current = "question";
            setAsking(true);
          }}
        >
          {unlock.isPending ? "Unlocking…" : cost ? `Unlock hint ${n} for ${cost} points` : `Show hint ${n}`}
        </Button>
      )}
      <RequestErrorNotice error={unlock.error} />
    </div>
  );
}
