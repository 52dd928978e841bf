import Link from "next/link";
import { TestsList } from "@/components/tests/tests-list";
import { buttonClass } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { pagingQuery } from "@/lib/kernel/paging";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { listTests } from "@/lib/certification/tests/tests";
import { getDb } from "@/lib/platform/database";
import { welcomeState } from "@/lib/platform/workspaces/welcome";
import { WelcomeCard } from "@/components/workspace/welcome-card";

export const metadata = { title: "Tests" };

export default async function TestsPage() {
  const { workspace } = await requireWorkspace();
  const db = await getDb();
  const [initial, welcome] = await Promise.all([listTests(db, workspace.id, pagingQuery.parse({ per_page: 25 })), welcomeState(db, workspace.id)]);
  return (
    <>
      <PageHeader
        title="Tests"
        description="Create certification tests, send them by e-mail and read every result."
        actions={
          <Link href="/tests/new" className={buttonClass()}>
            New test
          </Link>
        }
      />
      {/* The landing page after sign-in: the welcome step waits here until saved or skipped. */}
      {welcome.show ? <WelcomeCard /> : null}
      <TestsList initial={initial} />
    </>
  );
}
