import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailMessages, recipients, tests } from "@/db/schema";
import { sendReminders } from "@/lib/certification/tests/follow-up";
import { setPlan } from "@/lib/platform/workspaces";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as recipientsRoute from "@/app/api/v1/tests/[code]/recipients/route";
import * as resendRoute from "@/app/api/v1/tests/[code]/recipients/[id]/resend/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";

/**
 * send_email: false hands the personal links to the caller: the recipient keeps the
 * specification's `sent` status, but the view does not claim an e-mail went out (sent_at null,
 * email_delivery not_sent), no reminder goes to them, and a resend is then their first real e-mail.
 */

let database: TestDatabase;
let trainer: Trainer;
let certificationId: number;
let domainIds: number[];

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  ({ certificationId, domainIds } = await catalogCertification(database.db));
});
afterAll(() => database.drop());

type Person = { id: number; email: string; status: string; sent_at: string | null; last_emailed_at: string | null; email_delivery: { status: string } };

const readTest = async (code: string) => {
  const read = await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } });
  expect(read.status).toBe(200);
  return read.body.recipients as Person[];
};
const mailsTo = (recipientId: number) => database.db.select().from(emailMessages).where(eq(emailMessages.recipientId, recipientId));
/** A one-question test with a reminder after an hour, to `recipients`, e-mailed or not. */
const createTest = (recipients: { email: string; name?: string }[], sendEmail: boolean) =>
  call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: { certification_id: certificationId, domains: domainIds.slice(0, 1), questions: 1, reminder_after_hours: 1, recipients, send_email: sendEmail },
  });

describe("links handed over (send_email: false)", () => {
  it("are sent, not e-mailed: sent_at null and email_delivery not_sent, in the answer and in every read", async () => {
    const made = await createTest([{ email: "handed@example.com", name: "Handed" }], false);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const [created] = made.body.recipients as Person[];
    expect(created).toMatchObject({ status: "sent", sent_at: null, last_emailed_at: null, email_delivery: { status: "not_sent" } });
    expect((await readTest(made.body.code))[0]).toMatchObject({ status: "sent", sent_at: null, email_delivery: { status: "not_sent" } });

    const added = await call(recipientsRoute.POST, `/api/v1/tests/${made.body.code}/recipients`, {
      method: "POST",
      key: trainer.secret,
      params: { code: made.body.code },
      body: { recipients: [{ email: "also-handed@example.com" }], send_email: false },
    });
    expect(added.status).toBe(201);
    expect(added.body.data[0]).toMatchObject({ status: "sent", sent_at: null, email_delivery: { status: "not_sent" } });
    expect(await mailsTo(created.id)).toEqual([]);
  });

  it("get no reminder; a resend e-mails the link, sets sent_at and the e-mail's status", async () => {
    const made = await createTest([{ email: "emailed@example.com" }], true);
    expect(made.status).toBe(201);
    const code: string = made.body.code;
    const added = await call(recipientsRoute.POST, `/api/v1/tests/${code}/recipients`, {
      method: "POST",
      key: trainer.secret,
      params: { code },
      body: { recipients: [{ email: "link-only@example.com" }], send_email: false },
    });
    const handed = added.body.data[0] as Person;
    const [test] = await database.db.select().from(tests).where(eq(tests.code, code));

    // Hours later the reminder goes to the one who was e-mailed, never to the link handed over.
    await database.db.execute(sql`update recipients set sent_at = sent_at - interval '2 hours' where test_id = ${test.id}`);
    expect(await sendReminders(database.db, test.id)).toBe(1);
    expect((await mailsTo(handed.id)).filter((mail) => mail.kind === "test_reminder")).toEqual([]);

    const before = Date.now();
    const resent = await call(resendRoute.POST, "/resend", { method: "POST", key: trainer.secret, params: { code, id: String(handed.id) } });
    expect(resent.status).toBe(202);
    const after = (await readTest(code)).find((person) => person.id === handed.id)!;
    expect(after.status).toBe("sent");
    expect(after.email_delivery.status).toBe("queued");
    expect(after.sent_at).not.toBeNull();
    // The first real e-mail is its send time (not when the link was handed over).
    expect(Date.parse(after.sent_at!)).toBeGreaterThanOrEqual(before - 1_000);
    expect(after.last_emailed_at).toBe(after.sent_at);
    expect((await mailsTo(handed.id)).map((mail) => mail.kind)).toEqual(["test_invitation"]);
    const [row] = await database.db.select().from(recipients).where(eq(recipients.id, handed.id));
    expect(row.remindedAt).toBeNull();
  });
});
