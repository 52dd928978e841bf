import { Heading, Hr, Link, Section, Text } from "@react-email/components";
import { EmailButton, EmailLayout } from "@/lib/platform/email/templates/layout";
import type { Locale } from "@/lib/platform/i18n/locales";
import { formatPercent } from "@/lib/platform/i18n/percent";
import { translator } from "@/lib/platform/i18n/translator";

export type TestResultReviewItem = { prompt: string; chosen: string | null; correct: string; right: boolean; explanation: string };

export type TestResultProps = {
  /** The language the e-mail is written in: mailLocale(test.language, the workspace's default). */
  locale: Locale;
  name: string;
  testName: string;
  percent: number;
  correct: number;
  questions: number;
  /** Against the pass mark; null without one. */
  passed: boolean | null;
  /** The test's pass mark (percent), null without one: a pass or fail is said against it. */
  passMark: number | null;
  /** Each domain's name as written in the catalog (never translated). */
  domains: { name: string; percent: number }[];
  /** Each question with the correct answer, when show_answers allows it now; null otherwise. Questions and options as written. */
  review: TestResultReviewItem[] | null;
  /** Said instead of the review when it is withheld (after closes_at, or never), in `locale`. */
  reviewNote: string | null;
  link: string;
  /** The certificate's verification page when this result earned one (a test's `certificate`); its PDF is `{url}/pdf`. */
  certificateUrl?: string | null;
};

export function testResultSubject(locale: Locale, testName: string): string {
  return translator(locale, "emails")("result.subject", { testName });
}

/** The recipient's result (send_result): overall, pass or fail, per domain, and the answers only as show_answers allows. */
export function TestResultEmail(props: TestResultProps) {
  const { locale, name, testName, percent, domains, review, reviewNote, link, certificateUrl = null } = props;
  const t = translator(locale, "emails");
  return (
    <EmailLayout locale={locale} preview={t("result.preview", { testName, percent: formatPercent(locale, percent) })}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        {t("result.heading", { testName })}
      </Heading>
      <Text>{name ? t("hello", { name }) : t("helloNoName")}</Text>
      <Text style={{ fontSize: 18, fontWeight: 700 }}>{scoreLine(props)}</Text>
      <Section>
        {domains.map((domain) => (
          <Text key={domain.name} style={{ margin: "2px 0" }}>
            {t("result.domain", { domain: domain.name, percent: formatPercent(locale, domain.percent) })}
          </Text>
        ))}
      </Section>
      {certificateUrl ? (
        <Section>
          <Text>
            {t.rich("result.certificate", {
              pdfUrl: `${certificateUrl}/pdf`,
              pageUrl: certificateUrl,
              pdf: (chunks) => <Link href={`${certificateUrl}/pdf`}>{chunks}</Link>,
              page: (chunks) => <Link href={certificateUrl}>{chunks}</Link>,
            })}
          </Text>
        </Section>
      ) : null}
      {review ? <Review locale={locale} review={review} /> : null}
      {reviewNote ? <Text>{reviewNote}</Text> : null}
      <EmailButton href={link}>{t("result.seeResult")}</EmailButton>
      <Text style={{ color: "#6b7280", fontSize: 13 }}>{t("personalLink")}</Text>
    </EmailLayout>
  );
}

/**
 * "72% — 18 of 25 questions correct — Not passed: the pass mark is 80%": the outcome, with the
 * mark it was measured against, is part of the sentence, as each language orders it.
 */
function scoreLine({ locale, percent, correct, questions, passed, passMark }: TestResultProps): string {
  const t = translator(locale, "emails");
  const score = { percent: formatPercent(locale, percent), correct, questions };
  if (passed === null || passMark === null) return t("result.score", score);
  return t(passed ? "result.scorePassed" : "result.scoreNotPassed", { ...score, passMark: formatPercent(locale, passMark) });
}

function Review({ locale, review }: { locale: Locale; review: TestResultReviewItem[] }) {
  const t = translator(locale, "emails");
  return (
    <Section>
      <Hr />
      <Heading as="h2" style={{ fontSize: 16 }}>
        {t("result.reviewHeading")}
      </Heading>
      {review.map((item, index) => (
        <Section key={index}>
          <Text style={{ fontWeight: 600, marginBottom: 2 }}>
            {index + 1}. {item.prompt}
          </Text>
          <Text style={{ margin: "2px 0", color: item.right ? "#15803d" : "#b91c1c" }}>
            {t(item.right ? "result.right" : "result.wrong", { answer: item.chosen ?? t("result.noAnswer") })}
          </Text>
          {item.right ? null : <Text style={{ margin: "2px 0" }}>{t("result.correctAnswer", { answer: item.correct })}</Text>}
          {item.explanation ? <Text style={{ margin: "2px 0", color: "#374151" }}>{item.explanation}</Text> : null}
        </Section>
      ))}
    </Section>
  );
}
