import { notFound } from "next/navigation";
import { cache } from "react";
import { AnnouncementsSection } from "@/components/competitions/announcements-section";
import { CompetitionDetail } from "@/components/competitions/competition-detail";
import { ImportCtfdForm } from "@/components/competitions/import-ctfd-form";
import { TeamsSection } from "@/components/competitions/teams-section";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { config } from "@/lib/kernel/config/config";
import { getCtf } from "@/lib/ctf/competitions/competitions";
import { challengeCategories, difficulties } from "@/lib/ctf/templates/generate";
import { AppError } from "@/lib/kernel/errors";
import { getDb } from "@/lib/platform/database";

type Params = { params: Promise<{ id: string }> };

// One read per request, shared by the metadata and the page; another workspace's id is a 404.
const load = cache(async (id: string) => {
  const { workspace } = await requireWorkspace();
  try {
    return await getCtf(await getDb(), workspace.id, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: Params) {
  const ctf = await load((await params).id);
  return { title: ctf.title };
}

export default async function CompetitionPage({ params }: Params) {
  const ctf = await load((await params).id);
  return (
    <>
      <CompetitionDetail id={ctf.id} initial={ctf} options={{ categories: challengeCategories, difficulties, maxFileBytes: config().files.maxBytes }} />
      <div className="mt-6">
        <ImportCtfdForm initial={ctf} />
      </div>
      <div className="mt-6">
        <AnnouncementsSection initial={ctf} />
      </div>
      <div className="mt-6">
        <TeamsSection initial={ctf} />
      </div>
    </>
  );
}
