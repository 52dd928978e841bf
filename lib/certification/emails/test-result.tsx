import { Heading, Hr, Link, Section, Text } from "@react-email/components";
import { EmailButton, EmailLayout } from "@/lib/platform/email/templates/layout";

export type TestResultReviewItem = { prompt: string; chosen: string | null; correct: string; right: boolean; explanation: string };

export type TestResultProps = {
  name: string;
  testName: string;
  percent: number;
  correct: number;
  questions: number;
  /** Against the pass mark; null without one. */
  passed: boolean | null;
  domains: { name: string; percent: number }[];
  /** Each question with the correct answer, when show_answers allows it now; null otherwise. */
  review: TestResultReviewItem[] | null;
  /** Said instead of the review when it is withheld (after closes_at, or never). */
  reviewNote: string | null;
  link: string;
  /** The certificate's verification page when this result earned one (a test's `certificate`); its PDF is `{url}/pdf`. */
  certificateUrl?: string | null;
};

/** The recipient's result (send_result): overall, pass or fail, per domain, and the answers only as show_answers allows. */
export function TestResultEmail({ name, testName, percent, correct, questions, passed, domains, review, reviewNote, link, certificateUrl = null }: TestResultProps) {
  return (
    <EmailLayout preview={`Your result in ${testName}: ${percent}%`}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        Your result: {testName}
      </Heading>
      <Text>{name ? `Hello ${name},` : "Hello,"}</Text>
      <Text style={{ fontSize: 18, fontWeight: 700 }}>
        {percent}% — {correct} of {questions} questions correct
        {passed === null ? "" : passed ? " — Passed" : " — Not passed"}
      </Text>
      <Section>
        {domains.map((domain) => (
          <Text key={domain.name} style={{ margin: "2px 0" }}>
            {domain.name}: {domain.percent}%
          </Text>
        ))}
      </Section>
      {certificateUrl ? (
        <Section>
          <Text>
            You earned a certificate. Download it as a PDF: <Link href={`${certificateUrl}/pdf`}>{`${certificateUrl}/pdf`}</Link>. Anyone can check it at{" "}
            <Link href={certificateUrl}>{certificateUrl}</Link>.
          </Text>
        </Section>
      ) : null}
      {review ? (
        <Section>
          <Hr />
          <Heading as="h2" style={{ fontSize: 16 }}>
            Answers and explanations
          </Heading>
          {review.map((item, index) => (
            <Section key={index}>
              <Text style={{ fontWeight: 600, marginBottom: 2 }}>
                {index + 1}. {item.prompt}
              </Text>
              <Text style={{ margin: "2px 0", color: item.right ? "#15803d" : "#b91c1c" }}>
                {item.right ? "✓ Correct" : "✗ Incorrect"} — your answer: {item.chosen ?? "none"}
              </Text>
              {item.right ? null : <Text style={{ margin: "2px 0" }}>Correct answer: {item.correct}</Text>}
              {item.explanation ? <Text style={{ margin: "2px 0", color: "#374151" }}>{item.explanation}</Text> : null}
            </Section>
          ))}
        </Section>
      ) : null}
      {reviewNote ? <Text>{reviewNote}</Text> : null}
      <EmailButton href={link}>
        See your result
      </EmailButton>
      <Text style={{ color: "#6b7280", fontSize: 13 }}>This link is personal: do not forward it.</Text>
    </EmailLayout>
  );
}
