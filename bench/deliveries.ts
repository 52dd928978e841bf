/**
 * On-demand benchmark of the webhook delivery pipeline: publishEvent (event + pending delivery
 * + NOTIFY in the publisher's transaction) → EmbeddedWorker (LISTEN wake-up, SKIP LOCKED claim,
 * bounded concurrency) → signed POST to a local receiver. See bench/README.md.
 *
 *   npx tsx bench/deliveries.ts            # PostgreSQL only
 *   BENCH_PGLITE=1 npx tsx bench/deliveries.ts   # then the same on in-memory PGlite
 *
 * Loopback only. Creates a throw-away database bench_<random> on the PostgreSQL server at
 * BENCH_DATABASE_URL and drops it at the end, whatever happens; stops by itself.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { events, type Event } from "@/db/schema";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { config as appConfig } from "@/lib/kernel/config/config";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { buildWireMessage } from "@/lib/platform/pipeline/channels/webhook/format";
import { createWebhook } from "@/lib/platform/webhooks/endpoints";
import { ensureUserWorkspace } from "@/lib/platform/workspaces";
import { sortedCompactJson, verifyCompetition } from "@/tests/helpers/receivers";
import { cpuSeconds, createBenchDatabase, dropBenchDatabase, intEnv, sleep, startBenchRun, textTable, writeResults } from "./support";
import type { Database } from "@/db/types";
import { openDatabase, prepareDatabase } from "@/lib/platform/database";
import { stepRegistry } from "@/lib/registry/steps";

// ---------------------------------------------------------------------------------------------
// Settings

const config = {
  adminUrl: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  /** EmbeddedWorker `concurrency`: attempts in flight at once. */
  concurrency: intEnv("BENCH_CONCURRENCY", 8, 1, 1_000),
  /** Attempts to one endpoint in flight at once (the app's WEBHOOK_ENDPOINT_CONCURRENCY unless set). */
  endpointConcurrency: intEnv("BENCH_ENDPOINT_CONCURRENCY", 0, 0, 256),
  /** Backlog phase: events committed while no worker runs, then drained by a fresh worker. */
  backlog: intEnv("BENCH_BACKLOG", 2000, 0, 100_000),
  /** Steady phase: events, published at `rate` per second. */
  events: intEnv("BENCH_EVENTS", 500, 1, 100_000),
  rate: intEnv("BENCH_RATE", 100, 1, 10_000),
  /** Burst phase: events, published by `publishers` concurrent publishers as fast as they can. */
  burst: intEnv("BENCH_BURST", 2000, 1, 100_000),
  publishers: intEnv("BENCH_PUBLISHERS", 20, 1, 500),
  /** Unmeasured events first (connections opened, code warmed). */
  warmup: intEnv("BENCH_WARMUP_EVENTS", 20, 0, 10_000),
  /** postgres.js pool size of each of the two pools (the app's DATABASE_POOL_MAX; its default is 10). */
  poolMax: intEnv("BENCH_POOL_MAX", Number(process.env.DATABASE_POOL_MAX ?? 10), 1, 200),
  /** How long a phase may take to drain after its last publish before it is reported incomplete. */
  drainSeconds: intEnv("BENCH_DRAIN_SECONDS", 60, 1, 600),
  pglite: process.env.BENCH_PGLITE === "1",
};
const timeoutSeconds = intEnv("BENCH_TIMEOUT_SECONDS", 180, 10, 3_600);
const benchStarted = performance.now();
const hardDeadline = benchStarted + timeoutSeconds * 1000;
/** Time kept free before the hard deadline for the report and the clean-up. */
const RESERVE_MS = Math.min(20_000, (timeoutSeconds * 1000) / 4);

// The receiver is on 127.0.0.1: let the sender reach it (read at every attempt).
process.env.WEBHOOK_ALLOW_PRIVATE = "true";
if (config.endpointConcurrency > 0) process.env.WEBHOOK_ENDPOINT_CONCURRENCY = String(config.endpointConcurrency);
/** What reaches the one endpoint at once: the worker's slots, at most the per-endpoint limit. */
const endpointConcurrency = appConfig().webhooks.endpointConcurrency;
const effectiveConcurrency = Math.min(config.concurrency, endpointConcurrency);
const workerPollMs = Number(process.env.WORKER_POLL_MS ?? 1_000);

// ---------------------------------------------------------------------------------------------
// Clean-up: every resource is registered as it is created and undone in reverse order, once,
// whether the run ends normally, fails, is interrupted or hits the overall timeout.

type Undo = { name: string; run: () => Promise<void> };
const undoStack: Undo[] = [];

function defer(name: string, run: () => Promise<void>): void {
  undoStack.push({ name, run });
}

let unwinding: Promise<void> = Promise.resolve();

/**
 * Runs (newest first) everything registered after `mark`, each step bounded by 15 s. Calls are
 * queued, never concurrent: an abort waits for a clean-up already under way, then does the rest.
 */
function unwind(mark = 0): Promise<void> {
  unwinding = unwinding.then(() => unwindNow(mark));
  return unwinding;
}

async function unwindNow(mark: number): Promise<void> {
  while (undoStack.length > mark) {
    const undo = undoStack.pop()!;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        undo.run(),
        new Promise<void>((_, reject) => {
          timer = setTimeout(() => reject(new Error("did not finish within 15 s")), 15_000);
        }),
      ]);
    } catch (error) {
      console.error(`clean-up: ${undo.name}: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

const bench = startBenchRun({
  label: "bench:deliveries",
  stopping: "stopping the worker, closing pools and the receiver, dropping the bench database…",
  cleanup: () => unwind(),
  timeoutSeconds,
  graceMs: 60_000,
});

// Output piped into a reader that went away (`| head`): writing must not raise errors, the
// run still has to clean up.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
// A stray error (a driver callback after its pool closed, say) must not end the process
// before the database is dropped: report it (the first few) and clean up, or keep cleaning up.
let strayErrors = 0;
for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.on(event, (error) => {
    if (++strayErrors <= 5) console.error(`${event}: ${error instanceof Error ? error.message : String(error)}`);
    void bench.abort(event, 1);
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

type Stats = { count: number; mean: number; p50: number; p90: number; p99: number; max: number };

/** Nearest-rank percentiles, in ms rounded to 0.1. */
function stats(values: number[]): Stats | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    count: sorted.length,
    mean: round(sorted.reduce((sum, v) => sum + v, 0) / sorted.length),
    p50: round(at(50)),
    p90: round(at(90)),
    p99: round(at(99)),
    max: round(sorted[sorted.length - 1]),
  };
}

// ---------------------------------------------------------------------------------------------
// Receiver: node:http on 127.0.0.1, answers 200 at once, records every request.

type Arrival = {
  /** performance.now() when the whole request had arrived (same clock as the commit times). */
  at: number;
  eventId: string | undefined;
  raw: Buffer;
  headers: http.IncomingHttpHeaders;
};

type Receiver = {
  url: string;
  /** Same receiver, other path: the bare client's requests, only timed (not in `arrivals`). */
  bareUrl: string;
  arrivals: Arrival[];
  bareArrivals: number[];
  seen: Set<string>;
  close(): Promise<void>;
};

async function startReceiver(): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const bareArrivals: number[] = [];
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const at = performance.now();
      if (req.url === "/hooks/bare") {
        bareArrivals.push(at);
        res.writeHead(200, { "content-type": "text/plain" }).end("ok");
        return;
      }
      const header = req.headers["x-service-event-id"];
      const eventId = Array.isArray(header) ? header[0] : header;
      arrivals.push({ at, eventId, raw: Buffer.concat(chunks), headers: req.headers });
      if (eventId) seen.add(eventId);
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/bench`,
    bareUrl: `http://127.0.0.1:${port}/hooks/bare`,
    arrivals,
    bareArrivals,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Databases

/** A fresh database on the PostgreSQL server; registered to be dropped (with force) at the end. */
async function createPostgresDatabase(): Promise<string> {
  const { name, url } = await createBenchDatabase(config.adminUrl);
  // A failure is thrown, for unwind() to report (`clean-up: drop database …: <error>`).
  defer(`drop database ${name}`, () => dropBenchDatabase(config.adminUrl, name, { rethrow: true }));
  console.log(`created database ${name}`);
  return url;
}

async function open(name: string, opener: () => Promise<Database>): Promise<Database> {
  const database = await opener();
  defer(`close ${name}`, () => database.close());
  return database;
}

/**
 * CPU seconds used so far by each PostgreSQL backend connected to the bench database, read
 * from /proc: only when the server runs on this machine (loopback) and is readable; else null.
 */
async function backendCpu(database: Database): Promise<Map<number, number> | null> {
  if (database.kind !== "postgres" || process.platform !== "linux") return null;
  const rows = await database.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database()");
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    const cpu = cpuSeconds(pid);
    if (cpu === undefined) return null;
    out.set(pid, cpu);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Publishing and measuring

type Slot = {
  index: number;
  title: string;
  /** performance.now() before the transaction began / after it resolved (committed). */
  started?: number;
  committed?: number;
  eventId?: string;
  error?: string;
};

type PhaseName = "warm-up" | "steady" | "burst" | "backlog";

type Phase = {
  name: PhaseName;
  slots: Slot[];
  started: number;
  /** Publishing finished (every transaction resolved or failed). */
  published?: number;
  /** Backlog: when the worker started (published with no worker running); delivery is timed from here. */
  drainStarted?: number;
  /** Every committed event had arrived (undefined: the phase did not drain in time). */
  drained?: number;
  cpuMicros?: number;
  /** CPU seconds of the bench database's PostgreSQL backends during the phase (null: not measurable). */
  pgCpuSeconds?: number | null;
};

type Context = { target: string; db: Db; workspaceId: string; receiver: Receiver; byEventId: Map<string, Slot> };

function makeSlots(target: string, phase: PhaseName, count: number): Slot[] {
  return Array.from({ length: count }, (_, index) => ({ index, title: `bench ${target} ${phase} #${index}` }));
}

/** Publishing transactions not yet settled: the clean-up lets them finish before closing the pools. */
const publishing = new Set<Promise<void>>();

function publishOne(ctx: Context, slot: Slot): Promise<void> {
  const task = publishOneUntracked(ctx, slot).finally(() => publishing.delete(task));
  publishing.add(task);
  return task;
}

async function publishOneUntracked(ctx: Context, slot: Slot): Promise<void> {
  slot.started = performance.now();
  try {
    // Keys out of order on purpose: the competition body must come out sorted (canonical JSON).
    const event = await ctx.db.transaction((tx) =>
      publishEvent(tx, ctx.workspaceId, "ctf.deployed", {
        url: `https://ctf.example.test/bench/${slot.index}`,
        title: slot.title,
        managed_ctf_id: `mctf_bench_${slot.index}`,
        is_public: slot.index % 2 === 0,
      }),
    );
    slot.committed = performance.now();
    slot.eventId = event.id;
    ctx.byEventId.set(event.id, slot);
  } catch (error) {
    slot.error = (error as Error).message;
  }
}

/** Fixed rate, open loop: event i starts at start + i / rate whatever the earlier ones are doing. */
async function publishAtRate(ctx: Context, slots: Slot[], rate: number): Promise<void> {
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (const slot of slots) {
    if (bench.exiting) break;
    const wait = start + (slot.index * 1000) / rate - performance.now();
    if (wait >= 1) await sleep(wait);
    pending.push(publishOne(ctx, slot));
  }
  await Promise.all(pending);
}

/** As fast as possible: `publishers` concurrent loops, each one transaction at a time. */
async function publishBurst(ctx: Context, slots: Slot[], publishers: number): Promise<void> {
  let next = 0;
  const publisher = async () => {
    while (next < slots.length && !bench.exiting) await publishOne(ctx, slots[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(publishers, slots.length) }, publisher));
}

/** Waits until every committed event of the phase has arrived, then until no delivery is pending. */
async function drain(ctx: Context, database: Database, phase: Phase): Promise<boolean> {
  const limit = Math.min(performance.now() + config.drainSeconds * 1000, hardDeadline - RESERVE_MS);
  const ids = phase.slots.flatMap((slot) => (slot.eventId ? [slot.eventId] : []));
  let missing = ids;
  while (!bench.exiting) {
    missing = missing.filter((id) => !ctx.receiver.seen.has(id));
    if (missing.length === 0) break;
    if (performance.now() > limit) return false;
    await sleep(5);
  }
  phase.drained = performance.now();
  // Attempts are recorded after the answer: wait for the records before the next phase/check.
  while (!bench.exiting) {
    const [{ n }] = await database.query<{ n: number }>("select count(*)::int as n from webhook_deliveries where status = 'pending'");
    if (n === 0) return true;
    if (performance.now() > limit) return false;
    await sleep(20);
  }
  return false;
}

async function runPhase(
  ctx: Context,
  database: Database,
  name: PhaseName,
  count: number,
  /** Backlog: stops the worker before publishing, starts a fresh one after. */
  worker?: { stop(): Promise<void>; start(): Promise<void> },
): Promise<{ phase: Phase; complete: boolean }> {
  const phase: Phase = { name, slots: makeSlots(ctx.target, name, count), started: performance.now() };
  const cpu = process.cpuUsage();
  const pgBefore = await backendCpu(database);
  process.stdout.write(`${ctx.target} ${name}: ${count} events… `);
  if (name === "backlog" && worker) await worker.stop();
  if (name === "steady") await publishAtRate(ctx, phase.slots, config.rate);
  else await publishBurst(ctx, phase.slots, name === "warm-up" ? 4 : config.publishers);
  phase.published = performance.now();
  if (name === "backlog" && worker) {
    phase.drainStarted = performance.now();
    await worker.start();
  }
  const complete = await drain(ctx, database, phase);
  const used = process.cpuUsage(cpu);
  phase.cpuMicros = used.user + used.system;
  const pgAfter = pgBefore ? await backendCpu(database) : null;
  // A backend opened during the phase counts from zero; one that ended during it is not seen.
  phase.pgCpuSeconds = pgBefore && pgAfter ? [...pgAfter].reduce((sum, [pid, cpu]) => sum + cpu - (pgBefore.get(pid) ?? 0), 0) : null;
  const errors = phase.slots.filter((slot) => slot.error).length;
  console.log(
    complete
      ? `done in ${seconds(performance.now() - phase.started)} s${errors ? ` (${errors} publish errors)` : ""}`
      : `INCOMPLETE after ${seconds(performance.now() - phase.started)} s`,
  );
  return { phase, complete };
}

// ---------------------------------------------------------------------------------------------
// Results

type DeliveryRow = { event_id: string; status: string; attempts: number; recorded: number; ok: number };

type PhaseResult = {
  target: string;
  phase: PhaseName;
  complete: boolean;
  events: number;
  publishErrors: number;
  /** First publish start → last commit. */
  publishSeconds: number;
  publishedPerSecond: number;
  /** Events that arrived at least once. */
  arrived: number;
  /** First publish start → last first-arrival. */
  deliverySeconds: number;
  deliveriesPerSecond: number;
  /** Last commit → last first-arrival: how far delivery lagged behind publishing. */
  drainAfterPublishSeconds: number;
  /** Arrival − commit of the first arrival of each event, ms. */
  latencyMs: Stats | null;
  /** Events with latency over 250 ms / 900 ms (a 1 s poll stall shows as the latter). */
  over250ms: number;
  over900ms: number;
  /** The publishing transaction (begin → commit resolved), ms. */
  transactionMs: Stats | null;
  missing: number;
  duplicated: number;
  arrivalsPerEvent: Record<string, number>;
  deliveries: number;
  /** Committed events with no delivery row, or more than one (there is one endpoint). */
  eventsWithoutOneDelivery: number;
  deliveriesNotDelivered: number;
  deliveriesWithAttemptsNot1: number;
  attemptsRecorded: number;
  attemptsPerDelivery: Record<string, number>;
  badSignature: number;
  notCanonical: number;
  contentMismatch: number;
  /** CPU time of this Node process (publishers + worker + receiver) per event, ms. */
  cpuMsPerEvent: number | null;
  /** CPU time of the bench database's PostgreSQL backends per event, ms (local server only). */
  pgCpuMsPerEvent: number | null;
};

function countBy(values: number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

function summarise(
  ctx: Context,
  phase: Phase,
  complete: boolean,
  arrivalsById: Map<string, Arrival[]>,
  rowsById: Map<string, DeliveryRow[]>,
  secret: string,
): PhaseResult {
  const committed = phase.slots.filter((slot) => slot.eventId !== undefined);
  const latencies: number[] = [];
  const transactions: number[] = [];
  const arrivalCounts: number[] = [];
  const attemptCounts: number[] = [];
  let lastCommit = phase.started;
  let lastFirstArrival = phase.started;
  let badSignature = 0;
  let notCanonical = 0;
  let contentMismatch = 0;
  let deliveries = 0;
  let notDelivered = 0;
  let attemptsNot1 = 0;
  let attemptsRecorded = 0;
  let eventsWithoutOneDelivery = 0;
  // Backlog: everything was committed before the worker started; time from its start.
  const from = (slot: Slot) => phase.drainStarted ?? slot.committed!;
  for (const slot of committed) {
    const id = slot.eventId!;
    transactions.push(slot.committed! - slot.started!);
    lastCommit = Math.max(lastCommit, slot.committed!);
    const arrivals = arrivalsById.get(id) ?? [];
    arrivalCounts.push(arrivals.length);
    if (arrivals.length > 0) {
      const first = Math.min(...arrivals.map((a) => a.at));
      latencies.push(first - from(slot));
      lastFirstArrival = Math.max(lastFirstArrival, first);
    }
    for (const arrival of arrivals) {
      if (verifyCompetition(arrival.raw, arrival.headers, secret) !== "valid") badSignature += 1;
      try {
        const body = JSON.parse(arrival.raw.toString("utf8")) as { data?: { title?: string } };
        if (sortedCompactJson(body) !== arrival.raw.toString("utf8")) notCanonical += 1;
        if (body.data?.title !== slot.title) contentMismatch += 1;
      } catch {
        notCanonical += 1;
      }
    }
    const rows = rowsById.get(id) ?? [];
    deliveries += rows.length;
    for (const row of rows) {
      attemptCounts.push(row.recorded);
      attemptsRecorded += row.recorded;
      if (row.status !== "delivered") notDelivered += 1;
      if (row.recorded !== 1 || row.attempts !== 1) attemptsNot1 += 1;
    }
    if (rows.length !== 1) eventsWithoutOneDelivery += 1;
  }
  const arrived = arrivalCounts.filter((n) => n > 0).length;
  const deliverySeconds = (lastFirstArrival - (phase.drainStarted ?? phase.started)) / 1000;
  const publishSeconds = (lastCommit - phase.started) / 1000;
  return {
    target: ctx.target,
    phase: phase.name,
    complete,
    events: phase.slots.length,
    publishErrors: phase.slots.filter((slot) => slot.error).length,
    publishSeconds,
    publishedPerSecond: publishSeconds > 0 ? committed.length / publishSeconds : 0,
    arrived,
    deliverySeconds,
    deliveriesPerSecond: deliverySeconds > 0 ? arrived / deliverySeconds : 0,
    drainAfterPublishSeconds: Math.max(0, (lastFirstArrival - Math.max(lastCommit, phase.drainStarted ?? 0)) / 1000),
    latencyMs: stats(latencies),
    over250ms: latencies.filter((v) => v > 250).length,
    over900ms: latencies.filter((v) => v > 900).length,
    transactionMs: stats(transactions),
    missing: arrivalCounts.filter((n) => n === 0).length,
    duplicated: arrivalCounts.filter((n) => n > 1).length,
    arrivalsPerEvent: countBy(arrivalCounts),
    deliveries,
    eventsWithoutOneDelivery,
    deliveriesNotDelivered: notDelivered,
    deliveriesWithAttemptsNot1: attemptsNot1,
    attemptsRecorded,
    attemptsPerDelivery: countBy(attemptCounts),
    badSignature,
    notCanonical,
    contentMismatch,
    cpuMsPerEvent: phase.cpuMicros !== undefined && committed.length > 0 ? phase.cpuMicros / 1000 / committed.length : null,
    pgCpuMsPerEvent: phase.pgCpuSeconds != null && committed.length > 0 ? (phase.pgCpuSeconds * 1000) / committed.length : null,
  };
}

// ---------------------------------------------------------------------------------------------
// One target: PostgreSQL (two pools, as an app instance and a worker would) or PGlite (one).

type TargetResult = {
  target: string;
  setupSeconds: number;
  phases: PhaseResult[];
  /** Receiver requests whose event id is not one this target published (other targets excluded). */
  unknownArrivals: number;
  /** Failed attempts (all phases), by error: any at all means a delivery needed a retry. */
  failedAttempts: Record<string, number>;
  /** The bare client's run over the same events (null: no phase to take them from). */
  bare: BareResult | null;
};

type BareResult = {
  /** The phase whose events were posted again. */
  of: PhaseName;
  events: number;
  concurrency: number;
  /** Answers other than 2xx, and request errors. */
  failed: number;
  /** First request start → last arrival at the receiver. */
  seconds: number;
  perSecond: number;
  /** CPU time of this process per request (client + receiver), ms. */
  cpuMsPerEvent: number;
};

/**
 * The floor of the delivery path on this machine: a bare Node client (node:http, kept-alive
 * agent) that signs and POSTs the same events, in the same wire format, to the same receiver
 * (another path, so they are not mistaken for deliveries), `effectiveConcurrency` requests in
 * flight — what reaches the endpoint from the worker. No database, no bookkeeping.
 */
async function bareClient(db: Db, receiver: Receiver, secret: string, eventIds: string[], of: PhaseName): Promise<BareResult> {
  const rows: Event[] = [];
  for (let i = 0; i < eventIds.length; i += 500) {
    rows.push(...(await db.select().from(events).where(inArray(events.id, eventIds.slice(i, i + 500)))));
  }
  process.stdout.write(`bare client: ${rows.length} signed POSTs of the ${of} events, ${effectiveConcurrency} in flight… `);
  const agent = new http.Agent({ keepAlive: true, maxSockets: effectiveConcurrency });
  const target = new URL(receiver.bareUrl);
  const firstArrival = receiver.bareArrivals.length;
  let next = 0;
  let failed = 0;
  const post = (body: string, headers: Record<string, string>) =>
    new Promise<void>((resolve) => {
      const req = http.request(target, { method: "POST", agent, headers: { ...headers, "Content-Length": Buffer.byteLength(body).toString() } }, (res) => {
        if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) failed += 1;
        res.resume();
        res.on("end", resolve);
        res.on("error", () => resolve());
      });
      req.on("error", () => {
        failed += 1;
        resolve();
      });
      req.end(body);
    });
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: effectiveConcurrency }, async () => {
      while (next < rows.length && !bench.exiting) {
        const { body, headers } = buildWireMessage(rows[next++], secret);
        await post(body, headers);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  agent.destroy();
  const arrivals = receiver.bareArrivals.slice(firstArrival);
  const last = arrivals.length ? Math.max(...arrivals) : performance.now();
  const seconds = (last - started) / 1000;
  console.log(`done in ${seconds.toFixed(2)} s`);
  return {
    of,
    events: rows.length,
    concurrency: effectiveConcurrency,
    failed: failed + (rows.length - arrivals.length),
    seconds,
    perSecond: seconds > 0 ? arrivals.length / seconds : 0,
    cpuMsPerEvent: rows.length ? (used.user + used.system) / 1000 / rows.length : 0,
  };
}

async function runTarget(target: "postgres" | "pglite", receiver: Receiver): Promise<TargetResult> {
  const mark = undoStack.length;
  try {
    const setupStart = performance.now();
    let publisherDb: Database;
    let workerDb: Database;
    if (target === "postgres") {
      const url = await createPostgresDatabase();
      publisherDb = await open("publisher pool", () => openDatabase({ url, poolMax: config.poolMax }));
      await prepareDatabase(publisherDb);
      workerDb = await open("worker pool", () => openDatabase({ url, poolMax: config.poolMax }));
    } else {
      publisherDb = await open("pglite", () => openDatabase({ dataDir: "memory://" }));
      await prepareDatabase(publisherDb);
      workerDb = publisherDb;
    }

    // Runs before the pools close: a query still queued when its pool ends would crash postgres.js.
    defer("wait for publishing transactions", async () => {
      await Promise.race([Promise.allSettled([...publishing]), sleep(10_000)]);
    });

    const { workspace } = await ensureUserWorkspace(publisherDb.db, `bench-deliveries-${target}@example.com`);
    const secret = `whsec_${randomBytes(24).toString("base64url")}`;
    await createWebhook(publisherDb.db, workspace.id, { url: receiver.url, events: ["ctf.deployed"], secret }, "api");

    const worker = new EmbeddedWorker(workerDb, { steps: stepRegistry, concurrency: config.concurrency, endpointConcurrency });
    let workerStopped = false;
    await worker.start();
    defer(`stop ${target} worker`, async () => {
      if (!workerStopped) await worker.stop();
    });
    const setupSeconds = (performance.now() - setupStart) / 1000;
    console.log(`${target}: database prepared, endpoint registered, worker started in ${seconds(setupSeconds * 1000)} s`);

    const ctx: Context = { target, db: publisherDb.db, workspaceId: workspace.id, receiver, byEventId: new Map() };
    const firstArrival = receiver.arrivals.length;
    const phases: { phase: Phase; complete: boolean }[] = [];
    const plan: [PhaseName, number][] = [
      ["warm-up", config.warmup],
      ["steady", config.events],
      ["burst", config.burst],
      ["backlog", config.backlog],
    ];
    for (const [name, count] of plan) {
      if (count === 0 || bench.exiting) continue;
      const run = await runPhase(ctx, workerDb, name, count, worker);
      phases.push(run);
      if (!run.complete) {
        console.log(`${target}: skipping the remaining phases (the last one did not drain in time)`);
        break;
      }
    }

    workerStopped = true;
    await worker.stop();

    // The floor: a bare Node client posting the same events, signed, to the same receiver.
    const measured = phases.find(({ phase, complete }) => complete && phase.name === "backlog") ?? phases.find(({ phase, complete }) => complete && phase.name === "burst");
    const bare =
      measured && !bench.exiting
        ? await bareClient(publisherDb.db, receiver, secret, measured.phase.slots.flatMap((slot) => (slot.eventId ? [slot.eventId] : [])), measured.phase.name)
        : null;

    // Recorded attempts per delivery, from the database (after the worker stopped: nothing in flight).
    const rows = await publisherDb.query<DeliveryRow>(`
      select d.event_id, d.status, d.attempts,
             count(a.id)::int as recorded, (count(a.id) filter (where a.ok))::int as ok
      from webhook_deliveries d left join webhook_attempts a on a.delivery_id = d.id
      group by d.id`);
    const failures = await publisherDb.query<{ error: string; n: number }>(`
      select coalesce(error, 'HTTP ' || status_code::text, 'unknown') as error, count(*)::int as n
      from webhook_attempts where not ok group by 1 order by 2 desc limit 10`);
    const rowsById = new Map<string, DeliveryRow[]>();
    for (const row of rows) rowsById.set(row.event_id, [...(rowsById.get(row.event_id) ?? []), row]);
    const arrivalsById = new Map<string, Arrival[]>();
    let unknownArrivals = 0;
    for (const arrival of receiver.arrivals.slice(firstArrival)) {
      if (!arrival.eventId || !ctx.byEventId.has(arrival.eventId)) {
        unknownArrivals += 1;
        continue;
      }
      arrivalsById.set(arrival.eventId, [...(arrivalsById.get(arrival.eventId) ?? []), arrival]);
    }
    return {
      target,
      setupSeconds,
      phases: phases.map(({ phase, complete }) => summarise(ctx, phase, complete, arrivalsById, rowsById, secret)),
      unknownArrivals,
      failedAttempts: Object.fromEntries(failures.map((f) => [f.error, f.n])),
      bare,
    };
  } finally {
    await unwind(mark);
  }
}

// ---------------------------------------------------------------------------------------------
// Report

function formatTable(results: PhaseResult[]): string {
  const header = [
    "target",
    "phase",
    "events",
    "published/s",
    "delivered/s",
    "p50 ms",
    "p99 ms",
    "max ms",
    "tx p99 ms",
    "arrivals≠1",
    "attempts≠1",
    "node CPU ms/evt",
    "pg CPU ms/evt",
  ];
  const rows = results.map((r) => [
    r.target,
    r.phase + (r.complete ? "" : " (incomplete)"),
    String(r.events),
    r.publishedPerSecond.toFixed(0),
    r.deliveriesPerSecond.toFixed(0),
    r.latencyMs ? r.latencyMs.p50.toFixed(1) : "n/a",
    r.latencyMs ? r.latencyMs.p99.toFixed(1) : "n/a",
    r.latencyMs ? r.latencyMs.max.toFixed(1) : "n/a",
    r.transactionMs ? r.transactionMs.p99.toFixed(1) : "n/a",
    String(r.missing + r.duplicated),
    String(r.deliveriesWithAttemptsNot1 + r.eventsWithoutOneDelivery),
    r.cpuMsPerEvent === null ? "n/a" : r.cpuMsPerEvent.toFixed(2),
    r.pgCpuMsPerEvent === null ? "n/a" : r.pgCpuMsPerEvent.toFixed(2),
  ]);
  return textTable(header, rows, 2);
}

function checkLines(target: TargetResult): string[] {
  const all = target.phases;
  const events = all.reduce((n, r) => n + r.events - r.publishErrors, 0);
  const once = all.every((r) => r.missing === 0 && r.duplicated === 0) && target.unknownArrivals === 0;
  const attempts = all.every((r) => r.deliveriesWithAttemptsNot1 === 0 && r.eventsWithoutOneDelivery === 0);
  const wire = all.every((r) => r.badSignature === 0 && r.notCanonical === 0 && r.contentMismatch === 0);
  const lines = [
    `${target.target}: every event arrived exactly once: ${once ? "yes" : "NO"} (${events} events incl. warm-up; ` +
      all.map((r) => `${r.phase}: missing ${r.missing}, duplicated ${r.duplicated}`).join("; ") +
      `; unknown ${target.unknownArrivals})`,
    `${target.target}: exactly 1 recorded attempt per delivery: ${attempts ? "yes" : "NO"} (` +
      all
        .map((r) => `${r.phase}: ${r.deliveries} deliveries, attempts per delivery ${JSON.stringify(r.attemptsPerDelivery)}, not delivered ${r.deliveriesNotDelivered}`)
        .join("; ") +
      ")",
    `${target.target}: signatures valid, bodies canonical, content matches the event: ${wire ? "yes" : "NO"}`,
  ];
  const failed = Object.entries(target.failedAttempts);
  if (failed.length) lines.push(`${target.target}: failed attempts (retried): ${failed.map(([error, n]) => `${n}× ${error}`).join("; ")}`);
  if (target.bare) {
    const b = target.bare;
    lines.push(
      `${target.target} bare client (floor): ${b.events} signed POSTs of the ${b.of} events at ${b.concurrency} in flight in ${b.seconds.toFixed(2)} s: ` +
        `${b.perSecond.toFixed(0)}/s, ${b.failed} failed, ${b.cpuMsPerEvent.toFixed(2)} ms CPU per request (client + receiver)`,
    );
    for (const r of all) {
      if (r.phase !== "burst" && r.phase !== "backlog") continue;
      const ratio = b.perSecond > 0 ? r.deliveriesPerSecond / b.perSecond : 0;
      lines.push(`${target.target} ${r.phase} delivered/s ÷ bare client: ${r.deliveriesPerSecond.toFixed(0)} / ${b.perSecond.toFixed(0)} = ${ratio.toFixed(2)} (target ≥ 0.5)`);
    }
  }
  for (const r of all) {
    if (r.phase === "warm-up") continue;
    lines.push(
      `${target.target} ${r.phase}: published ${r.events - r.publishErrors}/${r.events} in ${r.publishSeconds.toFixed(2)} s, ` +
        (r.phase === "backlog"
          ? `all arrived ${r.deliverySeconds.toFixed(2)} s after the worker started (every event was committed before); `
          : `all arrived ${r.deliverySeconds.toFixed(2)} s after the first publish (${r.drainAfterPublishSeconds.toFixed(2)} s after the last commit); `) +
        `latency${r.phase === "backlog" ? " (arrival − worker start)" : ""} mean ${r.latencyMs?.mean ?? "n/a"} / p90 ${r.latencyMs?.p90 ?? "n/a"} ms, ${r.over250ms} over 250 ms, ${r.over900ms} over 900 ms; ` +
        `tx p50 ${r.transactionMs?.p50 ?? "n/a"} ms`,
    );
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<boolean> {
  const startedAt = new Date();
  console.log(
    `bench:deliveries — steady ${config.events} events at ${config.rate}/s, burst ${config.burst} events from ${config.publishers} publishers, ` +
      `backlog ${config.backlog} events, worker concurrency ${config.concurrency} (at most ${endpointConcurrency} per endpoint: ${effectiveConcurrency} reach the receiver at once), ` +
      `poll ${workerPollMs} ms, pool ${config.poolMax} ×2, ${os.cpus().length} CPUs, Node ${process.version}`,
  );
  const loadBefore = os.loadavg();
  console.log(`load average before: ${loadBefore.map((v) => v.toFixed(2)).join(" ")} (other work on the machine skews every figure)`);

  const receiver = await startReceiver();
  defer("close receiver", () => receiver.close());
  console.log(`receiver on ${receiver.url}`);

  const targets: TargetResult[] = [await runTarget("postgres", receiver)];
  if (config.pglite && !bench.exiting) targets.push(await runTarget("pglite", receiver));

  const results = targets.flatMap((t) => t.phases.filter((r) => r.phase !== "warm-up"));
  console.log(
    `\nwebhook deliveries (ctf.deployed, competition format) — latency = arrival at the receiver − commit of the publishing transaction\n`,
  );
  console.log(formatTable(results));
  console.log("");
  for (const target of targets) for (const line of checkLines(target)) console.log(line);
  const loadAfter = os.loadavg();
  console.log(`load average after: ${loadAfter.map((v) => v.toFixed(2)).join(" ")}`);

  writeResults("deliveries", startedAt, {
    benchmark: "deliveries",
    startedAt: startedAt.toISOString(),
    event: "ctf.deployed",
    config: {
      concurrency: config.concurrency,
      endpointConcurrency,
      backlogEvents: config.backlog,
      steadyEvents: config.events,
      steadyRate: config.rate,
      burstEvents: config.burst,
      publishers: config.publishers,
      warmupEvents: config.warmup,
      poolMax: config.poolMax,
      workerPollMs,
      drainSeconds: config.drainSeconds,
      pglite: config.pglite,
    },
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAfter,
    },
    targets,
  });

  return targets.every((t) =>
    t.phases.every((r) => r.complete && r.missing === 0 && r.duplicated === 0 && r.deliveriesWithAttemptsNot1 === 0 && r.eventsWithoutOneDelivery === 0 && r.publishErrors === 0),
  );
}

await bench.finish(async () => ((await main()) ? 0 : 1));
