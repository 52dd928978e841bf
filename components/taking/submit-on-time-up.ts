"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { fetchJson } from "@/components/fetch-json";
import type { AttemptView, ResultView as RecipientResult } from "@/lib/certification/tests/schemas";

/** Submits the recipient's attempt as it stands; the server replies with the result. */
export const submitAttempt = (token: string) => fetchJson<RecipientResult>(`/api/t/${encodeURIComponent(token)}/submit`, { method: "POST" });

/**
 * The deadline: the server refuses answers from then on and submits the attempt as it stands
 * (its own step does so even with this page closed). Here the page submits at once, so the
 * result shows without waiting; a device a little ahead of the server asks again shortly.
 * `expire` is the countdown's signal; `timeUp` says it came for this `deadline`. The trainer
 * may have moved the deadline since the page was read (extra time): the attempt is asked for
 * first (Start answers it as it stands), and a deadline that changed, or an attempt already
 * submitted, reloads the page instead, which then counts down to the new deadline.
 */
export function useSubmitOnTimeUp(token: string, clear: () => void, refresh: () => void, deadline: string | null) {
  const [expiredAt, setExpiredAt] = useState<string | null>(null);
  const timeUp = expiredAt !== null && expiredAt === deadline;
  const expire = useCallback(() => setExpiredAt(deadline), [deadline]);
  const clearRef = useRef(clear);
  useEffect(() => {
    clearRef.current = clear;
  }, [clear]);
  useEffect(() => {
    if (!timeUp) return;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout>;
    const attempt = () =>
      submitAttempt(token)
        .then(() => {
          clearRef.current();
          refresh();
        })
        .catch(() => {
          if (++tries < 10) timer = setTimeout(attempt, 1500);
          else refresh();
        });
    const check = () =>
      fetchJson<AttemptView>(`/api/t/${encodeURIComponent(token)}/start`, { method: "POST" })
        .then((now) => (now.status === "started" && now.deadline === deadline ? attempt() : refresh()))
        .catch(attempt);
    timer = setTimeout(check, 500);
    return () => clearTimeout(timer);
  }, [timeUp, token, refresh, deadline]);
  return { timeUp, expire };
}
