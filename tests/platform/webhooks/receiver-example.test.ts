import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { freePort } from "../../helpers/ports";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildWireMessage } from "@/lib/platform/pipeline/channels/webhook/format";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestResultWebhook } from "@/lib/platform/webhooks/endpoints";
import { stepRegistry } from "@/lib/registry/steps";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { settledDeliveries, waitUntil } from "../../helpers/delivery";
import { createTrainer } from "../../helpers/fixtures";

/**
 * The receiver example of docs/webhooks.md ("A receiver in Node"), taken from the page as it
 * is and run with Node against real deliveries of a test-result endpoint (a `whsec_` secret):
 * it verifies them with `standardwebhooks`, handles an event id once, and refuses a replay.
 */

const DOC = path.join(process.cwd(), "docs/webhooks.md");

function exampleFromDoc(): string {
  const match = fs.readFileSync(DOC, "utf8").match(/```js\n(\/\/ receiver\.mjs[\s\S]*?)```/);
  if (!match) throw new Error("docs/webhooks.md has no ```js block starting with // receiver.mjs");
  return match[1];
}

let database: TestDatabase;
let worker: EmbeddedWorker;
let child: ChildProcess | undefined;

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  vi.stubEnv("TEST_RESULT_RETRY_SCHEDULE", "200ms,200ms");
  database = await createTestDatabase();
  worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 50 });
  await worker.start();
});

afterAll(async () => {
  child?.kill();
  await worker?.stop();
  await database?.drop();
  vi.unstubAllEnvs();
});

/** Runs the doc's block with Node (ESM; bare imports resolve from the project's node_modules), collecting its stdout lines. */
function runExample(env: Record<string, string>): { lines: string[]; process: ChildProcess } {
  const lines: string[] = [];
  const started = spawn(process.execPath, ["--input-type=module", "--eval", exampleFromDoc()], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let rest = "";
  started.stdout!.on("data", (chunk: Buffer) => {
    const text = rest + chunk.toString("utf8");
    const parts = text.split("\n");
    rest = parts.pop() ?? "";
    lines.push(...parts);
  });
  started.stderr!.on("data", (chunk: Buffer) => lines.push(`stderr: ${chunk.toString("utf8")}`));
  return { lines, process: started };
}

describe("docs/webhooks.md: the receiver example", () => {
  it("verifies a real test.completed delivery with standardwebhooks, handles it once, and refuses a replay", async () => {
    const trainer = await createTrainer(database.db);
    const port = await freePort();
    const hook = await createTestResultWebhook(database.db, trainer.workspaceId, { url: `http://127.0.0.1:${port}/webhooks` });
    expect(hook.secret).toMatch(/^whsec_/);
    const example = runExample({ WEBHOOK_SECRET: hook.secret, PORT: String(port) });
    child = example.process;
    await waitUntil("the example to listen", async () => example.lines.find((line) => line.startsWith("listening on ") || line.startsWith("stderr:")));
    expect(example.lines).toEqual([`listening on ${port}`]);

    const event = await database.db.transaction((tx) =>
      publishEvent(tx, trainer.workspaceId, "test.completed", {
        test: "DOCRECV1",
        score: 80,
        correct: 4,
        questions: 5,
        recipient: { email: "doc@example.test", name: "Dóc Ünicode ✓" },
        domains: [{ id: 3, name: "Cloud", percent: 80, correct: 4, questions: 5 }],
        passed: true,
      }),
    );
    const [delivery] = await settledDeliveries(database.db, trainer.workspaceId, hook.id);
    expect(delivery).toMatchObject({ status: "delivered", event_id: event.id });
    expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, ok: true, status_code: 204 })]);
    expect(example.lines.slice(1).map((line) => JSON.parse(line))).toEqual([{ id: event.id, event: "test.completed" }]);

    const post = (message: { headers: Record<string, string>; body: string }) =>
      fetch(`http://127.0.0.1:${port}/webhooks`, { method: "POST", headers: message.headers, body: message.body });
    // The same event again, freshly signed (a retry, a redelivery): verified, answered 2xx, not handled twice.
    expect((await post(buildWireMessage(event, hook.secret))).status).toBe(204);
    expect(example.lines).toHaveLength(2);

    // The same message signed 10 minutes ago (a replay): refused with 401, not handled.
    const answer = await post(buildWireMessage(event, hook.secret, new Date(Date.now() - 10 * 60_000)));
    expect(answer.status).toBe(401);
    expect(await answer.text()).toMatch(/timestamp too old/);
    // Signed with another secret: refused too.
    expect((await post(buildWireMessage(event, "whsec_not-the-endpoint-secret"))).status).toBe(401);
    expect(example.lines).toHaveLength(2);
  });
});
