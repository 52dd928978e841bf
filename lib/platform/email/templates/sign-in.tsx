import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout } from "./layout";

export function SignInEmail({ url, host }: { url: string; host: string }) {
  return (
    <EmailLayout preview={`Your sign-in link for ${host}`}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        Sign in to Certify
      </Heading>
      <Text>Use the button below to sign in. The link works once and expires in 24 hours.</Text>
      <EmailButton href={url}>Sign in</EmailButton>
      <Text style={{ color: "#6b7280", fontSize: 13 }}>If you did not ask for this e-mail, you can ignore it.</Text>
    </EmailLayout>
  );
}
