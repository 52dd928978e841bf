import { ApiKeysPanel } from "@/components/api-keys/api-keys-panel";
import { PageHeader } from "@/components/ui/card";

export const metadata = { title: "API keys" };

export default function ApiKeysPage() {
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys call /api/v1 on behalf of this workspace. Send one as X-API-KEY or Authorization: Bearer. See the API reference at /docs/api."
      />
      <ApiKeysPanel />
    </>
  );
}
