/**
 * The names and types every question-bank format shares. They live apart from `bank.ts` (which
 * picks a format's reader or writer and checks what is read) so that the format modules, and
 * schemas or contracts that only need the list of formats, can use them without an import cycle.
 */

export const bankFormats = ["csv", "gift", "moodle_xml", "aiken"] as const;
export type BankFormat = (typeof bankFormats)[number];

export const bankMediaTypes: Record<BankFormat, string> = {
  csv: "text/csv; charset=utf-8",
  gift: "text/plain; charset=utf-8",
  moodle_xml: "application/xml; charset=utf-8",
  aiken: "text/plain; charset=utf-8",
};

/** GIFT and Aiken files are plain text (.txt is what Moodle's import expects of both). */
export const bankFileExtensions: Record<BankFormat, string> = { csv: "csv", gift: "txt", moodle_xml: "xml", aiken: "txt" };

/** A question as a bank file holds it, before it belongs to one of our domains. */
export type BankQuestion = {
  /** The category the file names for it; null when it names none (the caller uses a default domain). */
  domain: string | null;
  prompt: string;
  options: string[];
  type: "single" | "multiple";
  /** `single`: the index of the right option; `multiple`: the indexes of the right options. */
  correct: number | number[];
  explanation: string;
};

/** A question read from a file, with the line it starts on and its name in the file, if any. */
export type ReadItem = { line: number; name?: string; question: BankQuestion };

/** A question of the file that cannot be imported, and why (in words a trainer can act on). */
export type SkippedItem = { line: number; name?: string; reason: string };

export type ReadBank = { questions: ReadItem[]; skipped: SkippedItem[] };

/** What a format's reader hands back, in file order: a question, or the reason it is skipped. */
export type ParsedItem = ReadItem | SkippedItem;

/** What a format's writer hands back: the file, and the questions it could not hold (by index). */
export type WrittenBank = { text: string; left_out: { index: number; reason: string }[] };

/** The file as a whole cannot be read (not this format, or broken); `line` is where, 1-based. */
export class FormatSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "FormatSyntaxError";
  }
}

/** A function from a character offset of `text` to its 1-based line (a binary search over the line starts). */
export function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i += 1) if (text[i] === "\n") starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

/**
 * A category path as Moodle writes it (GIFT `$CATEGORY:` and XML `<category>` alike) → our
 * domain name: a leading context (`$course$`, `$system$`, `$module$`, `$cat1$`…) and the `top`
 * category after it are dropped; the rest is the name, levels joined with "/". Moodle writes a
 * "/" inside a name as "//"; since levels are joined with "/" too, both read back the same.
 * Null when nothing is left (`$course$/top`).
 */
export function domainOfCategoryPath(path: string): string | null {
  let rest = path.trim().replace(/^\$[a-z0-9_]+\$(\/|$)/i, "");
  rest = rest.replace(/^top(\/|$)/, "");
  const name = rest.replace(/\/\//g, "/").trim();
  return name === "" ? null : name;
}

/** A domain name as a Moodle category path under the course's top category. */
export const categoryPathOfDomain = (domain: string) => `$course$/top/${domain.replace(/\//g, "//")}`;

/**
 * Moodle's grade fractions for "one of N right options", written as Moodle writes them
 * (100/3 → 33.33333). A multiple-response question gives each right option 100/N.
 */
export function fractionOfRight(rightCount: number): string {
  return String(Math.round((100 / rightCount) * 100000) / 100000);
}

/** True for a weight (percent) that counts an option as right. */
export const isRightWeight = (weight: number | null | undefined) => typeof weight === "number" && weight > 0;

/**
 * A question from the right options found in a file: one right option → single, several →
 * multiple. Returns a reason instead when none is right.
 */
export function answerOf(rights: number[]): Pick<BankQuestion, "type" | "correct"> | string {
  if (rights.length === 0) return "No option is marked right; mark the right option(s).";
  return rights.length === 1 ? { type: "single", correct: rights[0] } : { type: "multiple", correct: rights };
}
