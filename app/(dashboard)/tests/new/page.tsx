import Link from "next/link";
import { NewTestForm } from "@/components/tests/new-test/new-test-form";
import { PageHeader } from "@/components/ui/card";

export const metadata = { title: "New test" };

export default async function NewTestPage({ searchParams }: { searchParams: Promise<{ class?: string }> }) {
  const { class: classParam } = await searchParams;
  const initialClassId = classParam && /^\d+$/.test(classParam) ? classParam : undefined;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/tests" className="text-brand-700 underline-offset-2 hover:underline">
          ← All tests
        </Link>
      </p>
      <PageHeader
        title="New test"
        description="Choose a certification and its domains, how many questions, and who receives it. Each recipient gets a personal link and starts at once, without an account."
      />
      <NewTestForm initialClassId={initialClassId} />
    </>
  );
}
