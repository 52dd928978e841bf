import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout, SettingsLines } from "@/lib/platform/email/templates/layout";

export type TestReminderProps = {
  name: string;
  testName: string;
  /** Whether the recipient pressed Start already (the reminder then says to finish it). */
  started: boolean;
  /** The time limit and window in words (lib/certification/tests/settings-text.ts). */
  settings: string[];
  link: string;
  trainer: string;
};

/** The one reminder (reminder_after_hours) to a recipient who has not completed. */
export function TestReminderEmail({ name, testName, started, settings, link, trainer }: TestReminderProps) {
  return (
    <EmailLayout preview={`A reminder: ${testName} is waiting for you`}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        A reminder: {testName}
      </Heading>
      <Text>{name ? `Hello ${name},` : "Hello,"}</Text>
      <Text>
        {started
          ? `You started the practice test ${trainer} sent you but have not submitted it yet. Your answers so far are saved: open your link to finish it.`
          : `${trainer} sent you a practice test that you have not taken yet. Open your link and press Start when you are ready.`}
      </Text>
      <SettingsLines lines={settings} />
      <EmailButton href={link}>
        Open the test
      </EmailButton>
      <Text style={{ color: "#6b7280", fontSize: 13 }}>This is the only reminder. This link is personal: do not forward it.</Text>
    </EmailLayout>
  );
}
