import { LinkNotValid } from "@/components/ui/public-frame";

export default function CompetitionInvitationNotFound() {
  return (
    <LinkNotValid title="This invitation link is not valid">
      Check that you opened the whole link from your invitation e-mail. If it still does not work, ask the organisers to invite you again.
    </LinkNotValid>
  );
}
