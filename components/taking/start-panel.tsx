"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { fetchJson } from "@/components/fetch-json";
import { formatDateTime } from "@/components/format/date";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import type { AttemptView } from "@/lib/certification/tests/schemas";
import { minutesText as duration } from "@/lib/certification/tests/settings-text";
import type { TakingView } from "@/lib/certification/taking/taking";
import { clockSentence, yourTime } from "./your-time";

/**
 * The page the personal link opens before the test is started: what the test is, and a Start
 * button. Only the button (a POST) starts the test and its clock, so a mail scanner that
 * fetches the link starts nothing. Before opens_at it says when the test opens; from
 * closes_at on, that it is closed.
 */
export function StartPanel({ token, view }: { token: string; view: TakingView }) {
  const router = useRouter();
  const start = useMutation({
    mutationFn: () => fetchJson<AttemptView>(`/api/t/${encodeURIComponent(token)}/start`, { method: "POST" }),
    onSuccess: () => router.refresh(), // the page comes back with the questions
  });
  const { test } = view;
  const ownTime = yourTime(test);

  return (
    <div className="space-y-5">
      <header>
        <p className="text-sm font-medium text-slate-600">{view.certification}</p>
        <h1 className="text-xl font-semibold break-words" data-testid="test-name">
          {test.name}
        </h1>
        {view.name ? <p className="mt-1 text-sm text-slate-600">For {view.name}</p> : null}
      </header>
      <Card>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <Fact term="Questions" className="font-semibold tabular-nums" testId="start-questions">
            {test.questions}
          </Fact>
          <Fact term="Time limit" testId="start-time-limit">
            {test.timeLimitMinutes === null ? "None" : `${duration(test.timeLimitMinutes)}, counted from Start`}
          </Fact>
          {ownTime ? (
            <Fact term="Your time" className="font-semibold" testId="start-your-time">
              {ownTime}
            </Fact>
          ) : null}
          {test.opensAt ? <Fact term="Opens">{formatDateTime(test.opensAt)}</Fact> : null}
          {test.closesAt ? <Fact term="Closes">{formatDateTime(test.closesAt)}</Fact> : null}
        </dl>
      </Card>

      {view.window === "not_open" ? (
        <div data-testid="window-not-open">
          <Notice>This test opens {formatDateTime(test.opensAt)}. Come back to this link then.</Notice>
        </div>
      ) : view.window === "closed" ? (
        <div data-testid="window-closed">
          <Notice tone="error">This test closed {formatDateTime(test.closesAt)}: it can no longer be taken.</Notice>
        </div>
      ) : (
        <Card>
          <p className="text-sm text-slate-700">
            {test.timeLimitMinutes !== null
              ? clockSentence({ ...test, timeLimitMinutes: test.timeLimitMinutes })
              : test.closesAt
                ? `Your answers are saved as you go. Submit before the test closes: then it is submitted as it stands.`
                : "Your answers are saved as you go, so you can leave and come back to this link."}
          </p>
          {test.multipleQuestions > 0 ? (
            <p className="mt-3 text-sm text-slate-700" data-testid="multiple-notice">
              {test.multipleQuestions === 1 ? "One question asks" : `${test.multipleQuestions} questions ask`} you to choose several options (&ldquo;Choose 2&rdquo;).
              Multiple-response questions are scored all or nothing: the answer counts only when exactly the right options are chosen.
            </p>
          ) : null}
          {view.recordIntegrity ? (
            <p className="mt-3 text-sm text-slate-600" data-testid="integrity-notice">
              {INTEGRITY_NOTICE}
            </p>
          ) : null}
          {start.error ? (
            <div className="mt-3">
              <Notice tone="error">{start.error.message}</Notice>
            </div>
          ) : null}
          <Button type="button" className="mt-4 min-h-11 w-full sm:w-auto" disabled={start.isPending || start.isSuccess} onClick={() => start.mutate()}>
            {start.isPending || start.isSuccess ? "Starting…" : "Start"}
          </Button>
        </Card>
      )}
    </div>
  );
}

/** What the start page tells the recipient when the test records integrity signals (use-integrity.ts and the server's Start and submit). */
export const INTEGRITY_NOTICE =
  "This test records: your address and browser at start and submit, when you switch to another tab or window and for how long, copy attempts, and leaving full screen.";

/** One fact of the test in the list above the Start button. */
function Fact({ term, className, testId, children }: { term: string; className?: string; testId?: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase text-slate-500">{term}</dt>
      <dd className={className ? `mt-1 ${className}` : "mt-1"} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
