import { readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { createOwnCertification } from "@/lib/certification/manage";
import { newCertificationInput } from "@/lib/certification/manage-schemas";

// POST /api/app/my-certifications – create an own certification: name, vendor, code, description, domain names (dashboard)
export const POST = withSession(async ({ req, db, workspace }) =>
  Response.json(await createOwnCertification(db, workspace.id, await readJson(req, newCertificationInput)), { status: 201 }),
);
