import { notFound } from "next/navigation";
import { TestDetail } from "@/components/tests/test-detail";
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
  const test = await getTest(await getDb(), workspace.id, code).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  return <TestDetail code={test.code} initial={test} />;
}
