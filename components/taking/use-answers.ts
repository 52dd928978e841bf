"use client";

import { useEffect, useRef, useState } from "react";
import type { TakingView } from "@/lib/certification/taking/taking";
import { AnswerQueue, type SaveState } from "./answer-queue";

/**
 * The recipient's answers: shown at once when chosen, saved in the background, never lost
 * (kept on the device until the server confirms). `pending` counts choices not saved yet.
 */
export function useAnswers(token: string, view: Pick<TakingView, "questions" | "answers">, onClosed: () => void) {
  const [answers, setAnswers] = useState<Record<number, number>>(view.answers);
  const [states, setStates] = useState<Record<number, SaveState>>({});
  const [pending, setPending] = useState(0);
  const onClosedRef = useRef(onClosed);
  const [queue] = useState(
    () =>
      new AnswerQueue(token, {
        state: (questionId, state) => setStates((previous) => ({ ...previous, [questionId]: state })),
        pending: setPending,
        closed: () => onClosedRef.current(),
      }),
  );
  const questionsRef = useRef(view.questions);

  useEffect(() => {
    onClosedRef.current = onClosed;
  }, [onClosed]);

  useEffect(() => {
    const questions = new Map(questionsRef.current.map((q) => [q.id, q.options.length]));
    const restored = queue.restore((id, option) => option >= 0 && option < (questions.get(id) ?? 0));
    if (Object.keys(restored).length) setAnswers((previous) => ({ ...previous, ...restored }));
    const online = () => queue.retryAll();
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      queue.stop();
    };
  }, [queue]);

  // Leaving with unsaved answers: they stay on this device, but warn anyway.
  useEffect(() => {
    if (!pending) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [pending]);

  function choose(questionId: number, option: number) {
    setAnswers((previous) => ({ ...previous, [questionId]: option }));
    queue.choose(questionId, option);
  }

  return { answers, states, pending, choose, retry: () => queue.retryAll(), clear: () => queue.clear() };
}
