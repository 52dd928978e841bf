import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout } from "./layout";
import type { EndpointHealthProps } from "./endpoint-failing";

/** To the workspace's owner when the service disables an endpoint after days of nothing but failures. */
export function EndpointDisabledEmail({ url, kind, failingSince, lastError, disableAfter, link }: EndpointHealthProps) {
  return (
    <EmailLayout preview={`${url} was disabled after ${disableAfter} of failures`}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        A webhook endpoint was disabled
      </Heading>
      <Text>
        Every delivery attempt to your {kind} <strong>{url}</strong> has failed since {failingSince} ({disableAfter} or more; the last one
        got: {lastError}), so it has been disabled. Nothing more is sent to it: new events are recorded as not sent.
      </Text>
      <Text>
        Once the receiver answers again, enable the endpoint in the dashboard (or PATCH it with <code>enabled: true</code>), then recover
        what it missed (<code>POST …/recover</code> with the time it started failing).
      </Text>
      <EmailButton href={link}>Open webhooks</EmailButton>
    </EmailLayout>
  );
}
