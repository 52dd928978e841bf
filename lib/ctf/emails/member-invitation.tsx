import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout } from "@/lib/platform/email/templates/layout";
import { utcDateTimeIn } from "@/lib/platform/i18n/translator";

/**
 * `selfEnrolled`: the visitor asked to take part on the public page; nobody invited them.
 * `organizer`: who runs it, as recipients read it (lib/platform/workspaces/sender.ts).
 * `sentAt`: when the e-mail is written, which decides "starts …" or "running now, until …".
 */
export type MemberInvitationProps = { title: string; link: string; startsAt: Date; endsAt: Date; sentAt: Date; selfEnrolled: boolean; organizer: string };

export function memberInvitationSubject({ title, selfEnrolled }: Pick<MemberInvitationProps, "title" | "selfEnrolled">): string {
  return selfEnrolled ? `Confirm your place in ${title}` : `You are invited to ${title}`;
}

/**
 * When the competition runs, as of `sentAt`, in the one format of every e-mail's times
 * (utcDateTimeIn: "1 Dec 2026, 18:00 UTC"; the CTF e-mails are in English):
 * "starts … and ends …", "is running now, until …", or "ended …".
 */
export function competitionTimes({ startsAt, endsAt, sentAt }: Pick<MemberInvitationProps, "startsAt" | "endsAt" | "sentAt">): string {
  const at = (when: Date) => utcDateTimeIn("en", when);
  if (sentAt < startsAt) return `starts ${at(startsAt)} and ends ${at(endsAt)}`;
  if (sentAt < endsAt) return `is running now, until ${at(endsAt)}`;
  return `ended ${at(endsAt)}`;
}

export function MemberInvitationEmail({ title, link, startsAt, endsAt, sentAt, selfEnrolled, organizer }: MemberInvitationProps) {
  const subject = memberInvitationSubject({ title, selfEnrolled });
  const times = competitionTimes({ startsAt, endsAt, sentAt });
  return (
    <EmailLayout preview={subject}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        {subject}
      </Heading>
      <Text>
        {selfEnrolled
          ? `You asked to take part in ${title}, run by ${organizer}, which ${times}. Confirm with the button below; if it was not you, ignore this e-mail and nothing happens.`
          : `${organizer} invites you to ${title}. The competition ${times}. Accept the invitation to take part.`}
      </Text>
      <EmailButton href={link}>
        {selfEnrolled ? "Confirm my place" : "Accept the invitation"}
      </EmailButton>
    </EmailLayout>
  );
}
