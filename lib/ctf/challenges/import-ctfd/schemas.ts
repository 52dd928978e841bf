import { z } from "zod";

export const importCtfdQuery = z.object({
  dry_run: z
    .enum(["true", "false"], { error: "dry_run must be true or false." })
    .default("false")
    .meta({ description: "true: read and check the archive, report what would be imported, write nothing. false (the default): import." })
    .transform((value) => value === "true"),
});
export type ImportCtfdQuery = z.output<typeof importCtfdQuery>;

const ctfdId = z.number().int().meta({ description: "The challenge's id in the CTFd export (`db/challenges.json`)." });

export const ctfdImportReport = z
  .object({
    dry_run: z.boolean(),
    imported: z
      .array(
        z.object({
          challenge_id: z.string().nullable().meta({ description: "The new draft challenge; null on a dry run." }),
          title: z.string(),
          ctfd_id: ctfdId,
          category: z.string().meta({ description: "Our category it was put in (see `notes` when it is not CTFd's)." }),
          files: z.number().int().meta({ description: "Files carried over with it." }),
          hints: z.number().int().meta({ description: "Hints carried over with it." }),
        }),
      )
      .meta({ description: "Challenges created, as drafts, in the archive's order." }),
    skipped: z
      .array(z.object({ ctfd_id: ctfdId, title: z.string(), reason: z.string() }))
      .meta({ description: "CTFd challenges not imported, each with why (no usable flag)." }),
    notes: z
      .array(z.object({ ctfd_id: ctfdId.nullable(), title: z.string().nullable(), note: z.string() }))
      .meta({ description: "What an imported challenge lost or had changed on the way: a second flag, a linear decay, an unknown type, a category mapped, a file missing from the archive…" }),
  })
  .meta({ id: "CtfdImportReport" });
export type CtfdImportReport = z.infer<typeof ctfdImportReport>;
