import { listQuestions } from "@/lib/certification/own/manage";
import type { Db } from "@/db";
import type { Trainer } from "../fixtures";
import { saveAnswer, startTest, submitTest } from "@/lib/certification/taking/taking";
import { createCertification } from "@/lib/certification/catalog/catalog";
import { createCertificationInput } from "@/lib/certification/catalog/schemas";
import { createTestInput } from "@/lib/certification/tests/schemas";
import { createTest } from "@/lib/certification/tests/tests";
import { startAndOpen } from "../taking";
import { freshEmail, ownCertification } from "./common";
import type { Samples } from "./types";

const certification = ({ db }: { db: Db }, trainer: Trainer) => ownCertification(db, trainer).then(({ id }) => ({ id: String(id) }));
const domain = ({ db }: { db: Db }, trainer: Trainer) => ownCertification(db, trainer).then(({ id, domainId }) => ({ id: String(id), domain_id: String(domainId) }));
const question = async ({ db }: { db: Db }, trainer: Trainer) => {
  const { id } = await ownCertification(db, trainer);
  return { id: String(id), question_id: String((await listQuestions(db, trainer.workspaceId, id, { page: 1, per_page: 25 })).data[0].id) };
};
/** A GIFT file with a category, a single, a weighted multiple-response and an essay question (skipped). */
const giftBank = () =>
  "$CATEGORY: $course$/top/Basics\n\n::Sum::2 + 2 makes {=4 ~3 ~5}\n\n::Evens::Which two are even? {~%50%2 ~%50%4 ~%-100%3}\n\n::Essay::Explain addition. {}\n";
const newQuestion = () => ({ prompt: "5 + 5?", options: ["10", "11"], correct: 0, explanation: "" });
/** A multiple-response question (issue 23), so the fuzz suite varies `type` and a `correct` set too. */
const newMultipleQuestion = () => ({ prompt: "Which two are even?", type: "multiple", options: ["2", "3", "4", "5"], correct: [0, 2], explanation: "2 and 4." });

/**
 * A started recipient of a test whose first question is multiple-response (choose 2), and the
 * body answering it with `options`: the sample of PUT /api/t/{token}/answers, so the fuzz suite
 * varies `options` (its count, repeats, range) as well as `option`.
 */
export async function multipleResponseAttempt(db: Db, trainer: Trainer) {
  const own = await createCertification(
    db,
    trainer.workspaceId,
    createCertificationInput.parse({ name: "Even numbers", vendor: "Acme", domains: [{ name: "Numbers", questions: [newMultipleQuestion()] }] }),
  );
  const test = await createTest(db, trainer.workspaceId, createTestInput.parse({ certification_id: own.id, domains: [own.domains[0].id], questions: 1, recipients: [{ email: freshEmail() }], send_email: false }));
  const token = new URL(test.recipients[0].link, "http://localhost").pathname.split("/").pop()!;
  await startTest(db, token);
  return { token };
}

/** A recipient of the trainer's who passed a test that issues certificates (pass mark 0: any answer passes). */
async function certifiedRecipient({ db }: { db: Db }, trainer: Trainer) {
  const { id, domainId } = await ownCertification(db, trainer);
  const body = { certification_id: id, domains: [domainId], questions: 2, pass_mark: 0, certificate: true, recipients: [{ email: freshEmail(), name: "Certified" }], send_email: false };
  const test = await createTest(db, trainer.workspaceId, createTestInput.parse(body));
  const token = new URL(test.recipients[0].link, "http://localhost").pathname.split("/").pop()!;
  for (const question of (await startAndOpen(db, token)).questions) await saveAnswer(db, token, { question_id: question.id, option: 0 });
  await submitTest(db, token);
  return { code: test.code, id: String(test.recipients[0].id) };
}

export const certificationSamples: Samples = {
  "tests.recipients.certificate": { params: certifiedRecipient },
  "tests.recipients.certificate.revoke": { params: certifiedRecipient },
  "certifications.list": {},
  "certifications.get": { params: certification },
  "certifications.domains": { params: certification },
  "certifications.create": { body: () => ({ name: "Own", vendor: "Acme", code: "", description: "", domains: ["Basics"] }) },
  "certifications.update": { params: certification, body: () => ({ name: "Renamed", code: "A1" }) },
  "certifications.delete": { params: certification },
  "certifications.questions.list": { params: certification },
  "certifications.domains.create": { params: certification, body: () => ({ name: "Advanced" }) },
  "certifications.domains.update": { params: domain, body: () => ({ name: "Renamed domain" }) },
  "certifications.questions.create": { params: domain, body: newMultipleQuestion },
  "certifications.questions.update": {
    params: question,
    body: newQuestion,
    foreignBodies: async ({ db, stranger }) => ({ domain_id: { ...newQuestion(), domain_id: (await ownCertification(db, stranger)).domainId } }),
  },
  "certifications.questions.delete": { params: question },
  "certifications.import": { params: certification, query: async () => ({ format: "gift" }), body: giftBank },
  "certifications.export": { params: certification, query: async () => ({ format: "moodle_xml" }) },
};
