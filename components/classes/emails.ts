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
