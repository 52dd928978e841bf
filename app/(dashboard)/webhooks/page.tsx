import { PageHeader } from "@/components/ui/card";
import { WebhooksPanel } from "@/components/webhooks/webhooks-panel";

export const metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Addresses that receive signed events: test.completed in the certification format, competition events in the Service-Webhook/1 format. 2xx within 8 s is success; 3 attempts in all, then dropped."
      />
      <WebhooksPanel />
    </>
  );
}
