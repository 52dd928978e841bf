import { LinkNotValid } from "@/components/ui/public-frame";

export default function InvitationNotFound() {
  return (
    <LinkNotValid title="This invitation link is not valid">
      Check that you opened the whole link from your invitation e-mail. If it still does not work, ask your trainer to send the invitation again.
    </LinkNotValid>
  );
}
