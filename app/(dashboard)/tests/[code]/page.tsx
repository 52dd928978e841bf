import { notFound } from "next/navigation";
import { TestDetail } from "@/components/tests/test-detail";
import { RECIPIENTS_PER_PAGE } from "@/components/tests/recipient-pages";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { AppError } from "@/lib/kernel/errors";
import { getTest } from "@/lib/certification/tests/tests";
import { getDb } from "@/lib/platform/database";

type Params = { params: Promise<{ code: string }> };

export async function generateMetadata({ params }: Params) {
  return { title: `Test ${(await params).code}` };
}

export default async function TestPage({ params }: Params) {
  const { code } = await params;
  const { workspace } = await requireWorkspace();
  // The first page of recipients, as the page's client then asks for it (a test may have thousands).
  const test = await getTest(await getDb(), workspace.id, code, { page: 1, per_page: RECIPIENTS_PER_PAGE }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  return <TestDetail code={test.code} initial={test} />;
}
