import { createApiKey } from "@/lib/platform/keys";
import type { Samples } from "./types";

export const keySamples: Samples = {
  "keys.list": {},
  "keys.create": { body: () => ({ name: "another", scopes: ["ctf:read"] }) },
  // A spare key: revoking the trainer's own would stop its later calls (and the 5-key limit).
  "keys.revoke": {
    params: async ({ db }, trainer) => ({ id: (await createApiKey(db, trainer.workspaceId, { name: "spare" })).key.id }),
  },
};
