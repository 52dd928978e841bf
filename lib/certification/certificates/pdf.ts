import { eq } from "drizzle-orm";
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import type { Db } from "@/db";
import { tests, workspaces, type Certificate } from "@/db/schema";
import { defaultLocale, mailLocale, type Locale } from "@/lib/platform/i18n/locales";
import { intlLocale, translator } from "@/lib/platform/i18n/translator";
import { certificateUrl } from "./issue";

/** A4 landscape, in points. */
const WIDTH = 841.89;
const HEIGHT = 595.28;
const INK = rgb(0.09, 0.11, 0.16);
const MUTED = rgb(0.33, 0.37, 0.43);
const BRAND = rgb(0.15, 0.32, 0.75);
const REVOKED = rgb(0.73, 0.11, 0.11);

/** Letters the standard fonts lack, spelled with ones they have. */
const SPELLED: Record<string, string> = { "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i", "ħ": "h", "Ħ": "H", "ŧ": "t", "Ŧ": "T", "ĸ": "k", "ŀ": "l", "Ŀ": "L", "–": "-", "—": "-" };

/**
 * Text the standard fonts can draw: they encode WinAnsi only, and pdf-lib throws on anything
 * else. Each character they lack is transliterated (its accents dropped, "ł" → "l"); one that
 * has no Latin spelling (Cyrillic, CJK…) becomes "?". The verification page shows the exact
 * name (docs/decisions.md, "Certificates").
 */
export function drawable(text: string, font: PDFFont): string {
  const supported = new Set(font.getCharacterSet());
  let out = "";
  for (const char of text.replace(/[\r\n\t]+/g, " ")) {
    if (supported.has(char.codePointAt(0)!)) out += char;
    else if (SPELLED[char]) out += SPELLED[char];
    else {
      const base = char.normalize("NFKD").replace(/\p{M}/gu, "");
      out += base && [...base].every((c) => supported.has(c.codePointAt(0)!)) ? base : "?";
    }
  }
  return out;
}

type Fonts = { regular: PDFFont; bold: PDFFont; serif: PDFFont };

/** The certificate's words in its language (the facts — names, test and certification — stay as written). */
type Words = ReturnType<typeof translator<"certificate">>;

/** "26 November 2026", "26. November 2026", "26 novembre 2026", "26 de noviembre de 2026" (UTC). */
function longDateIn(locale: Locale, date: Date): string {
  return date.toLocaleDateString(intlLocale(locale), { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

/**
 * The language of a certificate's PDF: the test's fixed language, or for an `auto` test the
 * workspace's default — the language of the result e-mail that announced it (mailLocale). Not the
 * downloader's browser: the PDF is the holder's document, handed to others, and reads the same
 * whoever fetches it. It is worked out at each download, so a workspace that changes its default
 * later changes the words of its `auto` tests' certificates, never their facts. English when
 * the test is gone.
 */
export async function certificateLocale(db: Db, certificate: Pick<Certificate, "testId">): Promise<Locale> {
  const [row] = await db
    .select({ language: tests.language, workspaceDefault: workspaces.defaultLanguage })
    .from(tests)
    .innerJoin(workspaces, eq(workspaces.id, tests.workspaceId))
    .where(eq(tests.id, certificate.testId));
  return row ? mailLocale(row.language, row.workspaceDefault) : defaultLocale;
}

/**
 * `text` as one line of at most `maxWidth` points: shrunk from `size` down to `minSize`, then,
 * if still too wide (names and test names may be 200 characters), cut with an ellipsis.
 */
function fitted(text: string, font: PDFFont, size: number, minSize: number, maxWidth: number): { line: string; size: number } {
  let line = drawable(text, font);
  let at = size;
  while (at > minSize && font.widthOfTextAtSize(line, at) > maxWidth) at -= 1;
  if (font.widthOfTextAtSize(line, at) <= maxWidth) return { line, size: at };
  const chars = [...line];
  while (chars.length > 1 && font.widthOfTextAtSize(`${chars.join("")}…`, at) > maxWidth) chars.pop();
  line = `${chars.join("").trimEnd()}…`;
  return { line, size: at };
}

/** One line centred at `y`, fitted to the page's width less the margins. */
function centred(page: PDFPage, text: string, font: PDFFont, size: number, y: number, color = INK) {
  const { line, size: at } = fitted(text, font, size, 8, WIDTH - 160);
  page.drawText(line, { x: (WIDTH - font.widthOfTextAtSize(line, at)) / 2, y, size: at, font, color });
}

function drawFrame(page: PDFPage) {
  page.drawRectangle({ x: 24, y: 24, width: WIDTH - 48, height: HEIGHT - 48, borderColor: BRAND, borderWidth: 3 });
  page.drawRectangle({ x: 34, y: 34, width: WIDTH - 68, height: HEIGHT - 68, borderColor: BRAND, borderWidth: 0.75 });
}

function drawFacts(page: PDFPage, certificate: Certificate, fonts: Fonts, t: Words, locale: Locale) {
  centred(page, certificate.organisation, fonts.bold, 20, 500, BRAND);
  centred(page, t("pdf.heading"), fonts.serif, 38, 440);
  centred(page, t("pdf.certifies"), fonts.regular, 14, 390, MUTED);
  centred(page, certificate.recipientName, fonts.bold, 34, 340);
  centred(page, t("pdf.passed", { testName: certificate.testName }), fonts.regular, 16, 295);
  centred(page, certificate.certificationName, fonts.regular, 14, 270, MUTED);
  centred(page, t("pdf.score", { score: certificate.score, date: longDateIn(locale, certificate.issuedAt) }), fonts.regular, 14, 235);
}

function drawFooter(page: PDFPage, certificate: Certificate, fonts: Fonts, t: Words) {
  if (certificate.signer) {
    page.drawLine({ start: { x: 90, y: 120 }, end: { x: 330, y: 120 }, thickness: 0.75, color: INK });
    const { line, size } = fitted(certificate.signer, fonts.regular, 12, 7, 300);
    page.drawText(line, { x: 90, y: 102, size, font: fonts.regular, color: INK });
  }
  const url = certificateUrl(certificate.id);
  const right = (text: string, y: number, size: number) => {
    const line = drawable(text, fonts.regular);
    page.drawText(line, { x: WIDTH - 90 - fonts.regular.widthOfTextAtSize(line, size), y, size, font: fonts.regular, color: MUTED });
  };
  right(t("pdf.verifyAt"), 120, 9);
  right(url, 106, 9);
  right(t("pdf.id", { id: certificate.id }), 92, 8);
}

function drawRevoked(page: PDFPage, revokedAt: Date, fonts: Fonts, t: Words, locale: Locale) {
  const text = drawable(t("pdf.revoked", { date: longDateIn(locale, revokedAt) }).toLocaleUpperCase(intlLocale(locale)), fonts.bold);
  page.drawText(text, { x: (WIDTH - fonts.bold.widthOfTextAtSize(text, 28)) / 2, y: 170, size: 28, font: fonts.bold, color: REVOKED });
}

/**
 * The certificate as a PDF (pdf-lib, no browser): A4 landscape, the standard fonts, the frozen
 * facts, the signer's line, the verification URL and id; a revoked one says so, with the date.
 * Its words are in `locale` (certificateLocale); the WinAnsi of the standard fonts has the
 * letters of all four (é, ü, ß, ñ, « »). The document's title and subject carry the exact name
 * (Unicode), whatever the page could draw.
 */
export async function certificatePdf(certificate: Certificate, locale: Locale = defaultLocale): Promise<Uint8Array> {
  const t = translator(locale, "certificate");
  const pdf = await PDFDocument.create();
  pdf.setTitle(t("pdf.title", { name: certificate.recipientName, testName: certificate.testName }));
  pdf.setSubject(t("pdf.subject", { certification: certificate.certificationName, score: certificate.score, organisation: certificate.organisation }));
  pdf.setLanguage(intlLocale(locale));
  pdf.setAuthor(certificate.organisation);
  pdf.setCreator("Certify");
  pdf.setCreationDate(certificate.issuedAt);
  pdf.setModificationDate(certificate.revokedAt ?? certificate.issuedAt);
  const fonts: Fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
    serif: await pdf.embedFont(StandardFonts.TimesRomanItalic),
  };
  const page = pdf.addPage([WIDTH, HEIGHT]);
  drawFrame(page);
  drawFacts(page, certificate, fonts, t, locale);
  drawFooter(page, certificate, fonts, t);
  if (certificate.revokedAt) drawRevoked(page, certificate.revokedAt, fonts, t, locale);
  return pdf.save();
}

/** The filename offered for the download. */
export function certificateFilename(certificate: Pick<Certificate, "id">): string {
  return `certificate-${certificate.id}.pdf`;
}
