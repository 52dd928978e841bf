/**
 * Baseline for bench/exam.ts: a bare `node:http` + postgres.js server answering
 * PUT /api/t/{token}/answers as the app does — same checks, same writes, same JSON — in ONE
 * statement (one round trip): the token, the question (of the recipient's test), the option
 * (within the question's options) and the state (not completed) are checked, the answer is
 * upserted, the recipient marked started / active, and the answers counted, all at once.
 * It is also the statement a one-round-trip `saveAnswer` could send (see bench/README.md).
 *
 * Run as a child process by the benchmark (never on its own in production):
 *   BARE_DATABASE_URL=postgres://… BARE_PORT=4100 node --import tsx bench/exam-bare-server.ts
 *
 * No zod, no Next.js, no request log, no error envelope beyond `{ error: { code, message } }`.
 * Listens on 127.0.0.1 only; stops on SIGTERM/SIGINT or when its parent goes away.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import postgres from "postgres";
import { serveUntilStopped } from "./support";

const url = process.env.BARE_DATABASE_URL;
const port = Number(process.env.BARE_PORT);
const poolMax = Number(process.env.BARE_POOL_MAX ?? 10);
if (!url || !Number.isInteger(port) || port <= 0) {
  console.error("exam-bare-server: set BARE_DATABASE_URL and BARE_PORT");
  process.exit(2);
}

const sql = postgres(url, { max: poolMax, onnotice: () => {}, connection: { application_name: "bench-exam-bare" } });

/**
 * $1 the token's SHA-256 (hex: tokens are stored hashed, as the app looks them up), $2 question id, $3 option (the
 * position on the recipient's page, mapped through their option order to the option's index, as
 * the app's save does, so both store the same values). The count is taken from the statement's snapshot (before
 * the upsert) plus one when this question had no answer yet: two saves of one recipient at the
 * very same moment may each report one less than both together (the app's separate count has
 * the same kind of race).
 */
export const SAVE_ANSWER_SQL = `
with r as (
  select id, test_id, status, option_orders, jsonb_array_length(question_order) as questions from recipients where token_hash = $1
), q as (
  select q.id, jsonb_array_length(q.options) as options from test_questions q join r on q.test_id = r.test_id where q.id = $2
), saved as (
  insert into answers (recipient_id, question_id, option_index, answered_at)
  select r.id, q.id, coalesce((r.option_orders -> $2::text ->> $3::int)::int, $3), now() from r join q on true where r.status <> 'completed' and $3 < q.options
  on conflict (recipient_id, question_id) do update set option_index = excluded.option_index, answered_at = excluded.answered_at
  returning recipient_id
), touched as (
  update recipients set last_activity_at = now(),
         status = case when recipients.status = 'sent' then 'started' else recipients.status end,
         started_at = case when recipients.status = 'sent' then now() else recipients.started_at end
  from saved where recipients.id = saved.recipient_id
  returning recipients.id
)
select r.status, r.questions, (select options from q) as options, (select count(*) from saved)::int as saved,
       ((select count(*) from answers a where a.recipient_id = r.id)
        + case when exists (select 1 from saved) and not exists (select 1 from answers a where a.recipient_id = r.id and a.question_id = $2) then 1 else 0 end)::int as answered,
       (select count(*) from touched)::int as touched
from r`;

type Row = { status: string; questions: number; options: number | null; saved: number; answered: number };

const PATH = /^\/api\/t\/([A-Za-z0-9_-]{20,64})\/answers$/;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
  res.end(text);
}

const error = (res: http.ServerResponse, status: number, code: string, message: string) => send(res, status, { error: { code, message } });

async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
  const match = req.method === "PUT" ? PATH.exec(req.url ?? "") : null;
  if (!match) return error(res, 404, "not_found", "Not found.");
  let input: { question_id?: unknown; option?: unknown; options?: unknown };
  try {
    input = JSON.parse(raw) as typeof input;
  } catch {
    return error(res, 400, "invalid_json", "The body is not JSON.");
  }
  const questionId = input.question_id;
  // A multiple-response answer (`options`) is saved as its first position: the floor measures one upsert either way.
  const option = Array.isArray(input.options) ? input.options[0] : input.option;
  if (!Number.isInteger(questionId) || (questionId as number) < 1 || (questionId as number) > 2_147_483_647 || !Number.isInteger(option) || (option as number) < 0 || (option as number) > 10) {
    return error(res, 422, "validation_failed", "question_id and option must be whole numbers.");
  }
  const tokenHash = createHash("sha256").update(match[1], "utf8").digest("hex");
  const [row] = (await sql.unsafe(SAVE_ANSWER_SQL, [tokenHash, questionId as number, option as number], { prepare: true })) as unknown as Row[];
  if (!row) return error(res, 404, "not_found", "Test not found.");
  if (row.status === "completed") return error(res, 409, "conflict", "This test has been submitted; answers can no longer change.");
  if (row.options === null) return error(res, 422, "validation_failed", "Not a question of this test.");
  if (row.saved === 0) return error(res, 422, "validation_failed", "No such option.");
  send(res, 200, { answered: row.answered, questions: row.questions });
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    handle(req, res, Buffer.concat(chunks).toString("utf8")).catch((err: unknown) => {
      console.error("exam-bare-server:", err);
      if (!res.headersSent) error(res, 500, "internal_error", "Internal error.");
      else res.destroy();
    });
  });
});
server.listen(port, "127.0.0.1", () => console.log(`exam-bare-server listening on 127.0.0.1:${port}`));

serveUntilStopped(server, sql);
