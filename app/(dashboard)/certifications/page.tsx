import Link from "next/link";
import { CatalogFilter } from "@/components/certifications/catalog-filter";
import { buttonClass } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { requireWorkspace } from "@/lib/platform/auth/session";
import { listCertifications } from "@/lib/certification/catalog/catalog";
import { listCertificationsQuery } from "@/lib/certification/catalog/schemas";
import { getDb } from "@/lib/platform/database";

export const metadata = { title: "Certifications" };

export default async function CertificationsPage({ searchParams }: { searchParams: Promise<Record<string, string>> }) {
  const { workspace } = await requireWorkspace();
  const parsed = listCertificationsQuery.safeParse(await searchParams);
  const query = parsed.success ? parsed.data : listCertificationsQuery.parse({});
  const db = await getDb();
  const [result, vendors] = await Promise.all([
    listCertifications(db, workspace.id, query),
    listCertifications(db, workspace.id, listCertificationsQuery.parse({ per_page: 100 })),
  ]);
  const vendorNames = [...new Set(vendors.data.map((c) => c.vendor))].sort();

  return (
    <>
      <PageHeader
        title="Certifications"
        description="The shared catalog and your own certifications. A test is created for one of them."
        actions={
          <Link href="/certifications/new" className={buttonClass()}>
            New certification
          </Link>
        }
      />
      <CatalogFilter search={query.search ?? ""} vendor={query.vendor ?? ""} vendors={vendorNames} />
      <div className="grid gap-4 sm:grid-cols-2">
        {result.data.map((certification) => (
          <Card key={certification.id}>
            <div data-testid="certification-card" data-certification-id={certification.id} data-own={certification.own}>
              <p className="text-xs font-medium uppercase text-slate-500">
                {certification.vendor}
                {certification.code ? ` · ${certification.code}` : ""} {certification.own ? "· Yours" : ""}
              </p>
              <h2 className="mt-1 font-semibold">{certification.name}</h2>
              <p className="mt-1 text-sm text-slate-600">{certification.description}</p>
              <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                <p className="text-xs text-slate-500">
                  {certification.domains} domains · {certification.questions} questions
                </p>
                <div className="flex gap-2">
                  <Link
                    href={`/certifications/${certification.id}/preview`}
                    className={buttonClass("secondary")}
                    aria-label={`Preview ${certification.name}`}
                  >
                    Preview
                  </Link>
                  {certification.own ? (
                    <Link
                      href={`/certifications/${certification.id}`}
                      className={buttonClass("secondary")}
                      aria-label={`Edit ${certification.name}`}
                    >
                      Edit
                    </Link>
                  ) : null}
                </div>
              </div>
            </div>
          </Card>
        ))}
        {result.data.length === 0 ? <p className="text-sm text-slate-600">No certification matches.</p> : null}
      </div>
    </>
  );
}
