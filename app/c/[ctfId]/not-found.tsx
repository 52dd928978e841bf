import { LinkNotValid } from "@/components/ui/public-frame";

export default function CompetitionNotFound() {
  return (
    <LinkNotValid title="This competition is not open">
      There is no running competition at this address. It may not be deployed yet, it may have been stopped or archived, or the link may be incomplete. Ask the organisers for the current link.
    </LinkNotValid>
  );
}
