import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import type { Certificate } from "@/db/schema";
import { certificateUrl, longDate } from "./issue";

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

function drawFacts(page: PDFPage, certificate: Certificate, fonts: Fonts) {
  centred(page, certificate.organisation, fonts.bold, 20, 500, BRAND);
  centred(page, "Certificate of achievement", fonts.serif, 38, 440);
  centred(page, "This certifies that", fonts.regular, 14, 390, MUTED);
  centred(page, certificate.recipientName, fonts.bold, 34, 340);
  centred(page, `has passed ${certificate.testName}`, fonts.regular, 16, 295);
  centred(page, certificate.certificationName, fonts.regular, 14, 270, MUTED);
  centred(page, `with a score of ${certificate.score}% on ${longDate(certificate.issuedAt)}`, fonts.regular, 14, 235);
}

function drawFooter(page: PDFPage, certificate: Certificate, fonts: Fonts) {
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
  right("Verify at", 120, 9);
  right(url, 106, 9);
  right(`Certificate ${certificate.id}`, 92, 8);
}

function drawRevoked(page: PDFPage, revokedAt: Date, fonts: Fonts) {
  const text = `REVOKED ON ${longDate(revokedAt).toUpperCase()}`;
  page.drawText(text, { x: (WIDTH - fonts.bold.widthOfTextAtSize(text, 28)) / 2, y: 170, size: 28, font: fonts.bold, color: REVOKED });
}

/**
 * The certificate as a PDF (pdf-lib, no browser): A4 landscape, the standard fonts, the frozen
 * facts, the signer's line, the verification URL and id; a revoked one says so, with the date.
 * The document's title and subject carry the exact name (Unicode), whatever the page could draw.
 */
export async function certificatePdf(certificate: Certificate): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Certificate: ${certificate.recipientName} — ${certificate.testName}`);
  pdf.setSubject(`${certificate.certificationName}, ${certificate.score}%, issued by ${certificate.organisation}`);
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
  drawFacts(page, certificate, fonts);
  drawFooter(page, certificate, fonts);
  if (certificate.revokedAt) drawRevoked(page, certificate.revokedAt, fonts);
  return pdf.save();
}

/** The filename offered for the download. */
export function certificateFilename(certificate: Pick<Certificate, "id">): string {
  return `certificate-${certificate.id}.pdf`;
}
