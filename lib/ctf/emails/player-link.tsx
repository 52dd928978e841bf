import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout } from "@/lib/platform/email/templates/layout";

/** `organizer`: the name of the workspace that runs the competition. */
export type PlayerLinkProps = { title: string; link: string; organizer: string };

export function playerLinkSubject({ title }: Pick<PlayerLinkProps, "title">): string {
  return `Your link to ${title}`;
}

/** "Send me my link again": the member's own link, which signs them in to the competition. */
export function PlayerLinkEmail({ title, link, organizer }: PlayerLinkProps) {
  const subject = playerLinkSubject({ title });
  return (
    <EmailLayout preview={subject}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        {subject}
      </Heading>
      <Text>
        You asked for your link to {title}, run by {organizer}. Open it and press the button to play in this browser; if it was not you, ignore this e-mail.
      </Text>
      <EmailButton href={link}>
        Open my link
      </EmailButton>
    </EmailLayout>
  );
}
