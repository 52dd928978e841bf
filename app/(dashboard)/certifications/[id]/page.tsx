import { notFound } from "next/navigation";
import { cache } from "react";
import { CertificationEditor } from "@/components/certifications/certification-editor";
import { intId } from "@/lib/platform/http/parse";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { getOwnCertification } from "@/lib/certification/own/manage";
import { AppError } from "@/lib/kernel/errors";
import { getDb } from "@/lib/platform/database";

type Params = { params: Promise<{ id: string }> };

// One read per request, shared by the metadata and the page. Only own certifications are editable.
const load = cache(async (rawId: string) => {
  const { workspace } = await requireWorkspace();
  try {
    return await getOwnCertification(await getDb(), workspace.id, intId(rawId, "Certification"));
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: Params) {
  return { title: `Edit ${(await load((await params).id)).name}` };
}

export default async function EditCertificationPage({ params }: Params) {
  const certification = await load((await params).id);
  return <CertificationEditor id={certification.id} initial={certification} />;
}
