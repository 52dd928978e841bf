import { Button, Heading, Text } from "@react-email/components";
import { EmailLayout } from "./layout";

export type TestInvitationProps = { name: string; certification: string; questions: number; link: string; trainer: string };

export function TestInvitationEmail({ name, certification, questions, link, trainer }: TestInvitationProps) {
  return (
    <EmailLayout preview={`${trainer} sent you a ${certification} practice test`}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        Your {certification} practice test
      </Heading>
      <Text>{name ? `Hello ${name},` : "Hello,"}</Text>
      <Text>
        {trainer} sent you a practice test of {questions} questions. No account is needed: open your personal link and start at once.
        Your answers are saved as you go, so you can come back to it.
      </Text>
      <Button href={link} style={{ backgroundColor: "#4f46e5", borderRadius: 6, color: "#ffffff", padding: "10px 16px", fontWeight: 600 }}>
        Start the test
      </Button>
      <Text style={{ color: "#6b7280", fontSize: 13 }}>This link is personal: do not forward it.</Text>
    </EmailLayout>
  );
}
