"use client";

import { useEffect, useRef, useState } from "react";
import type { TakingView } from "@/lib/certification/taking/taking";
import { AnswerQueue, type SaveState } from "./answer-queue";
import { fits, isComplete, type AnswerValue } from "./answer-value";

/**
 * The recipient's answers: shown at once when chosen, saved in the background, never lost
 * (kept on the device until the server confirms). `pending` counts choices not saved yet.
 */
export function useAnswers(token: string, view: Pick<TakingView, "questions" | "answers">, onClosed: () => void) {
  const [answers, setAnswers] = useState<Record<number, AnswerValue>>(view.answers);
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
    const questions = new Map(questionsRef.current.map((q) => [q.id, q]));
    const restored = queue.restore((id, value) => questions.has(id) && fits(questions.get(id)!, value));
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

  /** Shown at once; sent once whole (a multiple-response question: exactly `choose` boxes checked). */
  function choose(questionId: number, value: AnswerValue) {
    setAnswers((previous) => ({ ...previous, [questionId]: value }));
    const question = questionsRef.current.find((q) => q.id === questionId);
    if (question && isComplete(question, value)) queue.choose(questionId, value);
  }

  return { answers, states, pending, choose, retry: () => queue.retryAll(), clear: () => queue.clear() };
}
