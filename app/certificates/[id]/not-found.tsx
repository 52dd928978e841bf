import { LinkNotValid } from "@/components/ui/public-frame";

export default function CertificateNotFound() {
  return (
    <LinkNotValid title="No such certificate">
      No certificate has this address. Check that the whole link was copied; if it still does not work, ask the holder or the organisation that issued it.
    </LinkNotValid>
  );
}
