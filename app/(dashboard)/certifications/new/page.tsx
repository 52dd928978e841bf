import Link from "next/link";
import { NewCertificationForm } from "@/components/certifications/new-certification-form";
import { PageHeader } from "@/components/ui/card";

export const metadata = { title: "New certification" };

export default function NewCertificationPage() {
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/certifications" className="text-brand-700 underline-offset-2 hover:underline">
          ← All certifications
        </Link>
      </p>
      <PageHeader
        title="New certification"
        description="Your own certification, visible to your workspace alone. Tests and classes can use it like any catalog certification."
      />
      <NewCertificationForm />
    </>
  );
}
