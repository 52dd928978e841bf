import { NewTestForm } from "@/components/tests/new-test/new-test-form";
import { copyOf } from "@/components/tests/new-test/schema";
import { BackLink } from "@/components/ui/back-link";
import { PageHeader } from "@/components/ui/card";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { AppError } from "@/lib/kernel/errors";
import { getTest } from "@/lib/certification/tests/tests";
import { getDb } from "@/lib/platform/database";

export const metadata = { title: "New test" };

export default async function NewTestPage({ searchParams }: { searchParams: Promise<{ class?: string; copy?: string }> }) {
  const { class: classParam, copy: copyParam } = await searchParams;
  const initialClassId = classParam && /^\d+$/.test(classParam) ? classParam : undefined;
  // "Copy" on a test page: its setup and settings, recipients chosen anew. An unknown code starts blank.
  let copied: { code: string; values: ReturnType<typeof copyOf> } | undefined;
  if (copyParam) {
    const { workspace } = await requireWorkspace();
    // Its recipients are not copied: one page of one is read, not thousands.
    const source = await getTest(await getDb(), workspace.id, copyParam, { page: 1, per_page: 1 }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "not_found") return undefined;
      throw error;
    });
    if (source) copied = { code: source.code, values: copyOf(source) };
  }
  return (
    <>
      <BackLink href="/tests">All tests</BackLink>
      <PageHeader
        title={copied ? `Copy of test ${copied.code}` : "New test"}
        description={
          copied
            ? "The same certification, domains, question counts and settings; the questions are drawn afresh from the bank. Choose who receives it."
            : "Choose a certification and its domains, how many questions, who receives it, and the settings. Each recipient gets a personal link and starts when they press Start, without an account."
        }
      />
      <NewTestForm initialClassId={initialClassId} copy={copied?.values} />
    </>
  );
}
