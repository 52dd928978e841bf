import Link from "next/link";
import { TestsList } from "@/components/tests/tests-list";
import { buttonClass } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { pagingQuery } from "@/lib/kernel/paging";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { listTests } from "@/lib/certification/tests/tests";
import { getDb } from "@/lib/platform/database";

export const metadata = { title: "Tests" };

export default async function TestsPage() {
  const { workspace } = await requireWorkspace();
  const initial = await listTests(await getDb(), workspace.id, pagingQuery.parse({ per_page: 25 }));
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
      <TestsList initial={initial} />
    </>
  );
}
