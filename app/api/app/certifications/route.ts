import { readQuery } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { listCertifications } from "@/lib/certification/catalog";
import { listCertificationsQuery } from "@/lib/certification/schemas";

// GET /api/app/certifications – the catalog plus the workspace's own certifications; vendor, search, page, per_page ≤ 100 (dashboard)
export const GET = withSession(async ({ req, db, workspace }) =>
  Response.json(await listCertifications(db, workspace.id, readQuery(req, listCertificationsQuery))),
);
