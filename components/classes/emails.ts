/**
 * The e-mail addresses of a textarea: one per line or separated by commas, semicolons or
 * spaces. Lower-cased (as the server stores them); an address given twice is kept once.
 */
export function parseEmails(text: string): string[] {
  const seen = new Set<string>();
  for (const piece of text.split(/[\s,;]+/)) {
    const email = piece.trim().replace(/^<|>$/g, "").toLowerCase();
    if (email) seen.add(email);
  }
  return [...seen];
}

/** A readable label for a field error of a class form (`emails.3` → `E-mail 4 (x@y)`). */
export function classFieldLabel(field: string, emails: string[]): string {
  const match = /^emails\.(\d+)$/.exec(field);
  if (match) {
    const email = emails[Number(match[1])];
    return email ? `E-mail ${Number(match[1]) + 1} (${email})` : `E-mail ${Number(match[1]) + 1}`;
  }
  const labels: Record<string, string> = { name: "Name", certification_id: "Certification", emails: "E-mails" };
  return labels[field] ?? field;
}
