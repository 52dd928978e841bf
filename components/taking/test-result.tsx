import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { formatDateTime } from "@/components/format/date";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import type { ResultView as RecipientResult } from "@/lib/certification/tests/schemas";
import type { TakingView } from "@/lib/certification/taking/taking";
import { DomainBars, usePercent } from "./score-bars";
import { CertificateLinks } from "./certificate-links";
import { includesOption, sameAnswer, type AnswerValue } from "./answer-value";

type Props = {
  certification: string;
  /** The test's name. */
  testName?: string;
  result: RecipientResult;
  /** The test's pass mark (percent), null without one: a pass or fail is said against it. */
  passMark: number | null;
  questions: TakingView["questions"];
  answers: TakingView["answers"];
  /** Correct options and explanations; null while they are still loading. */
  review: TakingView["review"];
  /** Set when the test does not show the correct answers now (show_answers): until when, or null for never. */
  reviewWithheld?: TakingView["reviewWithheld"];
  /** Whether the viewer is signed in (a student): the page then leads back to their classes; a recipient without an account has nowhere to go back to. */
  signedIn?: boolean;
};

/** The recipient's result: overall, passed or not against the pass mark, per domain, then every question with its correct answer (as the test's show_answers allows). */
export function TestResult({ certification, testName, result, passMark, questions, answers, review, reviewWithheld = null, signedIn = false }: Props) {
  const t = useTranslations("taking.result");
  const locale = useLocale();
  const percent = usePercent();
  return (
    <div className="space-y-6">
      {signedIn ? (
        <p className="text-sm">
          <Link href="/student" className="text-brand-700 underline-offset-2 hover:underline">
            {t("back")}
          </Link>
        </p>
      ) : null}
      <Card>
        <p className="text-sm font-medium text-slate-600">
          {certification}
          {testName ? ` · ${testName}` : ""}
        </p>
        <h1 className="mt-1 text-xl font-semibold">{t("heading")}</h1>
        <p className="mt-4 flex flex-wrap items-baseline gap-x-3">
          <span data-testid="result-percent" className="text-4xl font-bold tracking-tight text-slate-900">
            {percent(result.percent)}
          </span>
          <span className="text-sm text-slate-600">
            {t("correct", { correct: result.correct, questions: result.questions })}
          </span>
        </p>
        {result.passed === null ? null : (
          // The outcome beside the mark it was measured against: "Not passed 72% — the pass mark is 80%".
          <p className="mt-2 flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm text-slate-700">
            <span data-testid="result-passed" data-passed={String(result.passed)}>
              <Badge tone={result.passed ? "success" : "danger"}>{result.passed ? t("passed") : t("notPassed")}</Badge>
            </span>
            {passMark === null ? null : (
              <span data-testid="result-pass-mark">{t("againstPassMark", { percent: percent(result.percent), passMark: percent(passMark) })}</span>
            )}
          </p>
        )}
      </Card>

      {result.certificate_url ? <CertificateLinks url={result.certificate_url} /> : null}

      <Card>
        <h2 className="mb-4 text-lg font-semibold">{t("byDomain")}</h2>
        <DomainBars domains={result.domains} />
      </Card>

      <Card>
        <h2 className="text-lg font-semibold">{t("answers")}</h2>
        {reviewWithheld ? (
          <p className="mt-2 text-sm text-slate-600" data-testid="review-withheld">
            {reviewWithheld.until
              ? t("withheldUntil", { when: formatDateTime(reviewWithheld.until, { locale }) })
              : t("withheldNever")}
          </p>
        ) : review ? (
          <ol className="mt-4 space-y-6">
            {questions.map((question, index) => (
              <ReviewItem key={question.id} number={index + 1} question={question} chosen={answers[question.id]} review={review[question.id]} />
            ))}
          </ol>
        ) : (
          <p role="status" className="mt-2 text-sm text-slate-600">
            {t("loading")}
          </p>
        )}
      </Card>
    </div>
  );
}

function ReviewItem({
  number,
  question,
  chosen,
  review,
}: {
  number: number;
  question: TakingView["questions"][number];
  chosen: AnswerValue | undefined;
  review: { correct: AnswerValue; explanation: string } | undefined;
}) {
  const t = useTranslations("taking.result");
  const right = review !== undefined && sameAnswer(chosen, review.correct);
  return (
    <li className="border-t border-slate-100 pt-5 first:border-t-0 first:pt-0">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">
        {t("itemHeading", { number, domain: question.domain })}
      </p>
      <p className="mt-1 font-medium text-slate-900">{question.prompt}</p>
      {question.type === "multiple" ? <p className="mt-1 text-xs text-slate-500">{t("itemMultiple", { choose: question.choose })}</p> : null}
      <p className={`mt-1 text-sm font-medium ${right ? "text-green-700" : "text-red-700"}`}>{right ? t("itemCorrect") : t("itemIncorrect")}</p>
      <ul className="mt-3 space-y-2">
        {question.options.map((option, index) => {
          const isCorrect = includesOption(review?.correct, index);
          const isChosen = includesOption(chosen, index);
          const tone = isCorrect ? "border-green-300 bg-green-50" : isChosen ? "border-red-300 bg-red-50" : "border-slate-200";
          return (
            <li key={index} className={`rounded-md border px-3 py-2 text-sm ${tone}`}>
              <span className="wrap-anywhere">{option}</span>
              {isCorrect || isChosen ? (
                <span className="mt-0.5 block text-xs font-semibold text-slate-700">
                  {[isCorrect ? t("correctAnswer") : null, isChosen ? t("yourAnswer") : null].filter(Boolean).join(" · ")}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {review?.explanation ? <p className="mt-3 text-sm text-slate-700">{review.explanation}</p> : null}
    </li>
  );
}
