import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for a CTFd instance's REST API (`/api/v1`), as CTFd documents it:
 * admin API tokens go in `Authorization: Token <token>` with `Content-Type: application/json`;
 * every answer is JSON with `success`, and `data` on success. It keeps challenges (standard or
 * dynamic, with their attempt cap and prerequisites), flags, hints, tags and the configs set by
 * `PATCH /api/v1/configs` in memory, and users with their submissions (solves) and awards (hint unlocks) for
 * the reads of the scoreboard (`/api/v1/scoreboard`, a challenge's solves, a user, the
 * submissions' counts), and challenge files uploaded as CTFd 3.6+ takes them (`POST /api/v1/files`,
 * `multipart/form-data` with the token, parsed by the runtime's own `Request.formData()`),
 * served at `/files/{location}` and deleted by `DELETE /api/v1/files/{id}` or with their
 * challenge, and records every call. It can be told to fail: answer 500 to everything,
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
  /** Wrong submissions allowed per account; 0: unlimited (CTFd's default). */
  max_attempts?: number;
  /** CTFd's prerequisites: the ids of the challenges an account must have solved first. */
  requirements?: { prerequisites: number[] } | null;
  /** The dynamic type's parameters (CTFd's dynamic_challenges plugin), absent on a standard challenge. */
  initial?: number;
  minimum?: number;
  decay?: number;
  function?: string;
  deleted?: boolean;
};
export type CtfdTag = { id: number; challenge_id: number; value: string };
export type CtfdFlag = { id: number; challenge_id: number; type: string; content: string; data: string };
/** A file uploaded to a challenge: `location` is `{32 hex}/{the name as werkzeug's secure_filename leaves it}`, as CTFd stores it. */
export type CtfdFile = { id: number; type: string; location: string; challenge_id: number | null; sha1sum: string; bytes: Buffer; contentType: string };
export type CtfdHint = { id: number; challenge_id: number; content: string; cost: number; type: string };
/** A CTFd user (user mode: a user is an account). Hidden and banned users are left off the public reads. */
export type CtfdUser = { id: number; name: string; email: string; hidden: boolean; banned: boolean };
export type CtfdSubmission = { id: number; challenge_id: number; user_id: number; type: "correct" | "incorrect"; provided: string; date: Date };
/** An award: CTFd records a hint unlock as one worth minus the hint's cost. */
export type CtfdAward = { id: number; user_id: number; name: string; value: number; category: string; date: Date };

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
  tags: CtfdTag[];
  /** The instance's configs as set by `PATCH /api/v1/configs` (CTFd keeps every value as a string). */
  configs: Record<string, string>;
  files: CtfdFile[];
  users: CtfdUser[];
  submissions: CtfdSubmission[];
  awards: CtfdAward[];
  /** Registers a user, as one signing up on the CTFd instance would. */
  addUser(user: { name: string; email: string; hidden?: boolean; banned?: boolean }): CtfdUser;
  /**
   * A user submits a flag, checked as CTFd checks it (static: equal, or equal ignoring case
   * with data `case_insensitive`; regex: the pattern matches the whole submission, ignoring
   * case with that data): a correct one is a solve, once.
   */
  attempt(userId: number, challengeId: number, provided: string, at?: Date): "correct" | "incorrect" | "already_solved";
  /** A user unlocks a hint: an award of minus its cost, as CTFd records it. */
  unlockHint(userId: number, hintId: number, at?: Date): void;
  /** Calls that reached a route (authorised, not failed on purpose). */
  callsTo(method: string, path: string | RegExp): CtfdCall[];
  mode(): FakeCtfdMode;
  /** ok: serve; error: 500 to everything; down: close the port (connection refused). */
  setMode(mode: FakeCtfdMode): Promise<void>;
  /** Answer 500 to these routes only ("POST /api/v1/flags"), until called again with []. */
  failRoutes(routes: string[]): void;
  /** Answer 500 once to `route`, on its call after the next `after` ones (0: the next call). */
  failOnce(route: string, after?: number): void;
  close(): Promise<void>;
};

type Reply = { status: number; body: unknown };

export async function startFakeCtfd(options: { token?: string } = {}): Promise<FakeCtfd> {
  const token = options.token ?? "ctfd_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  const calls: CtfdCall[] = [];
  const challenges: CtfdChallenge[] = [];
  const flags: CtfdFlag[] = [];
  const hints: CtfdHint[] = [];
  const tags: CtfdTag[] = [];
  const configs: Record<string, string> = {};
  const files: CtfdFile[] = [];
  const users: CtfdUser[] = [];
  const submissions: CtfdSubmission[] = [];
  const awards: CtfdAward[] = [];
  let ids = { challenge: 0, flag: 0, hint: 0, tag: 0, file: 0, user: 0, submission: 0, award: 0 };
  let mode: FakeCtfdMode = "ok";
  let failing = new Set<string>();
  const failOnce = new Map<string, number>();

  const notFound: Reply = { status: 404, body: { success: false, message: "The requested URL was not found on the server." } };
  /** CTFd's `isoformat`: microseconds and a Z. */
  const isoformat = (date: Date) => date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
  const visible = (userId: number) => users.some((u) => u.id === userId && !u.hidden && !u.banned);
  const solvesOf = (filter: (s: CtfdSubmission) => boolean) => submissions.filter((s) => s.type === "correct" && filter(s));

  /** CTFd's standings: accounts with a solve or an award, by score, ties to who reached it first. */
  function standings() {
    const byUser = new Map<number, { score: number; last: number }>();
    const add = (userId: number, value: number, date: Date) => {
      if (!visible(userId)) return;
      const entry = byUser.get(userId) ?? { score: 0, last: 0 };
      entry.score += value;
      entry.last = Math.max(entry.last, date.getTime());
      byUser.set(userId, entry);
    };
    for (const solve of solvesOf(() => true)) {
      const challenge = challenges.find((c) => c.id === solve.challenge_id);
      if (challenge && !challenge.deleted) add(solve.user_id, challenge.value, solve.date);
    }
    for (const award of awards) add(award.user_id, award.value, award.date);
    return [...byUser.entries()].sort(([a, x], [b, y]) => y.score - x.score || x.last - y.last || a - b);
  }

  /** A challenge's attempt cap and prerequisites as CTFd's model takes them: an integer, `{prerequisites: [existing challenge ids]}`. */
  function settingErrors(body: any): Record<string, string[]> {
    const errors: Record<string, string[]> = {};
    if (body?.max_attempts !== undefined && (!Number.isInteger(body.max_attempts) || body.max_attempts < 0)) errors.max_attempts = ["Not a valid integer."];
    const prerequisites = body?.requirements?.prerequisites;
    if (body?.requirements !== undefined && (!Array.isArray(prerequisites) || prerequisites.some((id: unknown) => !challenges.some((c) => c.id === id && !c.deleted)))) {
      errors.requirements = ["Prerequisites must be existing challenge ids."];
    }
    return errors;
  }

  function route(method: string, path: string, body: any, query: URLSearchParams): Reply {
    if (method === "GET" && path === "/api/v1/scoreboard") {
      const data = standings().map(([userId, entry], index) => {
        const user = users.find((u) => u.id === userId)!;
        return { pos: index + 1, account_id: userId, account_url: `/users/${userId}`, account_type: "user", oauth_id: null, name: user.name, score: entry.score, bracket_id: null, bracket_name: null };
      });
      return { status: 200, body: { success: true, data } };
    }
    const solvesRoute = path.match(/^\/api\/v1\/challenges\/(\d+)\/solves$/);
    if (method === "GET" && solvesRoute) {
      const id = Number(solvesRoute[1]);
      if (!challenges.some((c) => c.id === id && !c.deleted)) return notFound;
      const data = solvesOf((s) => s.challenge_id === id && visible(s.user_id))
        .sort((a, b) => a.date.getTime() - b.date.getTime())
        .map((s) => ({ account_id: s.user_id, name: users.find((u) => u.id === s.user_id)!.name, date: isoformat(s.date), account_url: `/users/${s.user_id}` }));
      return { status: 200, body: { success: true, data } };
    }
    const userRoute = path.match(/^\/api\/v1\/users\/(\d+)$/);
    if (method === "GET" && userRoute) {
      const user = users.find((u) => u.id === Number(userRoute[1]));
      if (!user) return notFound;
      // The admin view (an admin token) includes the address.
      return { status: 200, body: { success: true, data: { ...user, type: "user", verified: true, website: null, affiliation: null, country: null, bracket_id: null, team_id: null } } };
    }
    if (method === "GET" && path === "/api/v1/submissions") {
      const perPage = Math.min(100, Math.max(1, Number(query.get("per_page") ?? 50) || 50));
      const pageNumber = Math.max(1, Number(query.get("page") ?? 1) || 1);
      const matching = submissions.filter(
        (s) =>
          (!query.has("challenge_id") || s.challenge_id === Number(query.get("challenge_id"))) &&
          (!query.has("user_id") || s.user_id === Number(query.get("user_id"))) &&
          (!query.has("type") || s.type === query.get("type")),
      );
      const pages = Math.ceil(matching.length / perPage);
      const data = matching.slice((pageNumber - 1) * perPage, pageNumber * perPage).map((s) => ({ ...s, date: isoformat(s.date) }));
      const pagination = { page: pageNumber, next: pageNumber < pages ? pageNumber + 1 : null, prev: pageNumber > 1 ? pageNumber - 1 : null, pages, per_page: perPage, total: matching.length };
      return { status: 200, body: { meta: { pagination }, success: true, data } };
    }
    if (method === "GET" && path === "/api/v1/challenges") {
      return { status: 200, body: { success: true, data: challenges.filter((c) => !c.deleted).map(({ deleted: _deleted, ...c }) => c) } };
    }
    if (method === "POST" && path === "/api/v1/challenges") {
      const errors: Record<string, string[]> = {};
      for (const field of ["name", "category", "type"]) if (typeof body?.[field] !== "string" || !body[field]) errors[field] = ["Missing data for required field."];
      if (!Number.isInteger(body?.value)) errors.value = ["Not a valid integer."];
      if (body?.state !== undefined && !["visible", "hidden", "locked"].includes(body.state)) errors.state = ["Invalid state."];
      Object.assign(errors, settingErrors(body));
      if (body?.type === "dynamic") for (const field of ["initial", "minimum", "decay"]) if (!Number.isInteger(body?.[field])) errors[field] = ["Not a valid integer."];
      if (Object.keys(errors).length) return { status: 400, body: { success: false, errors } };
      const challenge: CtfdChallenge = {
        id: ++ids.challenge,
        name: body.name,
        category: body.category,
        description: body.description ?? "",
        value: body.value,
        type: body.type,
        state: body.state ?? "visible",
        max_attempts: body.max_attempts ?? 0,
        requirements: body.requirements ?? null,
        ...(body.type === "dynamic" ? { initial: body.initial, minimum: body.minimum, decay: body.decay, function: body.function ?? "logarithmic" } : {}),
      };
      challenges.push(challenge);
      return { status: 200, body: { success: true, data: challenge } };
    }
    const one = path.match(/^\/api\/v1\/challenges\/(\d+)$/);
    if (one) {
      const challenge = challenges.find((c) => c.id === Number(one[1]) && !c.deleted);
      if (!challenge) return notFound;
      if (method === "GET") return { status: 200, body: { success: true, data: challenge } };
      if (method === "PATCH") {
        if (body?.state !== undefined && !["visible", "hidden", "locked"].includes(body.state)) return { status: 400, body: { success: false, errors: { state: ["Invalid state."] } } };
        const errors = settingErrors(body);
        if (Object.keys(errors).length) return { status: 400, body: { success: false, errors } };
        const fields = ["name", "category", "description", "value", "state", "max_attempts", "requirements", ...(challenge.type === "dynamic" ? (["initial", "minimum", "decay", "function"] as const) : [])] as const;
        for (const field of fields) if (body?.[field] !== undefined) (challenge as any)[field] = body[field];
        return { status: 200, body: { success: true, data: challenge } };
      }
      if (method === "DELETE") {
        challenge.deleted = true;
        // CTFd deletes a challenge's files with it.
        for (let i = files.length - 1; i >= 0; i--) if (files[i].challenge_id === challenge.id) files.splice(i, 1);
        for (let i = tags.length - 1; i >= 0; i--) if (tags[i].challenge_id === challenge.id) tags.splice(i, 1);
        return { status: 200, body: { success: true } };
      }
    }
    if (method === "POST" && path === "/api/v1/tags") {
      // CTFd's TagSchema: `challenge_id` (older clients send `challenge`) and `value`.
      const challengeId = Number(body?.challenge_id ?? body?.challenge);
      if (!challenges.some((c) => c.id === challengeId && !c.deleted)) return { status: 400, body: { success: false, errors: { challenge_id: ["Challenge not found."] } } };
      if (typeof body?.value !== "string" || !body.value || body.value.length > 80) return { status: 400, body: { success: false, errors: { value: ["Not a valid string."] } } };
      const tag: CtfdTag = { id: ++ids.tag, challenge_id: challengeId, value: body.value };
      tags.push(tag);
      return { status: 200, body: { success: true, data: tag } };
    }
    if (method === "PATCH" && path === "/api/v1/configs") {
      // CTFd/api/v1/config.py: each key is loaded through ConfigSchema (a string value) and set; the first bad one is a 400 naming it.
      if (!body || typeof body !== "object" || Array.isArray(body)) return { status: 400, body: { success: false, errors: { "": ["Invalid JSON"] } } };
      for (const [key, value] of Object.entries(body)) {
        if (typeof value !== "string") return { status: 400, body: { success: false, errors: { value: ["Not a valid string."] }, key } };
        configs[key] = value;
      }
      return { status: 200, body: { success: true } };
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
    return notFound;
  }

  /** werkzeug's `secure_filename`, which CTFd applies to an uploaded file's name: ASCII letters, digits, `_.-`; spaces become `_`. */
  function secureFilename(name: string): string {
    // eslint-disable-next-line no-control-regex -- keeping the ASCII range is the point
    const ascii = name.normalize("NFKD").replace(/[^\x00-\x7f]/g, "").replace(/[/\\]/g, " ");
    return ascii.split(/\s+/).filter(Boolean).join("_").replace(/[^A-Za-z0-9_.-]/g, "").replace(/^[._]+|[._]+$/g, "");
  }

  /** `POST /api/v1/files` (CTFd/api/v1/files.py): every `file` part becomes a file of `challenge` (or `challenge_id`). */
  async function storeUploads(form: FormData): Promise<Reply> {
    const parts = form.getAll("file").filter((part): part is File => typeof part !== "string");
    const challengeField = form.get("challenge_id") ?? form.get("challenge");
    const challengeId = typeof challengeField === "string" && challengeField ? Number(challengeField) : null;
    if (challengeId !== null && !challenges.some((c) => c.id === challengeId && !c.deleted)) {
      return { status: 400, body: { success: false, errors: { challenge: ["Challenge not found."] } } };
    }
    const stored: CtfdFile[] = [];
    for (const part of parts) {
      const name = secureFilename(part.name);
      if (!name) return { status: 400, body: { success: false, errors: { location: ["Invalid file name."] } } };
      const bytes = Buffer.from(await part.arrayBuffer());
      stored.push({
        id: ++ids.file,
        type: String(form.get("type") ?? "standard"),
        location: `${randomBytes(16).toString("hex")}/${name}`,
        challenge_id: challengeId,
        sha1sum: createHash("sha1").update(bytes).digest("hex"),
        bytes,
        contentType: part.type || "application/octet-stream",
      });
    }
    files.push(...stored);
    return { status: 200, body: { success: true, data: stored.map(({ id, type, location, sha1sum }) => ({ id, type, location, sha1sum })) } };
  }

  /** A multipart body parsed by the runtime (undici's `Request.formData()`), as it came. */
  async function formOf(req: http.IncomingMessage, raw: Buffer): Promise<FormData | null> {
    try {
      return await new Request("http://ctfd.local/", { method: "POST", headers: { "content-type": String(req.headers["content-type"]) }, body: new Uint8Array(raw) }).formData();
    } catch {
      return null;
    }
  }

  /** What a call is recorded with: JSON as parsed, multipart as its fields and files (name, type, size), else the raw text. */
  type Parsed = { body: unknown; form: FormData | null };

  async function handle(req: http.IncomingMessage, raw: Buffer, parsed: Parsed): Promise<Reply> {
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "http://ctfd.local");
    const path = url.pathname;
    if (mode === "error") return { status: 500, body: { success: false, message: "Internal Server Error" } };
    if (method === "GET" && path.startsWith("/files/")) {
      const file = files.find((f) => `/files/${f.location}` === decodeURIComponent(path));
      return file ? { status: 200, body: file } : notFound;
    }
    const authorization = req.headers.authorization;
    if (!authorization) return { status: 401, body: { success: false, message: "You must be logged in to access this endpoint." } };
    if (authorization !== `Token ${token}`) return { status: 403, body: { success: false, errors: { "": ["Invalid access token"] } } };
    // CTFd 3.6+ takes a token on these two media types only (CTFd/utils/initialization: request.mimetype).
    const mimetype = String(req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (mimetype !== "application/json" && mimetype !== "multipart/form-data") {
      return { status: 400, body: { success: false, errors: { "": ["API tokens require Content-Type: application/json or multipart/form-data"] } } };
    }
    if (mimetype === "multipart/form-data") {
      parsed.form = await formOf(req, raw);
      if (!parsed.form) return { status: 400, body: { success: false, errors: { "": ["Invalid multipart body"] } } };
      parsed.body = {
        fields: Object.fromEntries([...parsed.form.entries()].filter(([, v]) => typeof v === "string")),
        files: [...parsed.form.entries()].filter(([, v]) => typeof v !== "string").map(([field, v]) => ({ field, name: (v as File).name, type: (v as File).type, size: (v as File).size })),
      };
    } else {
      try {
        parsed.body = raw.length ? JSON.parse(raw.toString("utf8")) : undefined;
      } catch {
        return { status: 400, body: { success: false, errors: { "": ["Invalid JSON"] } } };
      }
    }
    if (failing.has(`${method} ${path}`)) return { status: 500, body: { success: false, message: "Internal Server Error" } };
    const countdown = failOnce.get(`${method} ${path}`);
    if (countdown !== undefined) {
      if (countdown === 0) {
        failOnce.delete(`${method} ${path}`);
        return { status: 500, body: { success: false, message: "Internal Server Error" } };
      }
      failOnce.set(`${method} ${path}`, countdown - 1);
    }
    if (method === "POST" && path === "/api/v1/files") {
      if (!parsed.form) return { status: 400, body: { success: false, errors: { file: ["Files are uploaded as multipart/form-data."] } } };
      return storeUploads(parsed.form);
    }
    const fileRoute = path.match(/^\/api\/v1\/files\/(\d+)$/);
    if (fileRoute && (method === "GET" || method === "DELETE")) {
      const index = files.findIndex((f) => f.id === Number(fileRoute[1]));
      if (index < 0) return notFound;
      const { bytes: _bytes, contentType: _type, ...file } = files[index];
      if (method === "DELETE") files.splice(index, 1);
      return { status: 200, body: method === "GET" ? { success: true, data: file } : { success: true } };
    }
    return route(method, path, parsed.body, url.searchParams);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString("utf8");
      let recorded: unknown = text || undefined;
      try {
        recorded = text ? JSON.parse(text) : undefined;
      } catch {
        // recorded as the raw text, unless parsed as multipart below
      }
      const parsed: Parsed = { body: recorded, form: null };
      const reply = await handle(req, raw, parsed);
      const url = new URL(req.url ?? "/", "http://ctfd.local");
      calls.push({
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        authorization: req.headers.authorization,
        contentType: req.headers["content-type"],
        body: parsed.form ? parsed.body : recorded,
        status: reply.status,
      });
      const served = reply.body as CtfdFile;
      if (reply.status === 200 && url.pathname.startsWith("/files/") && served.bytes) {
        res.writeHead(200, { "content-type": served.contentType, "content-length": served.bytes.length }).end(served.bytes);
        return;
      }
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

  /** CTFd's flag check (CTFd/plugins/flags): static compares, regex matches the whole submission. */
  function flagAccepts(flag: CtfdFlag, provided: string): boolean {
    const ignoreCase = flag.data === "case_insensitive";
    if (flag.type === "regex") {
      const match = new RegExp(flag.content, ignoreCase ? "i" : "").exec(provided);
      return match !== null && match.index === 0 && match[0] === provided;
    }
    return ignoreCase ? flag.content.toLowerCase() === provided.toLowerCase() : flag.content === provided;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    calls,
    challenges,
    flags,
    hints,
    tags,
    configs,
    files,
    users,
    submissions,
    awards,
    addUser({ name, email, hidden = false, banned = false }) {
      const user = { id: ++ids.user, name, email, hidden, banned };
      users.push(user);
      return user;
    },
    attempt(userId, challengeId, provided, at = new Date()) {
      if (solvesOf((s) => s.user_id === userId && s.challenge_id === challengeId).length) return "already_solved";
      const correct = flags.some((f) => f.challenge_id === challengeId && flagAccepts(f, provided));
      submissions.push({ id: ++ids.submission, challenge_id: challengeId, user_id: userId, type: correct ? "correct" : "incorrect", provided, date: at });
      const challenge = challenges.find((c) => c.id === challengeId);
      // CTFd's dynamic type recomputes the value on each solve (logarithmic: a parabola from initial to minimum over decay solves).
      if (correct && challenge?.type === "dynamic" && challenge.initial !== undefined && challenge.minimum !== undefined && challenge.decay) {
        const s = Math.max(0, solvesOf((solve) => solve.challenge_id === challengeId).length - 1);
        challenge.value = Math.max(challenge.minimum, Math.ceil(((challenge.minimum - challenge.initial) / challenge.decay ** 2) * s ** 2 + challenge.initial));
      }
      return correct ? "correct" : "incorrect";
    },
    unlockHint(userId, hintId, at = new Date()) {
      const hint = hints.find((h) => h.id === hintId);
      if (!hint) throw new Error(`no CTFd hint ${hintId}`);
      awards.push({ id: ++ids.award, user_id: userId, name: `Hint ${hintId}`, value: -hint.cost, category: `Hint ${hintId}`, date: at });
    },
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
    failOnce(route, after = 0) {
      failOnce.set(route, after);
    },
    async close() {
      await down();
      ids = { challenge: 0, flag: 0, hint: 0, tag: 0, file: 0, user: 0, submission: 0, award: 0 };
    },
  };
}
