import { contract, intParam } from "@/lib/kernel/contract";
import { certificationDetail, domainView } from "@/lib/certification/catalog/schemas";
import { bankMediaTypes } from "./formats/types";
import {
  domainNameInput,
  domainParams,
  exportQuery,
  importQuery,
  importReport,
  listQuestionsQuery,
  newCertificationInput,
  patchCertificationInput,
  patchQuestionInput,
  questionInput,
  questionList,
  questionParams,
  questionView,
} from "./schemas";
import { z } from "zod";

const certification = z.object({ id: intParam("Certification") });
const tag = "Own certifications";
const ownOnly = "Own certifications only: a catalog certification, or another workspace's, is 404.";

/** Bytes of one imported file: room for 2000 questions with long texts. */
export const MAX_BANK_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The workspace's own certifications, their domains and questions, and their question banks
 * in and out (docs/question-banks.md). The catalog's reads are ../catalog/contracts.ts; the
 * dashboard's editor calls these same routes.
 */
export const ownCertificationContracts = {
  create: contract({
    id: "certifications.create",
    method: "POST",
    path: "/api/v1/certifications",
    caller: "workspace",
    scope: "cert:write",
    body: newCertificationInput,
    status: 201,
    response: certificationDetail,
    docs: { tag, summary: "Create an own certification", description: "Name, vendor, optional code and description, and optionally the names of its first domains." },
  }),
  update: contract({
    id: "certifications.update",
    method: "PATCH",
    path: "/api/v1/certifications/{id}",
    caller: "workspace",
    scope: "cert:write",
    params: certification,
    body: patchCertificationInput,
    status: 200,
    response: certificationDetail,
    docs: { tag, summary: "Edit an own certification", description: `Name, vendor, code, description: what is sent changes. ${ownOnly}` },
  }),
  remove: contract({
    id: "certifications.delete",
    method: "DELETE",
    path: "/api/v1/certifications/{id}",
    caller: "workspace",
    scope: "cert:write",
    params: certification,
    status: 204,
    docs: {
      tag,
      summary: "Delete an own certification",
      description:
        "One no test or class uses is removed with its domains and questions. One that tests or classes use is retired: it leaves the catalog (404 from then on, " +
        "no new tests or classes), while its tests, their results and its classes stay as they are (tests hold frozen copies of their questions). " +
        ownOnly,
    },
  }),
  addDomain: contract({
    id: "certifications.domains.create",
    method: "POST",
    path: "/api/v1/certifications/{id}/domains",
    caller: "workspace",
    scope: "cert:write",
    params: certification,
    body: domainNameInput,
    status: 201,
    response: domainView,
    docs: { tag, summary: "Add a domain", description: `At the end; a name the certification already has (any case) is a 422. At most 50 domains. ${ownOnly}` },
  }),
  renameDomain: contract({
    id: "certifications.domains.update",
    method: "PATCH",
    path: "/api/v1/certifications/{id}/domains/{domain_id}",
    caller: "workspace",
    scope: "cert:write",
    params: domainParams,
    body: domainNameInput,
    status: 200,
    response: domainView,
    docs: { tag, summary: "Rename a domain", description: `Tests already sent keep the old name. ${ownOnly}` },
  }),
  questions: contract({
    id: "certifications.questions.list",
    method: "GET",
    path: "/api/v1/certifications/{id}/questions",
    caller: "workspace",
    scope: "cert:read",
    params: certification,
    query: listQuestionsQuery,
    status: 200,
    response: questionList,
    docs: { tag, summary: "List an own certification's questions", description: `With their right answers and explanations, in domain order. ${ownOnly} The shared catalog's answers stay hidden.` },
  }),
  addQuestion: contract({
    id: "certifications.questions.create",
    method: "POST",
    path: "/api/v1/certifications/{id}/domains/{domain_id}/questions",
    caller: "workspace",
    scope: "cert:write",
    params: domainParams,
    body: questionInput,
    status: 201,
    response: questionView,
    docs: { tag, summary: "Add a question to a domain", description: `A single (one right option) or multiple (choose 2 or more) question. ${ownOnly}` },
  }),
  updateQuestion: contract({
    id: "certifications.questions.update",
    method: "PATCH",
    path: "/api/v1/certifications/{id}/questions/{question_id}",
    caller: "workspace",
    scope: "cert:write",
    params: questionParams,
    body: patchQuestionInput,
    status: 200,
    response: questionView,
    docs: { tag, summary: "Edit a question", description: `What is sent replaces the stored field; \`domain_id\` moves it. Tests already sent keep their copy. ${ownOnly}` },
  }),
  deleteQuestion: contract({
    id: "certifications.questions.delete",
    method: "DELETE",
    path: "/api/v1/certifications/{id}/questions/{question_id}",
    caller: "workspace",
    scope: "cert:write",
    params: questionParams,
    status: 204,
    docs: { tag, summary: "Delete a question", description: `Tests already sent keep their copy. ${ownOnly}` },
  }),
  import: contract({
    id: "certifications.import",
    method: "POST",
    path: "/api/v1/certifications/{id}/import",
    caller: "workspace",
    scope: "cert:write",
    params: certification,
    query: importQuery,
    textFile: {
      field: "file",
      description: "The question bank, UTF-8 (CSV, GIFT, Moodle XML or Aiken, as `format` says).",
      mediaTypes: ["text/plain", "text/csv", "application/xml"],
    },
    maxBodyBytes: MAX_BANK_FILE_BYTES,
    status: 200,
    response: importReport,
    docs: {
      tag,
      summary: "Import questions from a file",
      description:
        "The file as the body, or as the part `file` of multipart/form-data. Every question the file holds that we can deliver is imported; each item that is not " +
        "is listed in `skipped` with its line and why. A file that cannot be read (broken XML, an unclosed GIFT brace, a wrong CSV header) imports nothing: " +
        "422 naming the line. Categories become domains (made when missing). `dry_run=true` reports without writing. At most 2000 questions and 4 MB per file. " +
        ownOnly,
    },
  }),
  export: contract({
    id: "certifications.export",
    method: "GET",
    path: "/api/v1/certifications/{id}/export",
    caller: "workspace",
    scope: "cert:read",
    params: certification,
    query: exportQuery,
    status: 200,
    produces: [...new Set(Object.values(bankMediaTypes))],
    docs: {
      tag,
      summary: "Export the questions as a file",
      description:
        "Every question, in the chosen format, as an attachment; importing it again gives the same questions. Aiken holds neither domains, explanations nor " +
        "multiple-response questions: those questions are left out, and `X-Questions-Left-Out` counts them (0 for the other formats). " +
        ownOnly,
    },
  }),
};
