import { createHash, createHmac, randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { emailMessages, scheduledSteps } from "@/db/schema";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { createWebhook } from "@/lib/platform/webhooks/endpoints";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { captureLogs } from "../../helpers/logs";
import { startFakeInngest } from "../../helpers/fake-inngest";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool, type Receiver } from "../../helpers/receivers";
import { deliveriesOf } from "../../helpers/delivery";
import { queueEmails } from "@/lib/platform/pipeline/channels/email/queue";
import { scheduleStep } from "@/lib/ctf/steps";

/**
 * Drives the real /api/inngest route handlers the way Inngest Cloud does: the registration
 * PUT (which makes the SDK register the app with the Inngest API, here a fake on
 * 127.0.0.1), then signed execution requests with attempt numbers, retries and the failure
 * handler. Cloud mode: both keys set, INNGEST_DEV unset, so every execution request must
 * carry a valid X-Inngest-Signature.
 */

const SIGNING_KEY = `signkey-test-${randomBytes(32).toString("hex")}`;
/** 2 s: Inngest's retry-after header carries whole seconds. */
const STEP_MS = 2_000;

const fakeInngest = await startFakeInngest();
vi.stubEnv("INNGEST_DEV", "");
vi.stubEnv("INNGEST_SIGNING_KEY", SIGNING_KEY);
vi.stubEnv("INNGEST_SIGNING_KEY_FALLBACK", "");
vi.stubEnv("INNGEST_EVENT_KEY", "test-event-key");
vi.stubEnv("INNGEST_BASE_URL", fakeInngest.url);
vi.stubEnv("INNGEST_API_BASE_URL", "");
vi.stubEnv("INNGEST_EVENT_API_BASE_URL", "");
vi.stubEnv("INNGEST_SERVE_ORIGIN", "");
vi.stubEnv("INNGEST_SERVE_PATH", "");
vi.stubEnv("INNGEST_SWEEP_CRON", "*/7 * * * *");
vi.stubEnv("WEBHOOK_RETRY_STEP_MS", String(STEP_MS));
vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
vi.stubEnv("RESEND_API_KEY", "");
const route = await import("@/app/api/inngest/route");
const { eventNames } = await import("@/lib/platform/pipeline/executors/inngest");

const SERVE_URL = "http://localhost:3000/api/inngest";

let database: TestDatabase;
const receivers = receiverPool();

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await receivers.closeAll();
  await fakeInngest.close();
  await database?.drop();
  vi.unstubAllEnvs();
});

/** JSON with sorted keys (RFC 8785 for the plain values used here): what the SDK re-serialises to check a signature. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Inngest's request signature: t=<unix seconds>&s=<hex HMAC-SHA256 of body + t, keyed by the signing key without its signkey-…- prefix>. */
function sign(body: string, key = SIGNING_KEY, at = Math.floor(Date.now() / 1000)): string {
  const secret = key.replace(/^signkey-\w+-/, "");
  return `t=${at}&s=${createHmac("sha256", secret).update(body + String(at)).digest("hex")}`;
}

type Execution = { status: number; headers: Headers; body: any; text: string };

async function execute(fnId: string, payload: unknown, signature: string | null | ((body: string) => string) = sign): Promise<Execution> {
  const text = canonical(payload);
  const headers = new Headers({ "content-type": "application/json" });
  const value = typeof signature === "function" ? signature(text) : signature;
  if (value) headers.set("x-inngest-signature", value);
  const url = `${SERVE_URL}?fnId=${encodeURIComponent(fnId)}&stepId=step`;
  const response = await route.POST(new Request(url, { method: "POST", headers, body: text }), { params: Promise.resolve({}) });
  const body = await response.text();
  return { status: response.status, headers: response.headers, text: body, body: body ? JSON.parse(body) : undefined };
}

function runPayload(event: { name: string; data: Record<string, unknown>; id?: string }, attempt: number, maxAttempts: number, runId: string) {
  const full = { id: event.id ?? randomBytes(8).toString("hex"), ts: Date.now(), ...event };
  return {
    event: full,
    events: [full],
    steps: {},
    ctx: { run_id: runId, attempt, max_attempts: maxAttempts, disable_immediate_execution: false, use_api: false, stack: { stack: [], current: 0 } },
    version: 2,
  };
}

async function pendingDelivery(receiver: Receiver) {
  const trainer = await createTrainer(database.db);
  const hook = await createWebhook(
    database.db,
    trainer.workspaceId,
    { url: receiver.url, events: [], secret: `whsec_${randomBytes(18).toString("base64url")}` },
    "api",
  );
  await database.db.transaction((tx) =>
    publishEvent(tx, trainer.workspaceId, "challenge.published", {
      managed_ctf_id: "mctf_protocol",
      challenge_id: "chl_1",
      title: "Format strings",
      category: "pwn",
      platform_challenge_id: 7,
    }),
  );
  const [delivery] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);
  return { workspaceId: trainer.workspaceId, endpointId: hook.id, deliveryId: delivery.id };
}

type FunctionConfig = {
  id: string;
  name: string;
  triggers: { event?: string; cron?: string; expression?: string }[];
  steps: Record<string, { runtime: { type: string; url: string }; retries?: { attempts: number } }>;
  concurrency?: unknown;
};

describe("registration (PUT /api/inngest → POST /fn/register on the Inngest API)", () => {
  it("registers the app with the hashed signing key, every function with its trigger, concurrency key and retry count", async () => {
    const hashed = `signkey-test-${createHash("sha256").update(Buffer.from(SIGNING_KEY.replace(/^signkey-test-/, ""), "hex")).digest("hex")}`;
    fakeInngest.registerKey = hashed;
    const response = await route.PUT(new Request(SERVE_URL, { method: "PUT" }), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ modified: true });

    const [registration] = fakeInngest.registrations();
    expect(registration.status).toBe(200);
    expect(registration.headers.authorization).toBe(`Bearer ${hashed}`);
    const app = registration.body as { appName: string; url: string; framework: string; functions: FunctionConfig[] };
    expect(app.appName).toBe("certify");
    expect(app.url).toBe(SERVE_URL);
    expect(app.framework).toBe("nextjs");

    const byId = Object.fromEntries(app.functions.map((fn) => [fn.id, fn]));
    expect(Object.keys(byId).sort()).toEqual([
      "certify-deliver-webhook",
      "certify-deliver-webhook-failure",
      "certify-run-scheduled-step",
      "certify-run-scheduled-step-failure",
      "certify-send-email",
      "certify-send-email-failure",
      "certify-sweep-outbox",
    ]);
    const attempts = (fn: FunctionConfig) => fn.steps.step.retries?.attempts;
    const stepUrl = (fn: FunctionConfig) => new URL(fn.steps.step.runtime.url);

    const webhook = byId["certify-deliver-webhook"];
    expect(webhook.triggers).toEqual([{ event: eventNames.delivery }]);
    // Enough for a test result's schedule (8 attempts by default); a competition delivery stops after 3 (below).
    expect(attempts(webhook)).toBe(7);
    expect(webhook.concurrency).toEqual({ key: "event.data.endpointId", limit: 4 });
    expect(stepUrl(webhook).searchParams.get("fnId")).toBe("certify-deliver-webhook");
    expect(stepUrl(webhook).pathname).toBe("/api/inngest");

    expect(byId["certify-send-email"].triggers).toEqual([{ event: eventNames.email }]);
    expect(attempts(byId["certify-send-email"])).toBe(7);
    expect(byId["certify-run-scheduled-step"].triggers).toEqual([{ event: eventNames.step }]);
    expect(attempts(byId["certify-run-scheduled-step"])).toBe(2);
    // The sweep's cadence comes from INNGEST_SWEEP_CRON.
    expect(byId["certify-sweep-outbox"].triggers).toEqual([{ cron: "*/7 * * * *" }]);
    expect(attempts(byId["certify-sweep-outbox"])).toBe(0);

    // Every function records its outcome when Inngest gives up: a failure handler triggered by
    // inngest/function.failed for that function.
    for (const id of ["certify-deliver-webhook", "certify-send-email", "certify-run-scheduled-step"]) {
      const failure = byId[`${id}-failure`];
      expect(failure.triggers).toEqual([{ event: "inngest/function.failed", expression: `event.data.function_id == '${id}'` }]);
      expect(stepUrl(failure).searchParams.get("fnId")).toBe(`${id}-failure`);
    }
  });

  it("reports a registration the Inngest API refuses (a wrong signing key) instead of claiming success", async () => {
    fakeInngest.registerKey = "signkey-test-someone-else";
    try {
      const response = await route.PUT(new Request(SERVE_URL, { method: "PUT" }), { params: Promise.resolve({}) });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ message: "Invalid signing key", modified: false });
      expect(fakeInngest.registrations().at(-1)?.status).toBe(401);
    } finally {
      fakeInngest.registerKey = undefined;
    }
  });
});

describe("signed execution requests (POST /api/inngest?fnId=…&stepId=step)", () => {
  it("runs the webhook function's 3-attempt schedule against a failing receiver, then its failure handler", async () => {
    const receiver = await receivers.start({ kind: "status", status: 500 }, "protocol-500");
    const { deliveryId, endpointId, workspaceId } = await pendingDelivery(receiver);
    const event = { name: eventNames.delivery, id: deliveryId, data: { deliveryId, endpointId } };
    const runId = `01RUN${randomBytes(8).toString("hex").toUpperCase()}`;

    // Attempts 0 and 1: the SDK answers 500, asks for a retry (no-retry false) after step × n.
    for (const attempt of [0, 1]) {
      const answer = await execute("certify-deliver-webhook", runPayload(event, attempt, 3, runId));
      expect(answer.status).toBe(500);
      expect(answer.headers.get("x-inngest-no-retry")).toBe("false");
      expect(answer.headers.get("retry-after")).toBe(String((STEP_MS * (attempt + 1)) / 1000));
      expect(answer.body).toMatchObject({ name: "RetryAfterError", message: "HTTP 500" });
      // The response is signed with the same key, so Inngest can trust it.
      const signature = new URLSearchParams(answer.headers.get("x-inngest-signature") ?? "");
      expect(sign(answer.text, SIGNING_KEY, Number(signature.get("t")))).toBe(answer.headers.get("x-inngest-signature"));
      const [delivery] = await deliveriesOf(database.db, workspaceId, endpointId);
      expect(delivery.status).toBe("pending");
      expect(delivery.attempts).toHaveLength(attempt + 1);
      expect(receiver.requests).toHaveLength(attempt + 1);
    }

    // Attempt 2, the last: the third POST fails, the run fails for good (400, no retry).
    const last = await execute("certify-deliver-webhook", runPayload(event, 2, 3, runId));
    expect(last.status).toBe(400);
    expect(last.headers.get("x-inngest-no-retry")).toBe("true");
    expect(last.headers.get("retry-after")).toBeNull();
    expect(last.body).toMatchObject({ name: "NonRetriableError", message: expect.stringContaining("dropped after attempt 3: HTTP 500") });
    expect(receiver.requests).toHaveLength(3);

    // Inngest then sends inngest/function.failed to the failure handler, which records the outcome.
    const failed = {
      name: "inngest/function.failed",
      data: { function_id: "certify-deliver-webhook", run_id: runId, error: last.body, event: { ...event, ts: Date.now() } },
    };
    const onFailure = await execute("certify-deliver-webhook-failure", runPayload(failed, 0, 1, `01FAIL${runId.slice(5)}`));
    expect(onFailure.status).toBe(200);
    expect(onFailure.body).toMatchObject({ recorded: true, dropped: deliveryId });
    const [delivery] = await deliveriesOf(database.db, workspaceId, endpointId);
    expect(delivery.status).toBe("dropped");
    expect(delivery.attempts.map((a: { status_code: number | null }) => a.status_code)).toEqual([500, 500, 500]);
    // Nothing more reached the receiver.
    expect(receiver.requests).toHaveLength(3);
  });

  it("the failure handler drops a delivery whose run Inngest gave up on before its attempts were used", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "protocol-gave-up");
    const { deliveryId, endpointId, workspaceId } = await pendingDelivery(receiver);
    const failed = {
      name: "inngest/function.failed",
      data: {
        function_id: "certify-deliver-webhook",
        run_id: "01GAVEUP",
        error: { name: "Error", message: "function timed out" },
        event: { name: eventNames.delivery, id: deliveryId, ts: Date.now(), data: { deliveryId, endpointId } },
      },
    };
    const answer = await execute("certify-deliver-webhook-failure", runPayload(failed, 0, 1, "01GAVEUPFAIL"));
    expect(answer.status).toBe(200);
    const [delivery] = await deliveriesOf(database.db, workspaceId, endpointId);
    expect(delivery.status).toBe("dropped");
    expect(receiver.requests).toHaveLength(0);
  });

  it("the e-mail and scheduled-step failure handlers record the outcome with the reason", async () => {
    const trainer = await createTrainer(database.db);
    const queued = await database.db.transaction((tx) =>
      queueEmails(tx, [{ kind: "sign_in", to: "given-up@example.test", subject: "Sign in", html: "<p>Sign in</p>", text: "Sign in" }]),
    );
    const ids = queued.map((row) => row.id);
    const emailFailed = {
      name: "inngest/function.failed",
      data: {
        function_id: "certify-send-email",
        run_id: "01MAILRUN",
        error: { name: "Error", message: "connection terminated" },
        event: { name: eventNames.email, id: "emails-x", ts: Date.now(), data: { ids } },
      },
    };
    const mail = await execute("certify-send-email-failure", runPayload(emailFailed, 0, 1, "01MAILFAIL"));
    expect(mail.status).toBe(200);
    const rows = await database.db.select().from(emailMessages).where(inArray(emailMessages.id, ids));
    expect(rows.map((row) => [row.status, row.lastError])).toEqual([["dropped", "Inngest run failed: connection terminated"]]);

    const step = await database.db.transaction((tx) => scheduleStep(tx, trainer.workspaceId, "ctf.deploy", { ctfId: "ctf_given_up" }, new Date()));
    const stepFailed = {
      name: "inngest/function.failed",
      data: {
        function_id: "certify-run-scheduled-step",
        run_id: "01STEPRUN",
        error: { name: "Error", message: "platform unavailable" },
        event: { name: eventNames.step, id: step.id, ts: Date.now(), data: { stepId: step.id, runAt: step.runAt.toISOString() } },
      },
    };
    const stepAnswer = await execute("certify-run-scheduled-step-failure", runPayload(stepFailed, 0, 1, "01STEPFAIL"));
    expect(stepAnswer.status).toBe(200);
    const [row] = await database.db.select().from(scheduledSteps).where(eq(scheduledSteps.id, step.id));
    expect(row).toMatchObject({ status: "failed", lastError: "Inngest run failed: platform unavailable" });
    expect(row.completedAt).not.toBeNull();
  });

  it("refuses a payload that fails its event schema without a retry (NonRetriableError)", async () => {
    const answer = await execute("certify-deliver-webhook", runPayload({ name: eventNames.delivery, data: { deliveryId: 42 } }, 0, 3, "01BADSCHEMA"));
    expect(answer.status).toBe(400);
    expect(answer.headers.get("x-inngest-no-retry")).toBe("true");
    expect(answer.body.message).toMatch(/deliveryId/);
  });

  it("fails a run for a row that no longer exists without a retry", async () => {
    const answer = await execute(
      "certify-deliver-webhook",
      runPayload({ name: eventNames.delivery, data: { deliveryId: "dlv_gone", endpointId: "whk_gone" } }, 0, 3, "01GONE"),
    );
    expect(answer.status).toBe(400);
    expect(answer.headers.get("x-inngest-no-retry")).toBe("true");
    expect(answer.body).toMatchObject({ name: "NonRetriableError", message: "delivery dlv_gone no longer exists" });
  });

  it("chains sleeps longer than Inngest allows: the first answer is a sleep of at most INNGEST_MAX_SLEEP_MS", async () => {
    vi.stubEnv("INNGEST_MAX_SLEEP_MS", String(24 * 3_600_000));
    try {
      const trainer = await createTrainer(database.db);
      const runAt = new Date(Date.now() + 2.5 * 24 * 3_600_000);
      const step = await database.db.transaction((tx) => scheduleStep(tx, trainer.workspaceId, "ctf.deploy", { ctfId: "ctf_later" }, runAt));
      const event = { name: eventNames.step, data: { stepId: step.id, runAt: runAt.toISOString() } };
      const answer = await execute("certify-run-scheduled-step", runPayload(event, 0, 3, "01SLEEP"));
      expect(answer.status).toBe(206);
      const [op] = answer.body as { op: string; name?: string; displayName?: string; opts?: { duration?: string } }[];
      expect(op.op).toBe("Sleep");
      expect(op.displayName).toBe("until-due-hop-1");
      // One day from the event's timestamp, not the 2.5 days to the due time.
      const wakeAt = new Date(op.name!).getTime();
      expect(wakeAt).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
      expect(wakeAt).toBeGreaterThan(Date.now() + 23 * 3_600_000);
      const [row] = await database.db.select().from(scheduledSteps).where(eq(scheduledSteps.id, step.id));
      expect(row.status).toBe("pending");
    } finally {
      vi.stubEnv("INNGEST_MAX_SLEEP_MS", "");
    }
  });

  it("refuses unsigned, wrongly signed and stale requests (401) and runs nothing", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "protocol-unsigned");
    const { deliveryId, endpointId, workspaceId } = await pendingDelivery(receiver);
    const payload = runPayload({ name: eventNames.delivery, data: { deliveryId, endpointId } }, 0, 3, "01FORGED");
    const forgedKey = `signkey-test-${randomBytes(32).toString("hex")}`;
    const stale = Math.floor(Date.now() / 1000) - 10 * 60;

    for (const signature of [null, (body: string) => sign(body, forgedKey), (body: string) => sign(body, SIGNING_KEY, stale), () => "t=1&s=00"]) {
      const answer = await execute("certify-deliver-webhook", payload, signature);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("x-inngest-signature")).toBeNull();
    }
    // A body altered after signing is refused too.
    const text = canonical(payload);
    const tampered = await route.POST(
      new Request(`${SERVE_URL}?fnId=certify-deliver-webhook&stepId=step`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-inngest-signature": sign(text) },
        body: text.replace(deliveryId, `${deliveryId}x`),
      }),
      { params: Promise.resolve({}) },
    );
    expect(tampered.status).toBe(401);

    expect(receiver.requests).toHaveLength(0);
    const [delivery] = await deliveriesOf(database.db, workspaceId, endpointId);
    expect(delivery).toMatchObject({ status: "pending", attempts: [] });
  });
});

describe("/api/inngest when Inngest is not (fully) configured", () => {
  it("answers 404 with the embedded worker and 503 when half configured, without running anything", async () => {
    const payload = runPayload({ name: eventNames.delivery, data: { deliveryId: "dlv_x", endpointId: "whk_x" } }, 0, 3, "01OFF");
    const logs = captureLogs();
    try {
      vi.stubEnv("INNGEST_SIGNING_KEY", "");
      const half = await execute("certify-deliver-webhook", payload);
      expect(half.status).toBe(503);
      expect(half.body.error).toMatchObject({ code: "service_unavailable" });
      expect(JSON.stringify(half.body)).not.toContain("INNGEST_");
      // The log names what is missing (the ConfigError's problems), the response does not.
      expect(logs.lines).toContainEqual(
        expect.objectContaining({ level: "error", context: "config", problems: [{ variable: "INNGEST_SIGNING_KEY", message: expect.stringContaining("INNGEST_SIGNING_KEY is not") }] }),
      );

      vi.stubEnv("INNGEST_EVENT_KEY", "");
      const embedded = await route.PUT(new Request(SERVE_URL, { method: "PUT" }), { params: Promise.resolve({}) });
      expect(embedded.status).toBe(404);
    } finally {
      logs.restore();
      vi.stubEnv("INNGEST_SIGNING_KEY", SIGNING_KEY);
      vi.stubEnv("INNGEST_EVENT_KEY", "test-event-key");
    }
  });
});
