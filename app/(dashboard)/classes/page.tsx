import { ClassesPanel } from "@/components/classes/classes-panel";
import { PageHeader } from "@/components/ui/card";
import { pagingQuery } from "@/lib/kernel/paging";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { listClasses } from "@/lib/certification/classes/classes";
import { getDb } from "@/lib/platform/database";

export const metadata = { title: "Classes" };

export default async function ClassesPage() {
  const { workspace } = await requireWorkspace();
  const initial = await listClasses(await getDb(), workspace.id, pagingQuery.parse({ per_page: 100 }));
  return (
    <>
      <PageHeader title="Classes" description="Invite students by e-mail, send tests to a whole class and follow their progress." />
      <ClassesPanel initial={initial} />
    </>
  );
}
