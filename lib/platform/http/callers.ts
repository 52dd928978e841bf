import type { Database, Db } from "@/db";
import type { Workspace } from "@/db/schema";
import { requireWorkspace, type SessionUser } from "@/lib/platform/auth/session";
import { AppError } from "@/lib/kernel/errors";
import { hasScope } from "@/lib/kernel/scopes";
import { hashApiKey, readApiKey } from "@/lib/platform/keys/secret";
import { postgresLimiter, RATE_LIMIT, type Admission, type RateState, type RequestLimiter } from "@/lib/platform/ratelimit";
import { clientAddress } from "@/lib/platform/ratelimit/client-ip";
import { admitSessionRequest, SESSION_RATE_LIMIT } from "@/lib/platform/ratelimit/session";
import type { AnyContract, CallerKind } from "@/lib/kernel/contract";
import { requireSameOrigin } from "./same-origin";
import { readCookie } from "./cookies";

/** The caller of a workspace route: an API key, or a signed-in user of the dashboard. */
export type WorkspaceCaller =
  | { kind: "key"; key: Admission["key"] }
  | { kind: "session"; user: SessionUser; workspace: Workspace };

/**
 * The players a product signs in by cookie, by caller kind: the platform knows their kinds,
 * not their types (lib/registry/handle.ts names them).
 */
export type Players = { player: unknown; deployment_player: unknown };

/**
 * How a player kind is signed in: the path parameter naming its competition or deployment,
 * the cookie named after it, the lookup of the cookie's player, and the refusal's message.
 * The products hand these in (lib/ctf/play/caller.ts, lib/ctf/deployments/caller.ts).
 */
export type PlayerCaller<P> = {
  param: string;
  cookieName: (id: string) => string;
  find: (db: Db, id: string, token: string | undefined) => Promise<P | null>;
  refusal: string;
};
export type PlayerCallers<P extends Players> = { [K in keyof Players]: PlayerCaller<P[K]> };

/** What each caller kind adds to a handler's context. */
type CallerContexts<P extends Players> = {
  workspace: { workspaceId: string; caller: WorkspaceCaller };
  session: { workspaceId: string; user: SessionUser; workspace: Workspace };
  recipient: Record<never, never>;
  player: { clientIp: string; player: P["player"] };
  deployment_player: { clientIp: string; player: P["deployment_player"] };
  public: { clientIp: string };
  provider: Record<never, never>;
};
export type CallerOf<K extends CallerKind, P extends Players = Players> = CallerContexts<P>[K];

/** An admitted caller: its context, and what the response and the log say about it. */
export type Admitted = { kind: string; context: Record<string, unknown>; rate?: RateState; keyPrefix?: string };

/** `params`: the path's raw values (a player's cookie is per competition, named by `ctf_id`). */
type Admit = { database: Database; req: Request; contract: AnyContract; params: Record<string, string | string[]> };

export type Admitters = Record<CallerKind, (admit: Admit) => Promise<Admitted>>;

/** The admission of every caller kind, the products' players signed in by `players`. */
export function callerAdmitters(players: PlayerCallers<Players>): Admitters {
  return {
    ...admitters,
    // The cookie of the competition in the path (lib/ctf/play/caller.ts); another competition's cookie signs nobody in.
    player: cookiePlayer("player", players.player),
    // The cookie of the standalone deployment in the path (lib/ctf/deployments/caller.ts); another deployment's signs nobody in.
    deployment_player: cookiePlayer("deployment_player", players.deployment_player),
  };
}

/** Admits the caller the endpoint's contract names, or throws (401, 403, 429). */
export function admitCaller(kind: CallerKind, admit: Admit, admitters: Admitters): Promise<Admitted> {
  return admitters[kind](admit);
}

const admitters: Omit<Admitters, "player" | "deployment_player"> = {
  /** An API key when the request carries one; otherwise the dashboard's session. */
  async workspace(admit) {
    if (readApiKey(admit.req.headers)) return admitApiKey(admit);
    const session = await admitSession(admit, { allowAnonymous: true });
    if (session) return session;
    throw new AppError("unauthorized", "Missing API key: send it as X-API-KEY or Authorization: Bearer <key>.");
  },
  async session(admit) {
    return (await admitSession(admit, { allowAnonymous: false }))!;
  },
  // The token in the path is the capability; the domain function checks it.
  async recipient() {
    return { kind: "recipient", context: {} };
  },
  // Only our own pages post here: another site cannot make visitors' browsers send mail.
  async public({ req }) {
    requireSameOrigin(req);
    return { kind: "public", context: { clientIp: clientAddress(req.headers) } };
  },
  // Server to server: the handler checks the provider's signature over the raw body.
  async provider() {
    return { kind: "provider", context: {} };
  },
};

/**
 * A player signed in by a cookie named after the competition or deployment in the path
 * (`param`); a change must come from our own pages, as the cookie travels with any request.
 */
function cookiePlayer(kind: "player" | "deployment_player", { param, cookieName, find, refusal }: PlayerCaller<unknown>) {
  return async ({ database, req, params }: Admit): Promise<Admitted> => {
    requireSameOrigin(req);
    const id = typeof params[param] === "string" ? params[param] : "";
    const player = await find(database.db, id, readCookie(req.headers.get("cookie"), cookieName(id)));
    if (!player) throw new AppError("unauthorized", refusal);
    return { kind, context: { clientIp: clientAddress(req.headers), player } };
  };
}

// --- API keys: admission (key check and both rate-limit logs in one round trip) → scope.

const limiters = new WeakMap<Database, RequestLimiter>();

function limiterFor(database: Database): RequestLimiter {
  let limiter = limiters.get(database);
  if (!limiter) limiters.set(database, (limiter = postgresLimiter(database)));
  return limiter;
}

async function admitApiKey({ database, req, contract }: Admit): Promise<Admitted> {
  const admission = await limiterFor(database).admit(hashApiKey(readApiKey(req.headers)!), { creation: contract.creation === true });
  if (!admission) throw new AppError("unauthorized", "The API key is unknown or has been revoked.");
  const admitted: Admitted = {
    kind: "key",
    context: { workspaceId: admission.key.workspaceId, caller: { kind: "key", key: admission.key } satisfies WorkspaceCaller },
    rate: admission.rate,
    keyPrefix: admission.key.prefix,
  };
  if (!admission.allowed) {
    const what = admission.limitedBy === "creations" ? `at most ${RATE_LIMIT.creations} creations` : `at most ${RATE_LIMIT.requests} requests`;
    throw withAdmitted(
      new AppError(
        "rate_limit_exceeded",
        `Rate limit exceeded: ${what} per ${RATE_LIMIT.windowMs / 1000} seconds per API key. Retry after ${admission.retryAfter} s.`,
        { retryAfter: admission.retryAfter },
      ),
      admitted,
    );
  }
  if (!hasScope(admission.key.scopes, contract.scope)) {
    throw withAdmitted(new AppError("forbidden", `This API key lacks the ${contract.scope} scope.`), admitted);
  }
  return admitted;
}

// --- Sessions: same origin (changes) → the signed-in user's workspace → the user's own bucket (changes).

async function admitSession({ database, req }: Admit, options: { allowAnonymous: boolean }): Promise<Admitted | undefined> {
  let signedIn;
  try {
    signedIn = await requireWorkspace();
  } catch (error) {
    // Nobody signed in: an integrator without a key is told about the key, not about origins.
    if (options.allowAnonymous && error instanceof AppError && error.code === "unauthorized") return undefined;
    throw error;
  }
  // A session cookie travels with any request the browser sends: a change must come from our own pages.
  requireSameOrigin(req);
  const { user, workspace } = signedIn;
  const admitted: Admitted = { kind: "session", context: { workspaceId: workspace.id, user, workspace, caller: { kind: "session", user, workspace } } };
  if (isChange(req)) {
    const admission = await admitSessionRequest(database.db, user.id);
    admitted.rate = admission.rate;
    if (!admission.allowed) {
      throw withAdmitted(
        new AppError(
          "rate_limit_exceeded",
          `Rate limit exceeded: at most ${SESSION_RATE_LIMIT.requests} changes per ${SESSION_RATE_LIMIT.windowMs / 1000} seconds per signed-in user. Retry after ${admission.retryAfter} s.`,
          { retryAfter: admission.retryAfter },
        ),
        admitted,
      );
    }
  }
  return admitted;
}

/**
 * Only changes count against a user's bucket: they are what sends mail, webhooks and
 * outbound calls. Reads are not limited: the dashboard polls every 1.5–5 s while something
 * is in progress, and a read changes nothing outside the database.
 */
function isChange(req: Request): boolean {
  return req.method !== "GET" && req.method !== "HEAD" && req.method !== "OPTIONS";
}

// A refusal after the caller was known still carries its rate-limit headers and log fields.
const admittedOf = new WeakMap<AppError, Admitted>();

function withAdmitted(error: AppError, admitted: Admitted): AppError {
  admittedOf.set(error, admitted);
  return error;
}

/** The caller a refusal was raised for, if it was known by then. */
export function admittedBy(error: unknown): Admitted | undefined {
  return error instanceof AppError ? admittedOf.get(error) : undefined;
}
