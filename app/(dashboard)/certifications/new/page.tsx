import { NewCertificationForm } from "@/components/certifications/new-certification-form";
import { BackLink } from "@/components/ui/back-link";
import { PageHeader } from "@/components/ui/card";

export const metadata = { title: "New certification" };

export default function NewCertificationPage() {
  return (
    <>
      <BackLink href="/certifications">All certifications</BackLink>
      <PageHeader
        title="New certification"
        description="Your own certification, visible to your workspace alone. Tests and classes can use it like any catalog certification."
      />
      <NewCertificationForm />
    </>
  );
}
