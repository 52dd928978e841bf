import { z } from "zod";
import { contract, prefixedParam } from "@/lib/kernel/contract";
import { apiKeyView, createApiKeyInput } from "./schemas";

const tag = "Dashboard: API keys";

/** API-key management: dashboard-only (a key cannot mint or revoke keys). */
export const keyContracts = {
  list: contract({
    id: "keys.list",
    method: "GET",
    path: "/api/app/keys",
    caller: "session",
    status: 200,
    response: z.object({ data: z.array(apiKeyView) }),
    docs: { tag, summary: "List the workspace's API keys", description: "Never their secrets: the visible prefix, scopes, last use, revocation." },
  }),
  create: contract({
    id: "keys.create",
    method: "POST",
    path: "/api/app/keys",
    caller: "session",
    body: createApiKeyInput,
    status: 201,
    response: z.object({ key: apiKeyView, secret: z.string().meta({ description: "Shown in this response only." }) }),
    docs: { tag, summary: "Create an API key", description: "Full access, or chosen scopes; at most 5 active (409).", errors: [409] },
  }),
  revoke: contract({
    id: "keys.revoke",
    method: "DELETE",
    path: "/api/app/keys/{id}",
    caller: "session",
    params: z.object({ id: prefixedParam("key", "API key") }),
    status: 200,
    response: apiKeyView,
    docs: { tag, summary: "Revoke an API key", description: "At once: its very next request is a 401." },
  }),
};
