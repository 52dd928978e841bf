import { notFound } from "next/navigation";
import { cache } from "react";
import { ClassDetail } from "@/components/classes/class-detail";
import { intId } from "@/lib/platform/http/parse";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { getClass } from "@/lib/certification/classes/classes";
import { AppError } from "@/lib/kernel/errors";
import { getDb } from "@/lib/platform/database";

type Params = { params: Promise<{ id: string }> };

const notFoundToPage = (error: unknown): never => {
  if (error instanceof AppError && error.code === "not_found") notFound();
  throw error;
};

// One read per request, shared by the metadata and the page.
const load = cache(async (rawId: string) => {
  const { workspace } = await requireWorkspace();
  try {
    const id = intId(rawId, "Class");
    return await getClass(await getDb(), workspace.id, id);
  } catch (error) {
    return notFoundToPage(error);
  }
});

export async function generateMetadata({ params }: Params) {
  const klass = await load((await params).id);
  return { title: `Class ${klass.name}` };
}

export default async function ClassPage({ params }: Params) {
  const klass = await load((await params).id);
  return <ClassDetail id={klass.id} initial={klass} />;
}
