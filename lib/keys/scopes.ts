/** Scopes as the competition service documents them; they add up. Null scopes = full access. */
export const apiScopes = ["ctf:read", "ctf:write", "ctf:deploy", "ctf:admin"] as const;
export type ApiScope = (typeof apiScopes)[number];

export const scopeDescriptions: Record<ApiScope, string> = {
  "ctf:read": "Read competitions, challenges, deployments, members; list webhooks",
  "ctf:write": "Create and update competitions and challenges",
  "ctf:deploy": "Deploy, stop and archive competitions; standalone deployments",
  "ctf:admin": "Members and webhooks",
};

export function hasScope(granted: readonly string[] | null, required: ApiScope | undefined): boolean {
  if (!required || granted === null) return true;
  return granted.includes(required);
}
