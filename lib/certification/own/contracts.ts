import { z } from "zod";
import { contract, intParam } from "@/lib/kernel/contract";
import { questionView, domainNameInput, importCsvInput, newCertificationInput, questionInput, updateCertificationInput } from "./schemas";
import { certificationDetail, domainView } from "@/lib/certification/catalog/schemas";

const certification = z.object({ id: intParam("Certification") });
const domain = z.object({ domain_id: intParam("Domain") });
const question = z.object({ question_id: intParam("Question") });
const tag = "Dashboard: own certifications";

/** Editing the workspace's own certifications: dashboard-only (the API reads certifications, it does not edit them). */
export const manageCertificationContracts = {
  create: contract({
    id: "myCertifications.create",
    method: "POST",
    path: "/api/app/my-certifications",
    caller: "session",
    body: newCertificationInput,
    status: 201,
    response: certificationDetail,
    docs: { tag, summary: "Create an own certification", description: "Name, vendor, code, description and the names of its domains." },
  }),
  get: contract({
    id: "myCertifications.get",
    method: "GET",
    path: "/api/app/my-certifications/{id}",
    caller: "session",
    params: certification,
    status: 200,
    response: certificationDetail,
    docs: { tag, summary: "Read an own certification", description: "With its domains; a catalog certification is 404 here." },
  }),
  update: contract({
    id: "myCertifications.update",
    method: "PATCH",
    path: "/api/app/my-certifications/{id}",
    caller: "session",
    params: certification,
    body: updateCertificationInput,
    status: 200,
    response: certificationDetail,
    docs: { tag, summary: "Edit an own certification", description: "Name, vendor, code, description." },
  }),
  questions: contract({
    id: "myCertifications.questions",
    method: "GET",
    path: "/api/app/my-certifications/{id}/questions",
    caller: "session",
    params: certification,
    status: 200,
    response: z.object({ data: z.array(questionView) }),
    docs: { tag, summary: "Every question of an own certification", description: "In domain order." },
  }),
  addDomain: contract({
    id: "myCertifications.domains.add",
    method: "POST",
    path: "/api/app/my-certifications/{id}/domains",
    caller: "session",
    params: certification,
    body: domainNameInput,
    status: 201,
    response: domainView,
    docs: { tag, summary: "Add a domain" },
  }),
  importCsv: contract({
    id: "myCertifications.import",
    method: "POST",
    path: "/api/app/my-certifications/{id}/import",
    caller: "session",
    params: certification,
    body: importCsvInput,
    status: 201,
    response: z.object({ imported: z.number().int(), created_domains: z.array(z.string()) }),
    docs: { tag, summary: "Import questions from CSV", description: "`{ csv }`: all or nothing; 422 lists `rows.<n>.<column>`. The correct column is one option (`B`, or `2`) or, for a multiple-response question, two or more joined by `;` (`A;C`)." },
  }),
  renameDomain: contract({
    id: "myCertifications.domains.rename",
    method: "PATCH",
    path: "/api/app/my-certifications/domains/{domain_id}",
    caller: "session",
    params: domain,
    body: domainNameInput,
    status: 200,
    response: domainView,
    docs: { tag, summary: "Rename a domain" },
  }),
  addQuestion: contract({
    id: "myCertifications.questions.add",
    method: "POST",
    path: "/api/app/my-certifications/domains/{domain_id}/questions",
    caller: "session",
    params: domain,
    body: questionInput,
    status: 201,
    response: questionView,
    docs: { tag, summary: "Add a question to a domain" },
  }),
  updateQuestion: contract({
    id: "myCertifications.questions.update",
    method: "PATCH",
    path: "/api/app/my-certifications/questions/{question_id}",
    caller: "session",
    params: question,
    body: questionInput,
    status: 200,
    response: questionView,
    docs: { tag, summary: "Replace a question", description: "Tests already sent keep their copy." },
  }),
  deleteQuestion: contract({
    id: "myCertifications.questions.delete",
    method: "DELETE",
    path: "/api/app/my-certifications/questions/{question_id}",
    caller: "session",
    params: question,
    status: 204,
    docs: { tag, summary: "Delete a question" },
  }),
};
