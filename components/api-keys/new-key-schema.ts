import { z } from "zod";
import { checkedBy } from "@/components/forms/checked-by";
import { createApiKeyInput, type CreateApiKeyInput } from "@/lib/platform/keys/schemas";

/**
 * The new-key form: a name, full access or chosen scopes. Full access is `scopes: null` in
 * the body of `POST /api/app/keys`, which the contract's own schema then checks (a key of
 * chosen scopes needs at least one).
 */
const newKeyValues = z.object({ name: z.string(), access: z.enum(["full", "scopes"]), scopes: z.array(z.string()) });

export const newKeySchema = newKeyValues
  .transform((values): CreateApiKeyInput => ({ name: values.name, scopes: values.access === "full" ? null : (values.scopes as CreateApiKeyInput["scopes"]) }))
  .superRefine(checkedBy(createApiKeyInput));
