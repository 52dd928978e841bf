/**
 * The pages recipients and students read, in their language: a test's page (/t/{token}), a
 * class invitation (/join/{token}), the student area (/student) and a certificate's page
 * (/certificates/{id}). proxy.ts passes their path to the locale lookup (app/_i18n/request.ts)
 * in this header, and strips it from every other request: a client cannot choose it.
 */
export const PAGE_PATH_HEADER = "x-certify-page-path";

export type RecipientArea = { kind: "test"; token: string } | { kind: "join" | "student" | "certificate" };

export function recipientArea(path: string): RecipientArea | undefined {
  const test = /^\/t\/([^/]+)/.exec(path);
  if (test) return { kind: "test", token: test[1] };
  if (path.startsWith("/join/")) return { kind: "join" };
  if (path === "/student" || path.startsWith("/student/")) return { kind: "student" };
  if (path.startsWith("/certificates/")) return { kind: "certificate" };
  return undefined;
}
