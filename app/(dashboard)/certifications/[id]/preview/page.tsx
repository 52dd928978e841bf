import { notFound } from "next/navigation";
import { cache } from "react";
import { CertificationPreview } from "@/components/certifications/certification-preview";
import { intId } from "@/lib/platform/http/parse";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { certificationPreview } from "@/lib/certification/catalog/preview";
import { AppError } from "@/lib/kernel/errors";
import { getDb } from "@/lib/platform/database";

type Params = { params: Promise<{ id: string }> };

// One read per request, shared by the metadata and the page. Any certification the workspace sees: the catalog and its own.
const load = cache(async (rawId: string) => {
  const { workspace } = await requireWorkspace();
  try {
    return await certificationPreview(await getDb(), workspace.id, intId(rawId, "Certification"));
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: Params) {
  return { title: `Preview ${(await load((await params).id)).name}` };
}

export default async function CertificationPreviewPage({ params }: Params) {
  return <CertificationPreview certification={await load((await params).id)} />;
}
