import type { Samples } from "./types";

export const workspaceSamples: Samples = {
  "workspace.usage": {},
  "workspace.get": {},
  "workspace.update": { body: () => ({ name: "Acme Training" }) },
  "workspace.welcome": { body: () => ({ your_name: "Ada Lovelace", organisation_name: "Acme Training" }) },
};
