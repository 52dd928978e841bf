import { LinkNotValid } from "@/components/ui/public-frame";

export default function DeploymentNotFound() {
  return (
    <LinkNotValid title="There is no challenge at this address">
      The link may be incomplete. Ask the organisers for the current link.
    </LinkNotValid>
  );
}
