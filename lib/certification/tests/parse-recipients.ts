import { recipientInput } from "@/lib/certification/tests/schemas";

export type ParsedRecipient = { email: string; name: string };
/** A piece of the text that could not be used, with its 1-based line number. */
export type RecipientIssue = { line: number; text: string; message: string };
export type ParsedRecipients = {
  /** Valid, distinct recipients in the order given (addresses lower-cased, as the server stores them). */
  recipients: ParsedRecipient[];
  /** Pieces that are not usable as given: they must be fixed before sending. */
  invalid: RecipientIssue[];
  /** Addresses given more than once: only the first is kept. */
  duplicates: RecipientIssue[];
};

type Token = { text: string; line: number };

/**
 * Splits on new lines, commas, semicolons and tabs, except inside double quotes or angle
 * brackets (so `"Doe, Jane" <jane@example.com>` stays whole). A line break always ends a
 * token, so an unclosed quote cannot swallow the rest of the list.
 */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let current = "";
  let line = 1;
  let inQuotes = false;
  let inAngle = false;
  const flush = () => {
    if (current.trim()) tokens.push({ text: current.trim(), line });
    current = "";
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\n" || char === "\r") {
      flush();
      inQuotes = inAngle = false;
      if (char === "\r" && text[i + 1] === "\n") i++;
      line++;
      continue;
    }
    if (char === '"' && !inAngle) inQuotes = !inQuotes;
    else if (char === "<" && !inQuotes) inAngle = true;
    else if (char === ">" && !inQuotes) inAngle = false;
    else if ((char === "," || char === ";" || char === "\t") && !inQuotes && !inAngle) {
      flush();
      continue;
    }
    current += char;
  }
  flush();
  return tokens;
}

function cleanName(text: string): string {
  return text
    .trim()
    .replace(/^"(.*)"$/s, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/**
 * Reads recipients typed or pasted by a trainer: one per line or separated by commas or
 * semicolons, each either `email`, `Name <email>` or `email, name` (the name right after its
 * address). Addresses are checked with the same rule as the API.
 */
export function parseRecipients(text: string): ParsedRecipients {
  type Entry = { email: string; name: string; line: number; raw: string; nameGiven: boolean };
  const entries: Entry[] = [];
  const invalid: RecipientIssue[] = [];
  let previous: Entry | undefined;

  for (const token of tokenize(text)) {
    const angle = /^(.*?)<\s*([^<>]*?)\s*>$/s.exec(token.text);
    if (angle || token.text.includes("@")) {
      const address = (angle ? angle[2] : token.text).replace(/^mailto:/i, "");
      const name = angle ? cleanName(angle[1]) : "";
      const parsed = recipientInput.safeParse({ email: address, name });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const message = issue?.path[0] === "name" ? "The name is longer than 200 characters." : "Not a valid e-mail address.";
        invalid.push({ line: token.line, text: short(token.text), message });
        previous = undefined;
        continue;
      }
      previous = { email: parsed.data.email, name: parsed.data.name, line: token.line, raw: token.text, nameGiven: Boolean(angle) };
      entries.push(previous);
      continue;
    }
    // No address: the name of the address just before it on the same line ("email, name").
    if (previous && previous.line === token.line && !previous.nameGiven) {
      const name = cleanName(token.text);
      if (name.length > 200)
        invalid.push({ line: token.line, text: short(token.text), message: "The name is longer than 200 characters." });
      else previous.name = name;
      previous.nameGiven = true;
      continue;
    }
    invalid.push({ line: token.line, text: short(token.text), message: "No e-mail address." });
    previous = undefined;
  }

  const seen = new Map<string, number>();
  const recipients: ParsedRecipient[] = [];
  const duplicates: RecipientIssue[] = [];
  for (const entry of entries) {
    const first = seen.get(entry.email);
    if (first !== undefined) {
      duplicates.push({ line: entry.line, text: short(entry.raw), message: `${entry.email} is already on line ${first}.` });
      continue;
    }
    seen.set(entry.email, entry.line);
    recipients.push({ email: entry.email, name: entry.name });
  }
  return { recipients, invalid, duplicates };
}

/** What blocks sending a recipients text as it stands: entries that are not addresses. */
export function recipientTextProblem(text: string): string | undefined {
  return parseRecipients(text).invalid.length ? "Fix or remove the entries that are not addresses." : undefined;
}
