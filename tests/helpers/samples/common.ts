import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { domains } from "@/db/schema";
import { catalogCertificationId } from "@/db/seed";
import { createCertification } from "@/lib/certification/catalog/catalog";
import { createCertificationInput } from "@/lib/certification/catalog/schemas";
import type { Trainer } from "../fixtures";

let counter = 0;

/** An address no earlier sample used. */
export const freshEmail = () => `s${Date.now()}-${counter++}@example.com`;

/** A certification of the shared catalog with its domain ids. */
export async function catalogCertification(db: Db) {
  const id = (await catalogCertificationId(db, "aws-clf-c02"))!;
  const domainIds = (await db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, id))).map((d) => d.id);
  return { id, domainIds };
}

/** A certification of the trainer's own, one domain with two questions. */
export async function ownCertification(db: Db, trainer: Trainer) {
  const certification = await createCertification(
    db,
    trainer.workspaceId,
    createCertificationInput.parse({
      name: "Internal onboarding",
      vendor: "Acme",
      domains: [
        {
          name: "Basics",
          questions: [
            { prompt: "2 + 2?", options: ["3", "4"], correct: 1 },
            { prompt: "3 + 3?", options: ["6", "7"], correct: 0 },
          ],
        },
      ],
    }),
  );
  const [domain] = await db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, certification.id));
  return { id: certification.id, domainId: domain.id };
}
