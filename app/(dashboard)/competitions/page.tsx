import Link from "next/link";
import { CompetitionsPanel } from "@/components/competitions/competitions-panel";
import { HostNote } from "@/components/competitions/ui";
import { Card, PageHeader } from "@/components/ui/card";
import { pagingQuery } from "@/lib/kernel/paging";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { listCtfs } from "@/lib/ctf/competitions/competitions";
import { configuredHostKind } from "@/lib/ctf/hosting";
import { getDb } from "@/lib/platform/database";

export const metadata = { title: "Competitions" };

export default async function CompetitionsPage() {
  const { workspace } = await requireWorkspace();
  const initial = await listCtfs(await getDb(), workspace.id, pagingQuery.parse({ per_page: 100 }));
  return (
    <>
      <PageHeader
        title="Competitions"
        description="Run capture-the-flag competitions: write or generate challenges, deploy the competition, publish challenges to it, invite competitors, and deploy single challenges for a time window."
      />
      <div className="space-y-6">
        <Card className="bg-slate-50">
          <h2 className="sr-only">How competitions are hosted</h2>
          <p className="text-sm text-slate-700" data-testid="ctf-host-note">
            <HostNote host={configuredHostKind()} />
          </p>
          <p className="mt-2 text-sm text-slate-600">
            Deploying and publishing run in the background; the pages follow them. Each lifecycle change is also sent to your{" "}
            <Link href="/webhooks" className="text-brand-700 underline-offset-2 hover:underline">
              webhooks
            </Link>{" "}
            (<code>ctf.deployed</code>, <code>challenge.published</code>, <code>member.joined</code>, …).
          </p>
        </Card>
        <CompetitionsPanel initial={initial} />
      </div>
    </>
  );
}
