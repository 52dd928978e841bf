import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for a CTFd instance's REST API (`/api/v1`), as CTFd documents it:
 * admin API tokens go in `Authorization: Token <token>` with `Content-Type: application/json`;
 * every answer is JSON with `success`, and `data` on success. It keeps challenges, flags and
 * hints in memory and records every call. It can be told to fail: answer 500 to everything,
 * fail only some routes, or go down (the port closed: connection refused) and come back.
 */

export type CtfdChallenge = {
  id: number;
  name: string;
  category: string;
  description: string;
  value: number;
  type: string;
  state: "visible" | "hidden" | "locked";
  deleted?: boolean;
};
export type CtfdFlag = { id: number; challenge_id: number; type: string; content: string; data: string };
export type CtfdHint = { id: number; challenge_id: number; content: string; cost: number; type: string };

export type CtfdCall = {
  method: string;
  /** Path without the query string, e.g. /api/v1/challenges/3. */
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  contentType: string | undefined;
  body: any;
  /** Status the fake answered. */
  status: number;
};

export type FakeCtfdMode = "ok" | "error" | "down";

export type FakeCtfd = {
  url: string;
  token: string;
  calls: CtfdCall[];
  challenges: CtfdChallenge[];
  flags: CtfdFlag[];
  hints: CtfdHint[];
  /** Calls that reached a route (authorised, not failed on purpose). */
  callsTo(method: string, path: string | RegExp): CtfdCall[];
  mode(): FakeCtfdMode;
  /** ok: serve; error: 500 to everything; down: close the port (connection refused). */
  setMode(mode: FakeCtfdMode): Promise<void>;
  /** Answer 500 to these routes only ("POST /api/v1/flags"), until called again with []. */
  failRoutes(routes: string[]): void;
  close(): Promise<void>;
};

type Reply = { status: number; body: unknown };

export async function startFakeCtfd(options: { token?: string } = {}): Promise<FakeCtfd> {
  const token = options.token ?? "ctfd_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  const calls: CtfdCall[] = [];
  const challenges: CtfdChallenge[] = [];
  const flags: CtfdFlag[] = [];
  const hints: CtfdHint[] = [];
  let ids = { challenge: 0, flag: 0, hint: 0 };
  let mode: FakeCtfdMode = "ok";
  let failing = new Set<string>();

  function route(method: string, path: string, body: any): Reply {
    if (method === "GET" && path === "/api/v1/challenges") {
      return { status: 200, body: { success: true, data: challenges.filter((c) => !c.deleted).map(({ deleted: _deleted, ...c }) => c) } };
    }
    if (method === "POST" && path === "/api/v1/challenges") {
      const errors: Record<string, string[]> = {};
      for (const field of ["name", "category", "type"]) if (typeof body?.[field] !== "string" || !body[field]) errors[field] = ["Missing data for required field."];
      if (!Number.isInteger(body?.value)) errors.value = ["Not a valid integer."];
      if (body?.state !== undefined && !["visible", "hidden", "locked"].includes(body.state)) errors.state = ["Invalid state."];
      if (Object.keys(errors).length) return { status: 400, body: { success: false, errors } };
      const challenge: CtfdChallenge = {
        id: ++ids.challenge,
        name: body.name,
        category: body.category,
        description: body.description ?? "",
        value: body.value,
        type: body.type,
        state: body.state ?? "visible",
      };
      challenges.push(challenge);
      return { status: 200, body: { success: true, data: challenge } };
    }
    const one = path.match(/^\/api\/v1\/challenges\/(\d+)$/);
    if (one) {
      const challenge = challenges.find((c) => c.id === Number(one[1]) && !c.deleted);
      if (!challenge) return { status: 404, body: { success: false, message: "The requested URL was not found on the server." } };
      if (method === "GET") return { status: 200, body: { success: true, data: challenge } };
      if (method === "PATCH") {
        if (body?.state !== undefined && !["visible", "hidden", "locked"].includes(body.state)) return { status: 400, body: { success: false, errors: { state: ["Invalid state."] } } };
        for (const field of ["name", "category", "description", "value", "state"] as const) if (body?.[field] !== undefined) (challenge as any)[field] = body[field];
        return { status: 200, body: { success: true, data: challenge } };
      }
      if (method === "DELETE") {
        challenge.deleted = true;
        return { status: 200, body: { success: true } };
      }
    }
    if (method === "POST" && (path === "/api/v1/flags" || path === "/api/v1/hints")) {
      const challengeId = Number(body?.challenge ?? body?.challenge_id);
      if (!challenges.some((c) => c.id === challengeId && !c.deleted)) return { status: 400, body: { success: false, errors: { challenge: ["Challenge not found."] } } };
      if (typeof body?.content !== "string" || !body.content) return { status: 400, body: { success: false, errors: { content: ["Missing data for required field."] } } };
      if (path === "/api/v1/flags") {
        const flag: CtfdFlag = { id: ++ids.flag, challenge_id: challengeId, type: body.type ?? "static", content: body.content, data: body.data ?? "" };
        flags.push(flag);
        return { status: 200, body: { success: true, data: flag } };
      }
      const hint: CtfdHint = { id: ++ids.hint, challenge_id: challengeId, content: body.content, cost: Number(body.cost ?? 0), type: "standard" };
      hints.push(hint);
      return { status: 200, body: { success: true, data: hint } };
    }
    return { status: 404, body: { success: false, message: "The requested URL was not found on the server." } };
  }

  function handle(req: http.IncomingMessage, raw: string): Reply {
    const method = req.method ?? "GET";
    const path = new URL(req.url ?? "/", "http://ctfd.local").pathname;
    if (mode === "error") return { status: 500, body: { success: false, message: "Internal Server Error" } };
    const authorization = req.headers.authorization;
    if (!authorization) return { status: 401, body: { success: false, message: "You must be logged in to access this endpoint." } };
    if (authorization !== `Token ${token}`) return { status: 403, body: { success: false, errors: { "": ["Invalid access token"] } } };
    if (!String(req.headers["content-type"] ?? "").startsWith("application/json")) {
      return { status: 400, body: { success: false, errors: { "": ["API tokens require Content-Type: application/json"] } } };
    }
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return { status: 400, body: { success: false, errors: { "": ["Invalid JSON"] } } };
    }
    if (failing.has(`${method} ${path}`)) return { status: 500, body: { success: false, message: "Internal Server Error" } };
    return route(method, path, body);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const reply = handle(req, raw);
      const url = new URL(req.url ?? "/", "http://ctfd.local");
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // recorded as the raw text
      }
      calls.push({
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        authorization: req.headers.authorization,
        contentType: req.headers["content-type"],
        body,
        status: reply.status,
      });
      res.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify(reply.body));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  async function down(): Promise<void> {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  async function up(): Promise<void> {
    if (server.listening) return;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  }

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    calls,
    challenges,
    flags,
    hints,
    callsTo(method, path) {
      return calls.filter((call) => call.method === method && (typeof path === "string" ? call.path === path : path.test(call.path)) && call.status < 500 && call.status !== 401 && call.status !== 403);
    },
    mode: () => mode,
    async setMode(next) {
      mode = next;
      if (next === "down") await down();
      else await up();
    },
    failRoutes(routes) {
      failing = new Set(routes);
    },
    async close() {
      await down();
      ids = { challenge: 0, flag: 0, hint: 0 };
    },
  };
}
