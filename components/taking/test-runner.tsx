"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { RequestError } from "@/components/fetch-json";
import { Notice } from "@/components/ui/card";
import type { TakingView } from "@/lib/certification/taking/taking";
import { Countdown } from "./countdown";
import { ProgressMeter } from "./progress-meter";
import { QuestionCard } from "./question-card";
import { QuestionNavigator } from "./question-navigator";
import { QuestionPager } from "./question-pager";
import { ReviewPanel } from "./review-panel";
import { SubmitPanel } from "./submit-panel";
import { submitAttempt, useSubmitOnTimeUp } from "./submit-on-time-up";
import { TestResult } from "./test-result";
import { useAnswers } from "./use-answers";
import { isComplete } from "./answer-value";
import type { TakingTranslator } from "./your-time";

type Position = { mode: "question"; index: number } | { mode: "review" };

/** Where a (re)opened test resumes: the first unanswered question, or the review when none is left. */
function startPosition(view: TakingView): Position {
  const index = view.questions.findIndex((q) => !isComplete(q, view.answers[q.id]));
  return index === -1 ? { mode: "review" } : { mode: "question", index };
}

export function TestRunner({ token, view, signedIn = false }: { token: string; view: TakingView; signedIn?: boolean }) {
  const t = useTranslations("taking");
  const router = useRouter();
  const refresh = useCallback(() => router.refresh(), [router]);
  const { answers, states, pending, choose, retry, clear } = useAnswers(token, view, refresh);
  const [position, setPosition] = useState<Position>(() => startPosition(view));
  const [confirming, setConfirming] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  const submit = useMutation({
    mutationFn: () => submitAttempt(token),
    onSuccess: () => {
      clear();
      router.refresh(); // the page comes back as the result, with the correct answers as the test allows
    },
    onError: () => setConfirming(false),
  });

  const { timeUp, expire } = useSubmitOnTimeUp(token, clear, refresh, view.deadline);

  // After moving to another question or the review, focus its heading (not on first load).
  useEffect(() => {
    if (moved.current) headingRef.current?.focus();
  }, [position]);

  const go = (next: Position) => {
    moved.current = true;
    setConfirming(false);
    setPosition(next);
  };

  const { questions } = view;
  const total = questions.length;
  const answered = questions.filter((q) => isComplete(q, answers[q.id])).length;

  if (submit.data) {
    return <TestResult certification={view.certification} testName={view.test.name} result={submit.data} passMark={view.test.passMark} questions={questions} answers={answers} review={null} signedIn={signedIn} />;
  }

  const index = position.mode === "question" ? position.index : null;
  const question = index === null ? undefined : questions[index];

  return (
    <div className="space-y-5">
      <header className="space-y-3">
        <div>
          <p className="text-sm font-medium text-slate-600" data-testid="test-name">
            {view.test.name}
          </p>
          <h1 className="text-xl font-semibold wrap-anywhere">{view.name ? t("runner.headingFor", { name: view.name }) : t("runner.heading")}</h1>
        </div>
        {view.deadline ? <Countdown deadline={view.deadline} serverNow={view.now} onExpire={expire} /> : null}
        <ProgressMeter answered={answered} total={total} />
      </header>

      {timeUp ? (
        <div data-testid="time-up">
          <Notice tone="error">{t("runner.timeUp")}</Notice>
        </div>
      ) : null}

      {question && index !== null ? (
        <>
          <QuestionCard
            key={question.id}
            question={question}
            number={index + 1}
            total={total}
            chosen={answers[question.id]}
            saveState={states[question.id]}
            onChoose={(value) => choose(question.id, value)}
            onRetry={retry}
            headingRef={headingRef}
          />
          <QuestionPager index={index} total={total} onQuestion={(i) => go({ mode: "question", index: i })} onReview={() => go({ mode: "review" })} />
        </>
      ) : (
        <ReviewPanel questions={questions} answers={answers} onJump={(i) => go({ mode: "question", index: i })} headingRef={headingRef} />
      )}

      <QuestionNavigator questions={questions} answers={answers} current={index} onJump={(i) => go({ mode: "question", index: i })} />

      <SubmitPanel
        total={total}
        left={total - answered}
        saving={pending}
        confirming={confirming}
        submitting={submit.isPending}
        error={submit.error ? submitErrorMessage(submit.error, t) : null}
        onStart={() => {
          submit.reset();
          setConfirming(true);
        }}
        onCancel={() => setConfirming(false)}
        onConfirm={() => submit.mutate()}
      />
    </div>
  );
}

/** Why submitting failed, in the page's language where the page knows the case (the server's own message otherwise). */
function submitErrorMessage(error: Error, t: TakingTranslator): string {
  if (!(error instanceof RequestError)) return t("runner.unreachable");
  if (error.status === 404) return t("runner.testNotFound");
  if (error.status === 409) return t("runner.notStarted"); // submit's one refusal: an attempt not started
  return error.message;
}
