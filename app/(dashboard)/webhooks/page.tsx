import { PageHeader } from "@/components/ui/card";
import { TestResultEndpoints } from "@/components/webhooks/test-result-endpoints";
import { WebhooksPanel } from "@/components/webhooks/webhooks-panel";

export const metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Addresses that receive signed events. Each endpoint receives one kind: test results (test.completed, in the certification format) or competition events (in the Service-Webhook/1 format). 2xx within 8 s is success; 3 attempts in all, then dropped."
      />
      <div className="space-y-10">
        <div role="region" aria-labelledby="webhooks-test-results">
          <h2 id="webhooks-test-results" className="mb-3 text-lg font-semibold">
            Test results (test.completed)
          </h2>
          <TestResultEndpoints />
        </div>
        <div role="region" aria-labelledby="webhooks-competition">
          <h2 id="webhooks-competition" className="mb-3 text-lg font-semibold">
            Competition events
          </h2>
          <WebhooksPanel />
        </div>
      </div>
    </>
  );
}
