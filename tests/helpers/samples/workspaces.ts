import type { Samples } from "./types";

export const workspaceSamples: Samples = { "workspace.usage": {} };
