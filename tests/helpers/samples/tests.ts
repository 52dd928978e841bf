import { createClass } from "@/lib/certification/classes/classes";
import { createClassInput } from "@/lib/certification/classes/schemas";
import { saveAnswer, startTest } from "@/lib/certification/taking/taking";
import { createTestInput } from "@/lib/certification/tests/schemas";
import { createTest } from "@/lib/certification/tests/tests";
import { setPlan } from "@/lib/platform/workspaces";
import type { Db } from "@/db";
import type { Trainer } from "../fixtures";
import { someAnswer, startAndOpen } from "../taking";
import { multipleResponseAttempt } from "./certification";
import { catalogCertification, freshEmail, ownCertification } from "./common";
import type { Samples } from "./types";

/** A test of the trainer's, sent (without e-mail) to one fresh recipient. */
export async function ownTest(db: Db, trainer: Trainer) {
  await setPlan(db, trainer.workspaceId, "pro");
  const { id, domainIds } = await catalogCertification(db);
  const test = await createTest(
    db,
    trainer.workspaceId,
    createTestInput.parse({ certification_id: id, domains: domainIds.slice(0, 2), questions: 2, recipients: [{ email: freshEmail(), name: "R" }], send_email: false }),
  );
  const recipient = test.recipients[0];
  return { code: test.code, id: String(recipient.id), token: new URL(recipient.link, "http://localhost").pathname.split("/").pop()! };
}

/** A recipient's token with every question answered, ready to submit. */
async function answeredTest(db: Db, trainer: Trainer) {
  const { token } = await ownTest(db, trainer);
  const view = await startAndOpen(db, token);
  for (const question of view.questions) await saveAnswer(db, token, someAnswer(question));
  return { token };
}

/** A new test with every setting given, so the fuzzer varies each of them too. */
const newTestBody = async (db: Db) => {
  const { id, domainIds } = await catalogCertification(db);
  return {
    certification_id: id,
    domains: domainIds.slice(0, 1),
    questions: 2,
    recipients: [{ email: freshEmail(), name: "A" }],
    send_email: false,
    name: "Weekly check",
    time_limit_minutes: 30,
    opens_at: "2025-01-01T08:00:00Z",
    closes_at: "2099-01-01T08:00:00Z",
    pass_mark: 70,
    shuffle_options: true,
    show_answers: "after_close",
    reminder_after_hours: 24,
    send_result: true,
  };
};

export const testSamples: Samples = {
  "tests.list": {},
  "tests.create": {
    body: ({ db }) => newTestBody(db),
    foreignBodies: async ({ db, stranger }) => {
      await setPlan(db, stranger.workspaceId, "pro");
      const theirs = await ownCertification(db, stranger);
      const catalog = await catalogCertification(db);
      const klass = await createClass(db, stranger.workspaceId, createClassInput.parse({ name: "Theirs", certification_id: catalog.id, emails: [] }));
      const { recipients: _people, ...toClass } = await newTestBody(db);
      return {
        certification_id: { ...(await newTestBody(db)), certification_id: theirs.id, domains: [theirs.domainId] },
        class_id: { ...toClass, class_id: klass.id },
      };
    },
  },
  "tests.get": { params: ({ db }, trainer) => ownTest(db, trainer).then(({ code }) => ({ code })) },
  "tests.recipients.add": {
    params: ({ db }, trainer) => ownTest(db, trainer).then(({ code }) => ({ code })),
    body: () => ({ recipients: [{ email: freshEmail() }], send_email: false }),
  },
  "tests.recipients.resend": { params: ({ db }, trainer) => ownTest(db, trainer).then(({ code, id }) => ({ code, id })) },
  // A fresh test per call: at most one resend to all per test every 10 minutes.
  "tests.resend_all": { params: ({ db }, trainer) => ownTest(db, trainer).then(({ code }) => ({ code })), body: () => ({ status: "not_completed" }) },
  "tests.recipients.answers": { params: ({ db }, trainer) => ownTest(db, trainer).then(({ code, id }) => ({ code, id })) },
  "tests.recipients.update": {
    params: ({ db }, trainer) => ownTest(db, trainer).then(({ code, id }) => ({ code, id })),
    body: () => ({ name: "Renamed", extra_time_minutes: 15 }),
  },
  "tests.analysis": { params: ({ db }, trainer) => ownTest(db, trainer).then(({ code }) => ({ code })) },
  "tests.export": { params: ({ db }, trainer) => ownTest(db, trainer).then(({ code }) => ({ code })) },
  "taking.start": { params: ({ db }, trainer) => ownTest(db, trainer).then(({ token }) => ({ token })) },
  // A multiple-response question (issue 23), answered with `options`; the single-answer `option` is the route table's and the other suites' everyday case.
  "taking.answer": {
    params: ({ db }, trainer) => multipleResponseAttempt(db, trainer),
    body: async ({ db }, _trainer, params) => ({ question_id: (await startAndOpen(db, params.token)).questions[0].id, options: [0, 1] }),
  },
  "taking.submit": { params: ({ db }, trainer) => answeredTest(db, trainer) },
  "taking.events": {
    params: async ({ db }, trainer) => {
      const { token } = await ownTest(db, trainer);
      await startTest(db, token);
      return { token };
    },
    body: () => ({ events: [{ type: "opened" }, { type: "hidden", ms: 1500 }, { type: "copy" }, { type: "fullscreen_exit" }] }),
  },
};
