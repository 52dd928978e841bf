import type { ReactNode } from "react";
import { DomainBars } from "@/components/taking/score-bars";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { StudentTest } from "@/lib/certification/students/area";
import type { Locale } from "@/lib/platform/i18n/locales";
import { formatPercent } from "@/lib/platform/i18n/percent";
import { translator } from "@/lib/platform/i18n/translator";
import { dayIn } from "./day";

const statusTone = { sent: "neutral", started: "warning", completed: "success" } as const;

type Words = ReturnType<typeof translator<"classes">>;

/** The tests sent to a student, in their language (`locale`); test, certification and trainer names as written. */
export function StudentTests({ tests, email, locale }: { tests: StudentTest[]; email: string; locale: Locale }) {
  const t = translator(locale, "classes");
  if (!tests.length) {
    return (
      <Card>
        <p className="text-sm text-slate-600">{t("student.noTests", { email })}</p>
      </Card>
    );
  }
  return (
    <ul className="space-y-4">
      {tests.map((test) => (
        <li key={test.recipient_id}>
          <StudentTestCard test={test} t={t} locale={locale} />
        </li>
      ))}
    </ul>
  );
}

function StudentTestCard({ test, t, locale }: { test: StudentTest; t: Words; locale: Locale }) {
  const when = (iso: string) => (chunks: ReactNode) => <time dateTime={iso}>{chunks}</time>;
  const percent = (value: number) => formatPercent(locale, value);
  return (
    <Card>
      <article data-testid="student-test" data-code={test.code} data-status={test.status}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="font-semibold wrap-anywhere">{test.name}</h3>
            <p className="text-sm text-slate-600">
              {t.rich("student.testFrom", {
                certification: test.certification,
                code: test.code,
                trainer: test.trainer,
                mono: (chunks) => <span className="font-mono">{chunks}</span>,
              })}
            </p>
          </div>
          <Badge tone={statusTone[test.status]}>{t(`student.status.${test.status}`)}</Badge>
        </div>
        <p className="mt-2 text-xs text-slate-500">
          {t.rich("student.sent", { date: dayIn(locale, test.sent_at), time: when(test.sent_at) })}
          {test.completed_at ? t.rich("student.completed", { date: dayIn(locale, test.completed_at), time: when(test.completed_at) }) : null}
        </p>
        {test.result ? (
          <div className="mt-4 space-y-4">
            <div>
              <p className="flex flex-wrap items-baseline gap-x-3">
                <span className="text-3xl font-bold tracking-tight" data-testid="student-result-percent">
                  {percent(test.result.percent)}
                </span>
                <span className="text-sm text-slate-600">{t("student.correct", { correct: test.result.correct, questions: test.result.questions })}</span>
              </p>
              {test.result.passed === true || test.result.passed === false ? (
                // The outcome beside the mark it was measured against, as on the result page.
                <p className="mt-2 flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm text-slate-700">
                  <Badge tone={test.result.passed ? "success" : "danger"}>{test.result.passed ? t("student.passed") : t("student.notPassed")}</Badge>
                  {test.pass_mark === null ? null : (
                    <span data-testid="student-pass-mark">
                      {translator(locale, "taking")("result.againstPassMark", { percent: percent(test.result.percent), passMark: percent(test.pass_mark) })}
                    </span>
                  )}
                </p>
              ) : null}
            </div>
            <DomainBars domains={test.result.domains} />
          </div>
        ) : null}
        {/* A plain link to the personal page (its Start button starts the test). */}
        <a href={test.path} className={buttonClass(test.status === "completed" ? "secondary" : "primary", "mt-4 min-h-11 w-full sm:w-auto")}>
          {t(`student.action.${test.status}`)}
        </a>
      </article>
    </Card>
  );
}
