import { z } from "zod";
import { correctProblems, questionType } from "./question-type";
import { storableText } from "@/lib/kernel/fields";
import { pageSchema, pagingQuery } from "@/lib/kernel/paging";

export const listCertificationsQuery = pagingQuery.extend({
  vendor: storableText().trim().max(100).optional().meta({ description: "Exact vendor name, case-insensitive." }),
  search: storableText()
    .trim()
    .max(100)
    .optional()
    .meta({ description: "Words found in the name, exam code, vendor or description." }),
});
export type ListCertificationsQuery = z.output<typeof listCertificationsQuery>;

export const domainView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    questions: z.number().int().meta({ description: "Questions available in the domain." }),
  })
  .meta({ id: "Domain" });
export type DomainView = z.infer<typeof domainView>;

export const certificationSummary = z
  .object({
    id: z.number().int(),
    vendor: z.string(),
    code: z.string(),
    name: z.string(),
    description: z.string(),
    own: z.boolean().meta({ description: "True for the caller's own certifications, false for the shared catalog." }),
    domains: z.number().int().meta({ description: "Number of domains." }),
    questions: z.number().int().meta({ description: "Questions available across all domains." }),
  })
  .meta({ id: "CertificationSummary" });
export type CertificationSummary = z.infer<typeof certificationSummary>;

export const certificationDetail = certificationSummary
  .omit({ domains: true })
  .extend({ domains: z.array(domainView) })
  .meta({ id: "Certification" });
export type CertificationDetail = z.infer<typeof certificationDetail>;

export const certificationList = pageSchema(certificationSummary).meta({ id: "CertificationList" });
export const domainList = z.object({ data: z.array(domainView) }).meta({ id: "DomainList" });

const optionIndex = z.number().int().min(0).max(7);
const questionInput = z
  .object({
    prompt: z.string().trim().min(1).max(2000),
    options: z.array(z.string().trim().min(1).max(500)).min(2).max(8),
    type: questionType,
    correct: z
      .union([optionIndex, z.array(optionIndex).max(8)])
      .meta({ description: "`single`: the index of the right option. `multiple`: the indexes of the right options (2 or more, fewer than the options)." }),
    explanation: z.string().trim().max(2000).default(""),
  })
  .superRefine((question, ctx) => {
    for (const message of correctProblems(question.type, question.correct, question.options.length)) {
      ctx.addIssue({ code: "custom", path: ["correct"], message });
    }
  });

/** A workspace's own certification with its domains (and, optionally, questions). */
export const createCertificationInput = z.object({
  name: z.string().trim().min(1).max(200),
  vendor: z.string().trim().min(1).max(100),
  code: z.string().trim().max(50).default(""),
  description: z.string().trim().max(2000).default(""),
  domains: z
    .array(z.object({ name: z.string().trim().min(1).max(200), questions: z.array(questionInput).max(1000).default([]) }))
    .min(1)
    .max(50),
});
export type CreateCertificationInput = z.output<typeof createCertificationInput>;
