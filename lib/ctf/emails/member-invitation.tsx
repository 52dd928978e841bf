import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout } from "@/lib/platform/email/templates/layout";

/** `selfEnrolled`: the visitor asked to take part on the public page; nobody invited them. `organizer`: the workspace's name. */
export type MemberInvitationProps = { title: string; link: string; startsAt: string; selfEnrolled: boolean; organizer: string };

export function memberInvitationSubject({ title, selfEnrolled }: Pick<MemberInvitationProps, "title" | "selfEnrolled">): string {
  return selfEnrolled ? `Confirm your place in ${title}` : `You are invited to ${title}`;
}

export function MemberInvitationEmail({ title, link, startsAt, selfEnrolled, organizer }: MemberInvitationProps) {
  const subject = memberInvitationSubject({ title, selfEnrolled });
  return (
    <EmailLayout preview={subject}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        {subject}
      </Heading>
      <Text>
        {selfEnrolled
          ? `You asked to take part in ${title}, run by ${organizer}, which starts ${startsAt}. Confirm with the button below; if it was not you, ignore this e-mail and nothing happens.`
          : `${organizer} invites you to ${title}. The competition starts ${startsAt}. Accept the invitation to take part.`}
      </Text>
      <EmailButton href={link}>
        {selfEnrolled ? "Confirm my place" : "Accept the invitation"}
      </EmailButton>
    </EmailLayout>
  );
}
