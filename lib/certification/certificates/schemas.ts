import { z } from "zod";

export const certificateStatuses = ["valid", "revoked"] as const;
export type CertificateStatus = (typeof certificateStatuses)[number];

/** A certificate as its trainer reads it (and as revoking it answers): the frozen facts and where anyone checks them. */
export const certificateView = z
  .object({
    id: z.string().meta({ description: "The certificate's public, unguessable id (22 URL-safe characters, 128 random bits)." }),
    status: z.enum(certificateStatuses).meta({ description: "valid, or revoked (by the trainer: the verification page then says so, with the date)." }),
    url: z.string().meta({ description: "The public verification page, /certificates/{id}: the same as the result's `certificate_url`." }),
    pdf_url: z.string().meta({ description: "The certificate as a PDF (A4 landscape), /certificates/{id}/pdf." }),
    credential_url: z.string().meta({
      description: "The Open Badges 3.0 AchievementCredential as a VC-JWT (application/vc+jwt), /certificates/{id}/credential; it verifies against /.well-known/jwks.json.",
    }),
    recipient_name: z.string().meta({ description: "The name printed on it, as it was at issue (the recipient's name; their e-mail address is never shown)." }),
    test_name: z.string(),
    certification: z.string().meta({ description: "The certification's name as it was at issue." }),
    score: z.number().meta({ description: "The result's percent." }),
    organisation: z.string().meta({ description: "The issuer: the workspace's organisation name at issue (its name when none was set)." }),
    signer: z.string().meta({ description: "Who signs it (the workspace's certificate_signer at issue); empty: none printed." }),
    issued_at: z.string().meta({ description: "When it was issued: the attempt's completion." }),
    revoked_at: z.string().nullable().meta({ description: "When it was revoked; null while valid." }),
  })
  .meta({ id: "Certificate" });
export type CertificateView = z.infer<typeof certificateView>;
