/**
 * API key scopes; they add up, and a key with none (null) has full access to both services.
 * The competition service's four are as its public API documents them; the certification
 * service's three follow the same pattern (read, write, admin — the last for test-result
 * webhooks, /api/v1/test-result-webhooks).
 */
export const apiScopes = ["cert:read", "cert:write", "cert:admin", "ctf:read", "ctf:write", "ctf:deploy", "ctf:admin"] as const;
export type ApiScope = (typeof apiScopes)[number];

export const scopeDescriptions: Record<ApiScope, string> = {
  "cert:read": "Read the catalog (and own certifications' questions, exported in any format), tests with their recipients' links and results, classes and their progress, test-result webhooks and their deliveries",
  "cert:write": "Create and edit own certifications, their domains and questions, import question banks; create tests, send them to more recipients, re-send links; create classes and manage their invitations and students",
  "cert:admin": "Test-result webhooks: register, change, pause, rotate, recover, delete (/api/v1/test-result-webhooks)",
  "ctf:read": "Read competitions, challenges, deployments, members; list webhooks",
  "ctf:write": "Create and update competitions and challenges",
  "ctf:deploy": "Deploy, stop and archive competitions; standalone deployments",
  "ctf:admin": "Members and webhooks",
};

export function hasScope(granted: readonly string[] | null, required: ApiScope | undefined): boolean {
  if (!required || granted === null) return true;
  return granted.includes(required);
}
