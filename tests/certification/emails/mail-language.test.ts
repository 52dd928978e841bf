import { and, eq, inArray, sql } from "drizzle-orm";
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificates, emailMessages, tests, workspaces } from "@/db/schema";
import { sendReminders, sendResultEmail } from "@/lib/certification/tests/follow-up";
import { resendRecipient } from "@/lib/certification/tests/tests";
import { createClass } from "@/lib/certification/classes/classes";
import { certificateLocale } from "@/lib/certification/certificates/pdf";
import { submitTest } from "@/lib/certification/taking/taking";
import { setPlan } from "@/lib/platform/workspaces";
import type { Locale } from "@/lib/platform/i18n/locales";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as pdfRoute from "@/app/certificates/[id]/pdf/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { answerAll, tokenOf } from "../../helpers/taking";
import { certificateIdOf, finish, sendTest } from "../certificates/passing";

/**
 * Which language each e-mail about a test is written in (on PGlite and PostgreSQL): a test's
 * fixed language; for an `auto` test the workspace's default_language (an e-mail has no browser
 * to ask), read in the transaction that queues it — invitations, a resend, the reminder and the
 * result alike. Class invitations follow the workspace's default; the certificate's PDF follows
 * the test as its result e-mail did.
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

const setDefault = (locale: Locale) => database.db.update(workspaces).set({ defaultLanguage: locale }).where(eq(workspaces.id, trainer.workspaceId));

let counter = 0;
async function newTest(settings: Record<string, unknown>) {
  const made = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: {
      certification_id: certificationId,
      domains: domainIds.slice(0, 2),
      questions: 2,
      recipients: [{ email: `lang${++counter}@example.com`, name: "Ada" }],
      send_email: true,
      ...settings,
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const [row] = await database.db.select().from(tests).where(eq(tests.code, made.body.code));
  const [person] = made.body.recipients as { id: number; email: string; link: string }[];
  return { code: made.body.code as string, testId: row.id, person };
}

const mailsOf = (recipientId: number, kind: string) =>
  database.db
    .select()
    .from(emailMessages)
    .where(and(eq(emailMessages.recipientId, recipientId), eq(emailMessages.kind, kind)))
    .orderBy(emailMessages.createdAt);

describe("a test's e-mails", () => {
  it("an auto test writes in the workspace's default language; a fixed one in its own, whatever the default", async () => {
    await setDefault("de");
    const auto = await newTest({ name: "Auto quiz" });
    const french = await newTest({ name: "Quiz du vendredi", language: "fr" });
    const [autoMail] = await mailsOf(auto.person.id, "test_invitation");
    const [frenchMail] = await mailsOf(french.person.id, "test_invitation");
    expect(autoMail.subject).toBe("Ihr Übungstest: Auto quiz");
    expect(autoMail.html).toContain(' lang="de"><head>');
    expect(autoMail.text).toContain("Guten Tag Ada,");
    expect(autoMail.text).toContain(auto.person.link);
    expect(frenchMail.subject).toBe("Votre test d’entraînement\u00a0: Quiz du vendredi");
    expect(frenchMail.text).toContain("Bonjour Ada,");

    // A resend reads the default again, in its own transaction: changed since, the new one.
    await setDefault("es");
    await resendRecipient(database.db, trainer.workspaceId, auto.code, auto.person.id);
    const resent = await mailsOf(auto.person.id, "test_invitation");
    expect(resent.map((mail) => mail.subject)).toEqual(["Ihr Übungstest: Auto quiz", "Tu prueba de práctica: Auto quiz"]);
  });

  it("an English workspace's auto test is as it always was", async () => {
    await setDefault("en");
    const plain = await newTest({ name: "Plain quiz", time_limit_minutes: 30 });
    const [mail] = await mailsOf(plain.person.id, "test_invitation");
    expect(mail.subject).toBe("Your practice test: Plain quiz");
    expect(mail.text).toContain("Hello Ada,");
    expect(mail.text).toContain("Time limit: 30 minutes from when you press Start.");
  });

  it("the reminder and the result follow the test's language (settings and dates too)", async () => {
    await setDefault("en");
    const spanish = await newTest({ name: "Prueba", language: "es", reminder_after_hours: 1, time_limit_minutes: 90 });
    await database.db.execute(sql`update recipients set sent_at = sent_at - interval '2 hours' where test_id = ${spanish.testId}`);
    expect(await sendReminders(database.db, spanish.testId)).toBe(1);
    const [reminder] = await mailsOf(spanish.person.id, "test_reminder");
    expect(reminder.subject).toBe("Recordatorio: Prueba");
    expect(reminder.text).toContain("te envió una prueba de práctica que aún no has hecho");
    expect(reminder.text).toContain("Tiempo límite: 90 minutos");

    await setDefault("fr");
    const closesAt = new Date(Date.now() + 3 * 86_400_000);
    const later = await newTest({ name: "Quiz final", show_answers: "after_close", closes_at: closesAt.toISOString() });
    await answerAll(database.db, tokenOf(later.person.link));
    await submitTest(database.db, tokenOf(later.person.link));
    await sendResultEmail(database.db, later.person.id);
    const [result] = await mailsOf(later.person.id, "test_result");
    expect(result.subject).toBe("Votre résultat\u00a0: Quiz final");
    expect(result.text).toMatch(/100\u00a0% — 2 bonnes réponses sur 2/);
    const day = new Intl.DateTimeFormat("fr", { dateStyle: "medium", timeZone: "UTC" }).format(closesAt);
    expect(result.text).toContain(`Les bonnes réponses et les explications seront visibles via votre lien à partir du ${day}`);
  });
});

describe("a class invitation", () => {
  it("is in the workspace's default language", async () => {
    await setDefault("de");
    const email = `student${++counter}@example.com`;
    await createClass(database.db, trainer.workspaceId, { name: "Netzwerke 1", certification_id: certificationId, emails: [{ email, name: "Grace" }] });
    const [mail] = await database.db.select().from(emailMessages).where(and(eq(emailMessages.to, email), eq(emailMessages.kind, "class_invitation")));
    expect(mail.subject).toBe("Einladung in den Kurs Netzwerke 1");
    expect(mail.html).toContain(' lang="de"><head>');
    expect(mail.text).toContain("Guten Tag Grace,");
    expect(mail.text).toMatch(/hat Sie in den Kurs Netzwerke 1 \(.+\) eingeladen/);
    expect(mail.text).toContain("/join/");
  });
});

/** The decoded content streams of a PDF's first page (the standard fonts write text as WinAnsi hex strings). */
function pageText(pdf: PDFDocument): string {
  const contents = pdf.getPage(0).node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => pdf.context.lookup(ref)) : [contents];
  return streams.map((stream) => Buffer.from(decodePDFRawStream(stream as PDFRawStream).decode()).toString("latin1")).join("\n");
}
const hex = (text: string) => Buffer.from(text, "latin1").toString("hex").toUpperCase();

describe("the certificate's PDF", () => {
  it("speaks the test's language (the workspace's default for auto); names as written", async () => {
    await setDefault("es");
    const spanish = await sendTest(database.db, trainer, ["José Núñez"]);
    const german = await sendTest(database.db, trainer, ["Jürgen Weiß"], { language: "de" });
    const spanishUrl = (await finish(database.db, spanish.people[0].token, 3)).certificate_url!;
    const germanUrl = (await finish(database.db, german.people[0].token, 4)).certificate_url!;
    const [spanishRow] = await database.db.select().from(certificates).where(inArray(certificates.id, [certificateIdOf(spanishUrl)]));
    expect(await certificateLocale(database.db, spanishRow)).toBe("es");

    const pdfOf = async (url: string) => {
      const id = certificateIdOf(url);
      const response = await pdfRoute.GET(new Request(`http://localhost/certificates/${id}/pdf`), { params: Promise.resolve({ id }) });
      return PDFDocument.load(new Uint8Array(await response.arrayBuffer()));
    };
    const spanishPdf = await pdfOf(spanishUrl);
    expect(spanishPdf.getTitle()).toBe("Certificado: José Núñez — Security+ mock exam");
    for (const text of ["Certificado de aprovechamiento", "Se certifica que", "José Núñez", "ha aprobado Security+ mock exam", "con una puntuación del 75\u00a0% el"]) {
      expect(pageText(spanishPdf)).toContain(hex(text));
    }
    const germanPdf = await pdfOf(germanUrl);
    for (const text of ["Leistungszertifikat", "Hiermit wird bescheinigt, dass", "Jürgen Weiß", "den Test „Security+ mock exam“", "mit 100\u00a0% bestanden hat."]) {
      expect(pageText(germanPdf)).toContain(hexWinAnsi(text));
    }
  });
});

/** WinAnsi for the few characters beyond Latin-1 used above (German quotes). */
function hexWinAnsi(text: string): string {
  const map: Record<string, number> = { "„": 0x84, "“": 0x93 };
  return Buffer.from([...text].map((char) => map[char] ?? char.charCodeAt(0))).toString("hex").toUpperCase();
}

describe("a test's language field", () => {
  it("defaults to auto, is shown on every read, and anything but auto, en, de, fr, es is a 422 naming language that creates nothing", async () => {
    const made = await newTest({});
    const [row] = await database.db.select({ language: tests.language }).from(tests).where(eq(tests.code, made.code));
    expect(row.language).toBe("auto");
    const [before] = await database.db.select({ n: sql<number>`count(*)::int` }).from(tests).where(eq(tests.workspaceId, trainer.workspaceId));
    for (const wrong of ["it", "DE", "", null, 7, "en-GB"]) {
      const refused = await call(testsRoute.POST, "/api/v1/tests", {
        method: "POST",
        key: trainer.secret,
        body: { certification_id: certificationId, domains: domainIds.slice(0, 1), questions: 1, language: wrong, send_email: false },
      });
      expect(refused.status, String(wrong)).toBe(422);
      expect(refused.body.error.fields.map((field: { field: string }) => field.field)).toContain("language");
    }
    const [after] = await database.db.select({ n: sql<number>`count(*)::int` }).from(tests).where(eq(tests.workspaceId, trainer.workspaceId));
    expect(after.n).toBe(before.n);
    const listed = await call(testsRoute.GET, "/api/v1/tests", { key: trainer.secret });
    expect(listed.body.data.find((test: { code: string }) => test.code === made.code).language).toBe("auto");
  });
});
