import { ApiKeysPanel } from "@/components/api-keys/api-keys-panel";
import { PageHeader } from "@/components/ui/card";

export const metadata = { title: "API keys" };

export default function ApiKeysPage() {
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys call <code>/api/v1</code> on behalf of this workspace. Send one as <code>X-API-KEY</code> or <code>Authorization: Bearer</code>. See the{" "}
            {/* A plain link: the reference is a route handler's page, not part of the app's router. */}
            <a href="/docs/api" className="font-medium text-brand-700 underline underline-offset-2">
              API reference
            </a>
            .
          </>
        }
      />
      <ApiKeysPanel />
    </>
  );
}
