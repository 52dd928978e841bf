import { listQuestions } from "@/lib/certification/own/manage";
import type { Db } from "@/db";
import type { Trainer } from "../fixtures";
import { ownCertification } from "./common";
import type { Samples } from "./types";

const certification = ({ db }: { db: Db }, trainer: Trainer) => ownCertification(db, trainer).then(({ id }) => ({ id: String(id) }));
const domain = ({ db }: { db: Db }, trainer: Trainer) => ownCertification(db, trainer).then(({ domainId }) => ({ domain_id: String(domainId) }));
const question = async ({ db }: { db: Db }, trainer: Trainer) => {
  const { id } = await ownCertification(db, trainer);
  return { question_id: String((await listQuestions(db, trainer.workspaceId, id))[0].id) };
};
const newQuestion = () => ({ prompt: "5 + 5?", options: ["10", "11"], correct: 0, explanation: "" });

export const certificationSamples: Samples = {
  "certifications.list": {},
  "certifications.get": { params: certification },
  "certifications.domains": { params: certification },
  "myCertifications.create": { body: () => ({ name: "Own", vendor: "Acme", code: "", description: "", domains: ["Basics"] }) },
  "myCertifications.get": { params: certification },
  "myCertifications.update": { params: certification, body: () => ({ name: "Renamed", vendor: "Acme", code: "A1", description: "" }) },
  "myCertifications.questions": { params: certification },
  "myCertifications.domains.add": { params: certification, body: () => ({ name: "Advanced" }) },
  "myCertifications.import": { params: certification, body: () => ({ csv: "domain,question,option_a,option_b,option_c,option_d,correct,explanation\nBasics,Q?,a,b,,,a,\n" }) },
  "myCertifications.domains.rename": { params: domain, body: () => ({ name: "Renamed domain" }) },
  "myCertifications.questions.add": { params: domain, body: newQuestion },
  "myCertifications.questions.update": { params: question, body: newQuestion },
  "myCertifications.questions.delete": { params: question },
};
