import { z } from "zod";
import { apiScopes } from "@/lib/kernel/scopes";

export const createApiKeyInput = z.object({
  name: z.string().trim().min(1, "Give the key a name.").max(64, "At most 64 characters."),
  /** Absent or null: full access. Otherwise at least one scope. */
  scopes: z
    .array(z.enum(apiScopes))
    .min(1, "Choose at least one scope, or full access.")
    .transform((scopes) => [...new Set(scopes)])
    .nullish(),
});
export type CreateApiKeyInput = z.output<typeof createApiKeyInput>;

export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()).nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;
