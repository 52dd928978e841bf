"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { fetchJson, RequestError } from "@/components/fetch-json";
import { formatDateTime } from "@/components/format/date";
import { Button } from "@/components/ui/button";
import { Card, Notice } from "@/components/ui/card";
import type { AttemptView } from "@/lib/certification/tests/schemas";
import type { TakingView } from "@/lib/certification/taking/taking";
import { clockSentence, durationIn, yourTime, type TakingTranslator } from "./your-time";

/** What the start page shows: nothing of the attempt, and no more of the recipient than their name. */
export type StartView = Pick<TakingView, "certification" | "name" | "test" | "window" | "recordIntegrity">;

/**
 * The page the personal link opens before the test is started: what the test is, and a Start
 * button. Only the button (a POST) starts the test and its clock, so a mail scanner that
 * fetches the link starts nothing. Before opens_at it says when the test opens; from
 * closes_at on, that it is closed.
 */
export function StartPanel({ token, view }: { token: string; view: StartView }) {
  const t = useTranslations("taking");
  const common = useTranslations("common");
  const locale = useLocale();
  const router = useRouter();
  const start = useMutation({
    mutationFn: () => fetchJson<AttemptView>(`/api/t/${encodeURIComponent(token)}/start`, { method: "POST" }),
    onSuccess: () => router.refresh(), // the page comes back with the questions
  });
  const { test } = view;
  const ownTime = yourTime(test, t);
  const when = (date: string | null) => formatDateTime(date, { locale });

  return (
    <div className="space-y-5">
      <header>
        <p className="text-sm font-medium text-slate-600">{view.certification}</p>
        <h1 className="text-xl font-semibold wrap-anywhere" data-testid="test-name">
          {test.name}
        </h1>
        {view.name ? <p className="mt-1 text-sm text-slate-600">{t("start.for", { name: view.name })}</p> : null}
      </header>
      <Card>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <Fact term={t("start.questions")} className="font-semibold tabular-nums" testId="start-questions">
            {test.questions}
          </Fact>
          <Fact term={t("start.timeLimit")} testId="start-time-limit">
            {test.timeLimitMinutes === null ? t("start.noTimeLimit") : t("start.timeLimitValue", { duration: durationIn(common, test.timeLimitMinutes) })}
          </Fact>
          {ownTime ? (
            <Fact term={t("start.yourTime")} className="font-semibold" testId="start-your-time">
              {ownTime}
            </Fact>
          ) : null}
          {test.opensAt ? <Fact term={t("start.opens")}>{when(test.opensAt)}</Fact> : null}
          {test.closesAt ? <Fact term={t("start.closes")}>{when(test.closesAt)}</Fact> : null}
        </dl>
      </Card>

      {view.window === "not_open" ? (
        <div data-testid="window-not-open">
          <Notice>{t("start.notOpen", { when: when(test.opensAt) })}</Notice>
        </div>
      ) : view.window === "closed" ? (
        <div data-testid="window-closed">
          <Notice tone="error">{t("start.closed", { when: when(test.closesAt) })}</Notice>
        </div>
      ) : (
        <Card>
          <p className="text-sm text-slate-700">
            {test.timeLimitMinutes !== null
              ? clockSentence({ ...test, timeLimitMinutes: test.timeLimitMinutes }, t, common)
              : test.closesAt
                ? t("start.savedUntilClose")
                : t("start.savedAsYouGo")}
          </p>
          {test.multipleQuestions > 0 ? (
            <p className="mt-3 text-sm text-slate-700" data-testid="multiple-notice">
              {t("start.multiple", { count: test.multipleQuestions })}
            </p>
          ) : null}
          {view.recordIntegrity ? (
            <p className="mt-3 text-sm text-slate-600" data-testid="integrity-notice">
              {t("start.integrity")}
            </p>
          ) : null}
          {start.error ? (
            <div className="mt-3">
              <Notice tone="error">{startErrorText(start.error, test, t, when)}</Notice>
            </div>
          ) : null}
          <Button type="button" className="mt-4 min-h-11 w-full sm:w-auto" disabled={start.isPending || start.isSuccess} onClick={() => start.mutate()}>
            {start.isPending || start.isSuccess ? t("start.starting") : t("start.button")}
          </Button>
        </Card>
      )}
    </div>
  );
}

/**
 * Why Start failed, in the page's language where the page knows the case. A 409 is the window
 * (the server refuses Start before opens_at and from closes_at on, which may have passed since
 * the page was read): the page says which, as its own notices do. Otherwise the server's message.
 */
function startErrorText(error: Error, test: TakingView["test"], t: TakingTranslator, when: (date: string | null) => string): string {
  if (!(error instanceof RequestError)) return t("start.unreachable");
  if (error.status === 404) return t("runner.testNotFound");
  if (error.status !== 409) return error.message;
  if (test.closesAt && Date.now() >= Date.parse(test.closesAt)) return t("start.closed", { when: when(test.closesAt) });
  if (test.opensAt) return t("start.notOpen", { when: when(test.opensAt) });
  return error.message;
}

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
