import { LinkNotValid } from "@/components/ui/public-frame";

export default function TestLinkNotFound() {
  return (
    <LinkNotValid title="This test link is not valid">
      Check that you opened the whole link from your e-mail. If it still does not work, ask the person who sent you the test to send it again.
    </LinkNotValid>
  );
}
