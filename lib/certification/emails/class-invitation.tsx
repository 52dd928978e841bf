import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout } from "@/lib/platform/email/templates/layout";

/** `name`: the student's name as the trainer gave it ("" when none); `trainer`: the workspace's name. */
export type ClassInvitationProps = { name: string; className: string; certification: string; link: string; trainer: string };

export function ClassInvitationEmail({ name, className, certification, link, trainer }: ClassInvitationProps) {
  return (
    <EmailLayout preview={`${trainer} invited you to the class ${className}`}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        Join the class {className}
      </Heading>
      <Text>{name ? `Hello ${name},` : "Hello,"}</Text>
      <Text>
        {trainer} invited you to the class {className} ({certification}). Join with a free account: you will receive the class&apos;s
        practice tests and see your progress in one place.
      </Text>
      <EmailButton href={link}>
        Join the class
      </EmailButton>
    </EmailLayout>
  );
}
