import { expect } from "vitest";
import type { Db } from "@/db";
import { submitTest } from "@/lib/certification/taking/taking";
import type { ResultView } from "@/lib/certification/tests/schemas";
import * as testsRoute from "@/app/api/v1/tests/route";
import { eq } from "drizzle-orm";
import { domains } from "@/db/schema";
import { createCertification } from "@/lib/certification/catalog/catalog";
import { createCertificationInput } from "@/lib/certification/catalog/schemas";
import type { Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { answerAll, tokenOf } from "../../helpers/taking";

let counter = 0;
const owned = new Map<string, Promise<{ certificationId: number; domainIds: number[] }>>();

/** The trainer's own certification "Cloud Security Basics": two domains of two single-answer questions (what answerAll answers). */
function ownCertification(db: Db, trainer: Trainer) {
  let made = owned.get(trainer.workspaceId);
  if (!made) {
    const question = (n: number) => ({ prompt: `${n} + ${n}?`, options: [String(n + n), String(n + n + 1), String(n)], correct: 0 });
    const input = createCertificationInput.parse({
      name: "Cloud Security Basics",
      vendor: "Acme",
      domains: [
        { name: "Identity", questions: [question(1), question(2)] },
        { name: "Networks", questions: [question(3), question(4)] },
      ],
    });
    made = createCertification(db, trainer.workspaceId, input).then(async ({ id }) => ({
      certificationId: id,
      domainIds: (await db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, id)).orderBy(domains.position)).map((d) => d.id),
    }));
    owned.set(trainer.workspaceId, made);
  }
  return made;
}

export type Sent = { code: string; people: { id: number; token: string; email: string }[] };

/** A test of the trainer's (4 questions, pass mark 50, `certificate` unless said) sent without e-mail to `names`. */
export async function sendTest(db: Db, trainer: Trainer, names: string[], settings: Record<string, unknown> = {}): Promise<Sent> {
  const { certificationId, domainIds } = await ownCertification(db, trainer);
  const made = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: {
      certification_id: certificationId,
      domains: domainIds.slice(0, 2),
      questions: 4,
      name: "Security+ mock exam",
      pass_mark: 50,
      certificate: true,
      recipients: names.map((name) => ({ email: `holder${++counter}.${Date.now()}@example.com`, name })),
      send_email: false,
      ...settings,
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const recipients = made.body.recipients as { id: number; link: string; email: string }[];
  return { code: made.body.code, people: recipients.map((r) => ({ id: r.id, token: tokenOf(r.link), email: r.email })) };
}

/** Starts, answers (`right` of 4 correctly) and submits: the submit's result. */
export async function finish(db: Db, token: string, right: number): Promise<ResultView> {
  await answerAll(db, token, right);
  return submitTest(db, token);
}

/** The certificate id in a certificate URL. */
export const certificateIdOf = (url: string) => url.split("/certificates/")[1];
