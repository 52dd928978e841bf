import { Button, Heading, Text } from "@react-email/components";
import { EmailLayout } from "./layout";

export type MemberInvitationProps = { title: string; link: string; startsAt: string };

export function MemberInvitationEmail({ title, link, startsAt }: MemberInvitationProps) {
  return (
    <EmailLayout preview={`You are invited to ${title}`}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        You are invited to {title}
      </Heading>
      <Text>The competition starts {startsAt}. Accept the invitation to take part.</Text>
      <Button href={link} style={{ backgroundColor: "#4f46e5", borderRadius: 6, color: "#ffffff", padding: "10px 16px", fontWeight: 600 }}>
        Accept the invitation
      </Button>
    </EmailLayout>
  );
}
