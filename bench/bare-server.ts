/**
 * Baseline for bench/api-throughput.ts: a bare `node:http` server answering
 * GET /api/v1/certifications/{id} with the same JSON as the app, straight from postgres.js.
 *
 * Run as a child process by the benchmark (never on its own in production):
 *   BARE_DATABASE_URL=postgres://… BARE_PORT=4100 [BARE_ADMIT=1] node --import tsx bench/bare-server.ts
 *
 * - Default mode: no auth, no rate limit; the data queries only.
 * - BARE_ADMIT=1: first the app's key check + rate limit round trip
 *   (`select * from api_key_admit($1, 120, 60000, 0)` on the sha256 hex of X-API-KEY),
 *   401 for an unknown key, 429 when over the limit, then the same data queries.
 *
 * The data queries are the SQL the app's Drizzle code renders (lib/certification/catalog/catalog.ts),
 * as prepared statements, but the certification row is read once: the app reads it twice
 * (getCertification → findCertification, then listDomains → findCertification again).
 * Listens on 127.0.0.1 only; stops on SIGTERM/SIGINT or when its parent goes away.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import postgres from "postgres";
import { serveUntilStopped } from "./support";

const url = process.env.BARE_DATABASE_URL;
const port = Number(process.env.BARE_PORT);
const admitMode = process.env.BARE_ADMIT === "1";
const poolMax = Number(process.env.BARE_POOL_MAX ?? 10);
/** Workspace used for visibility when there is no key (bare mode); catalog rows are visible to all. */
const anonymousWorkspace = process.env.BARE_WORKSPACE_ID ?? "ws_bench_anonymous";

if (!url || !Number.isInteger(port) || port <= 0) {
  console.error("bare-server: set BARE_DATABASE_URL and BARE_PORT");
  process.exit(2);
}

const sql = postgres(url, {
  max: poolMax,
  onnotice: () => {},
  connection: { application_name: admitMode ? "bench-bare-admit" : "bench-bare" },
});

const RATE = { requests: 120, windowMs: 60_000 } as const;
const ADMIT_SQL = "select * from api_key_admit($1, $2, $3, $4)";

type AdmitRow = {
  workspace_id: string;
  allowed: boolean;
  remaining: number;
  reset_ms: string | number;
  retry_after_ms: string | number;
};
type CertificationRow = {
  id: number;
  workspace_id: string | null;
  vendor: string;
  code: string;
  name: string;
  description: string;
};
type DomainRow = { id: number; name: string; questions: number };

const PATH = /^\/api\/v1\/certifications\/([1-9][0-9]{0,9})$/;

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function error(res: http.ServerResponse, status: number, code: string, message: string, headers?: Record<string, string>) {
  send(res, status, { error: { code, message } }, headers);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const match = req.method === "GET" ? PATH.exec(req.url ?? "") : null;
  if (!match || Number(match[1]) > 2_147_483_647) return error(res, 404, "not_found", "Not found.");
  const id = Number(match[1]);

  let workspaceId = anonymousWorkspace;
  let rateHeaders: Record<string, string> = {};
  if (admitMode) {
    const secret = String(req.headers["x-api-key"] ?? "").trim();
    if (!secret) return error(res, 401, "unauthorized", "Missing API key.");
    const hash = createHash("sha256").update(secret, "utf8").digest("hex");
    const [row] = (await sql.unsafe(ADMIT_SQL, [hash, RATE.requests, RATE.windowMs, 0], {
      prepare: true,
    })) as unknown as AdmitRow[];
    if (!row) return error(res, 401, "unauthorized", "The API key is unknown or has been revoked.");
    rateHeaders = {
      "x-ratelimit-limit": String(RATE.requests),
      "x-ratelimit-remaining": String(row.allowed ? row.remaining : 0),
      "x-ratelimit-reset": String(Math.ceil(Number(row.reset_ms) / 1000)),
    };
    if (!row.allowed) {
      const retryAfter = Math.max(1, Math.ceil(Number(row.retry_after_ms) / 1000));
      return error(res, 429, "rate_limit_exceeded", "Rate limit exceeded.", { ...rateHeaders, "retry-after": String(retryAfter) });
    }
    workspaceId = row.workspace_id;
  }

  // Tagged templates are prepared statements in postgres.js (prepare: true is the default).
  const [certification] = await sql<CertificationRow[]>`
    select "id", "workspace_id", "slug", "vendor", "code", "name", "description", "created_at", "updated_at"
      from "certifications"
     where ("certifications"."id" = ${id}
       and ("certifications"."workspace_id" is null or "certifications"."workspace_id" = ${workspaceId}))`;
  if (!certification) return error(res, 404, "not_found", "Certification not found.", rateHeaders);
  const domainRows = await sql<DomainRow[]>`
    select "id", "name", (select count(*)::int from "questions" q where q.domain_id = "domains"."id") as "questions"
      from "domains"
     where "domains"."certification_id" = ${id}
     order by "domains"."position" asc, "domains"."id" asc`;
  const domains = domainRows.map((d) => ({ id: d.id, name: d.name, questions: d.questions }));
  send(
    res,
    200,
    {
      id: certification.id,
      vendor: certification.vendor,
      code: certification.code,
      name: certification.name,
      description: certification.description,
      own: certification.workspace_id === workspaceId,
      questions: domains.reduce((sum, d) => sum + d.questions, 0),
      domains,
    },
    rateHeaders,
  );
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    console.error("bare-server:", err);
    if (!res.headersSent) error(res, 500, "internal_error", "Internal error.");
    else res.destroy();
  });
});

server.listen(port, "127.0.0.1", () => {
  console.log(`bare-server (${admitMode ? "bare+admit" : "bare"}) listening on 127.0.0.1:${port}`);
});

serveUntilStopped(server, sql);
