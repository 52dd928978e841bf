import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout } from "./layout";

export type EndpointHealthProps = {
  url: string;
  /** "test-result endpoint" or "competition endpoint". */
  kind: string;
  /** When the run of failures began, as the owner reads it (UTC). */
  failingSince: string;
  /** The last failed attempt's answer: "HTTP 500", or the network error. */
  lastError: string;
  /** The days of nothing but failures after which the endpoint is disabled (WEBHOOK_DISABLE_AFTER_DAYS). */
  disableAfter: string;
  /** The dashboard's webhook page. */
  link: string;
};

/** To the workspace's owner when an endpoint starts failing (at most once a day per endpoint). */
export function EndpointFailingEmail({ url, kind, failingSince, lastError, disableAfter, link }: EndpointHealthProps) {
  return (
    <EmailLayout preview={`Deliveries to ${url} are failing`}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        A webhook endpoint is failing
      </Heading>
      <Text>
        Deliveries to your {kind} <strong>{url}</strong> have been failing since {failingSince}. The last attempt got: {lastError}.
      </Text>
      <Text>
        Failed deliveries are retried on their schedule; a delivery whose attempts all fail is dropped, and can be recovered once the
        receiver answers again. If every attempt keeps failing for {disableAfter}, the endpoint will be disabled.
      </Text>
      <EmailButton href={link}>Open the delivery log</EmailButton>
      <Text style={{ color: "#6b7280", fontSize: 13 }}>You get this at most once a day per endpoint while it keeps failing.</Text>
    </EmailLayout>
  );
}
