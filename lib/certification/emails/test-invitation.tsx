import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout, SettingsLines } from "@/lib/platform/email/templates/layout";

export type TestInvitationProps = {
  name: string;
  /** The test's name (default "{certification} test"). */
  testName: string;
  certification: string;
  questions: number;
  /** The time limit and window in words (lib/certification/tests/settings-text.ts); empty without them. */
  settings: string[];
  link: string;
  trainer: string;
};

export function TestInvitationEmail({ name, testName, certification, questions, settings, link, trainer }: TestInvitationProps) {
  return (
    <EmailLayout preview={`${trainer} sent you a ${certification} practice test`}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        {testName}
      </Heading>
      <Text>{name ? `Hello ${name},` : "Hello,"}</Text>
      <Text>
        {trainer} sent you a {certification} practice test of {questions} questions. No account is needed: open your personal link and
        press Start when you are ready. Your answers are saved as you go, so you can come back to it.
      </Text>
      <SettingsLines lines={settings} />
      <EmailButton href={link}>
        Open the test
      </EmailButton>
      <Text style={{ color: "#6b7280", fontSize: 13 }}>This link is personal: do not forward it.</Text>
    </EmailLayout>
  );
}
