import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it } from "vitest";
import { messagesOf } from "@/lib/platform/i18n/messages";
import type { Locale } from "@/lib/platform/i18n/locales";
import type { StudentTest } from "@/lib/certification/students/area";
import { CertificateVerification } from "@/components/certificates/certificate-verification";
import { StudentClasses } from "@/components/student/student-classes";
import { StudentTests } from "@/components/student/student-tests";
import type { CertificateView } from "@/lib/certification/certificates/schemas";

/**
 * The pages that go with these e-mails — a certificate's verification page, the student
 * area — in the reader's language (`locale`, from their browser on those pages), with names as
 * written. English is as it was.
 */

const certificate: CertificateView = {
  id: "AAAAAAAAAAAAAAAAAAAAAA",
  status: "revoked",
  url: "https://certify.example/certificates/AAAAAAAAAAAAAAAAAAAAAA",
  pdf_url: "https://certify.example/certificates/AAAAAAAAAAAAAAAAAAAAAA/pdf",
  credential_url: "https://certify.example/certificates/AAAAAAAAAAAAAAAAAAAAAA/credential",
  recipient_name: "Jürgen Weiß",
  test_name: "Security+ mock exam",
  certification: "CompTIA Security+",
  score: 87.5,
  organisation: "Acme Academy",
  signer: "",
  issued_at: "2026-11-26T10:00:00.000Z",
  revoked_at: "2026-11-27T10:00:00.000Z",
};
const text = (html: string) => html.replace(/<[^>]+>/g, "");

describe("the certificate's verification page", () => {
  it("in German: status, sentence, facts and links; names as written", () => {
    const html = renderToStaticMarkup(createElement(CertificateVerification, { certificate, locale: "de" }));
    for (const words of ["Widerrufen", "Acme Academy hat dieses Zertifikat am 27. November 2026 widerrufen.", "Hiermit wird bescheinigt, dass", "Jürgen Weiß", "Security+ mock exam bestanden hat", "87,5\u00a0%", "PDF herunterladen", "Ausgestellt am26. November 2026"]) {
      expect(text(html)).toContain(words);
    }
  });

  it("in English as it was", () => {
    const html = renderToStaticMarkup(createElement(CertificateVerification, { certificate: { ...certificate, status: "valid", revoked_at: null }, locale: "en" }));
    expect(html).toContain(">Valid<");
    for (const words of ["Acme Academy issued this certificate, and it has not been revoked.", "This certifies that", "passed Security+ mock exam", "87.5%", "Issued26 November 2026", "Download PDF"]) {
      expect(text(html)).toContain(words);
    }
  });
});

describe("the student area", () => {
  it("in French: the tests and classes, dates in French, names as written", () => {
    const tests = renderToStaticMarkup(
      createElement(StudentTests, {
        email: "ada@example.com",
        locale: "fr",
        tests: [
          {
            recipient_id: 1,
            code: "T-123",
            name: "Quiz du vendredi",
            certification: "AWS CLF-C02",
            trainer: "Acme Training",
            status: "sent",
            link: "https://certify.example/t/abc",
            path: "/t/abc",
            sent_at: "2026-11-26T10:00:00.000Z",
            started_at: null,
            completed_at: null,
            result: null,
            pass_mark: null,
          },
        ],
      }),
    );
    for (const words of ["Quiz du vendredi", "AWS CLF-C02 · test T-123 · de Acme Training", "Envoyé", "Envoyé le 26 nov. 2026", "Commencer le test"]) expect(text(tests)).toContain(words);
    expect(tests).toContain('<time dateTime="2026-11-26T10:00:00.000Z">');
    const none = renderToStaticMarkup(createElement(StudentTests, { email: "ada@example.com", locale: "fr", tests: [] }));
    expect(text(none)).toContain("Aucun test n’a encore été envoyé à ada@example.com.");
    const classes = renderToStaticMarkup(
      createElement(StudentClasses, { locale: "fr", classes: [{ id: 1, name: "Réseaux 1", certification: "CompTIA Network+", trainer: "Acme Training", joined_at: "2026-11-20T10:00:00.000Z" }] }),
    );
    expect(text(classes)).toContain("Formateur\u00a0: Acme Training · rejointe le 20 nov. 2026");
  });

  it("in English as it was", () => {
    const classes = renderToStaticMarkup(
      createElement(StudentClasses, { locale: "en", classes: [{ id: 1, name: "Networking", certification: "CompTIA Network+", trainer: "Acme Training", joined_at: "2026-11-20T10:00:00.000Z" }] }),
    );
    expect(text(classes)).toContain("Trainer: Acme Training · joined 20 Nov 2026");
    expect(text(renderToStaticMarkup(createElement(StudentClasses, { locale: "en", classes: [] })))).toContain("You have not joined a class yet.");
  });

  it("says a pass or fail with the pass mark it was measured against, the percents written as on the result page", () => {
    const completed: StudentTest = {
      recipient_id: 2,
      code: "T-124",
      name: "Friday quiz",
      certification: "AWS CLF-C02",
      trainer: "Acme Training",
      status: "completed",
      link: "https://certify.example/t/def",
      path: "/t/def",
      sent_at: "2026-11-26T10:00:00.000Z",
      started_at: "2026-11-26T11:00:00.000Z",
      completed_at: "2026-11-26T11:30:00.000Z",
      result: { percent: 72.5, correct: 29, questions: 40, passed: false, domains: [{ id: 1, name: "Cloud Concepts", percent: 60, correct: 6, questions: 10 }] },
      pass_mark: 80,
    };
    // As the student page provides it: the result's domain bars read the page's `taking` texts.
    const page = (locale: Locale, tests: StudentTest[]) => {
      const children = createElement(StudentTests, { email: "ada@example.com", locale, tests });
      return text(renderToStaticMarkup(createElement(NextIntlClientProvider, { locale, messages: messagesOf(locale, ["taking"]), timeZone: "UTC", children })));
    };
    const en = page("en", [completed]);
    expect(en).toContain("Not passed");
    expect(en).toContain("72.5% — the pass mark is 80%");
    const result = completed.result!;
    const de = page("de", [{ ...completed, result: { ...result, passed: true }, pass_mark: 70 }]);
    expect(de).toContain("Bestanden");
    expect(de).toContain("72,5\u00a0% – die Bestehensgrenze liegt bei 70\u00a0%");
    // Without a pass mark: the score only, no outcome and no mark.
    const none = page("en", [{ ...completed, result: { ...result, passed: null }, pass_mark: null }]);
    expect(none).toContain("72.5%");
    expect(none).not.toMatch(/passed|pass mark/i);
  });
});
