import { isBot } from "next/dist/shared/lib/router/utils/is-bot";
import { openTest } from "@/lib/certification/taking/taking";
import { getDb } from "@/lib/platform/database";
import { config, nodeEnv } from "@/lib/kernel/config/config";
import { logError } from "@/lib/kernel/log";
import { pageLocale } from "@/lib/platform/i18n/locales";
import { isTokenShaped } from "@/lib/platform/security/tokens";
import { fillShell, parseShell, type PageShell, type ShellField } from "@/lib/platform/server/page-shell";
import { ShellCache } from "@/lib/platform/server/shell-cache";
import { outagePage } from "@/lib/platform/server/outage-page";
import { asUnavailable } from "@/lib/platform/server/unavailable";
import { firstPageSlot, SHELL_REQUEST_HEADER } from "./slot";
import { startShellKey } from "./start-view";

/**
 * The first page of a personal link (GET /t/{token} before Start) without rendering it: the
 * start page is the same for every recipient of a test but for their name and token (the rest
 * is in the shell's key, ./start-view.ts), so it is rendered once per key — by this process,
 * through its own page (app/t/[token]/page.tsx in shell mode: the name as a marker) — and
 * filled per request (lib/platform/server/page-shell.ts): one database read and a string
 * join instead of the App Router's render. The same bytes as a render, so the same client
 * components hydrate it; the window's notices (not open yet, closed) are in its HTML.
 *
 * Everything else is left to the page (undefined): a started or completed attempt, a link
 * that is not one, a query string, a crawler (Next.js renders their metadata differently), a
 * shell that could not be built, a database error (the page says so). The first request of a
 * key waits for the shell's render (and whoever comes meanwhile with it), then all are filled.
 */
export async function recipientFirstPage(token: string, headers: Headers): Promise<Response | undefined> {
  if (!isTokenShaped(token) || isBot(headers.get("user-agent") ?? "")) return undefined;
  const view = await openTest(await getDb(), token);
  if (!view || view.status !== "sent") return undefined;
  const locale = pageLocale(view.language, headers.get("accept-language"));
  const key = startShellKey(view, locale, token.length);
  const shell = await shells.get(key, () => buildShell(token, locale, key, view.name !== ""));
  if (!shell) return undefined;
  return new Response(fillShell(shell, { token, name: view.name }), { status: 200, headers: shell.headers });
}

/**
 * Hands the proxy this fast path (instrumentation.ts, once at start). Production builds only: in
 * development a shell would outlive the code it was rendered from (hot reload). A database
 * that cannot answer is marked down (as a page's read does) and the request gets the
 * "temporarily unavailable" page at once, rather than the page meeting the outage again.
 */
export function installRecipientFirstPage(): void {
  if (nodeEnv() !== "production") return;
  firstPageSlot.answer = (token, headers) =>
    recipientFirstPage(token, headers).catch((error: unknown) => {
      if (asUnavailable(error)) return outagePage(`/t/${token}`);
      logError("first-page", error);
      return undefined;
    });
}

type StartShell = PageShell & { headers: [string, string][] };

/** A start page is about 20 KB of HTML (40 KB as a string in memory); a few hundred tests' at once at most. */
const shells = new ShellCache<StartShell>({
  maxEntries: 512,
  maxBytes: 32 * 1024 * 1024,
  retryAfterMs: 30_000,
  onBuildError: (_key, error) => logError("first-page", error, { step: "shell" }),
});

/** The response headers a shell is served with: the page's own, as Next.js sent them. */
const KEPT_HEADERS = ["content-type", "cache-control", "vary", "link", "x-robots-tag"];

/**
 * Renders the page once through this process's own HTTP server, in shell mode (the header with
 * the process's secret and the key: the page renders the name as a marker, and refuses with
 * 404 when its own read gives another key, e.g. the recipient started meanwhile).
 */
async function buildShell(token: string, locale: string, key: string, named: boolean): Promise<StartShell | undefined> {
  const response = await fetch(`http://127.0.0.1:${config().port}/t/${token}`, {
    headers: { [SHELL_REQUEST_HEADER]: `${firstPageSlot.secret} ${key}`, "accept-language": locale, "user-agent": "certify-page-shell" },
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  });
  const html = await response.text();
  if (response.status !== 200 || !(response.headers.get("content-type") ?? "").startsWith("text/html")) return undefined;
  const fields: ShellField[] = [{ field: "token", kind: "verbatim", rendered: token }];
  if (named) fields.push({ field: "name", kind: "text" });
  const shell = parseShell(html, fields);
  // The page names its token (the Start button's URL) and, when it has one, the recipient's name.
  const filled = (field: string) => shell?.slots.some((slot) => slot.field === field);
  if (!shell || !filled("token") || (named && !filled("name"))) return undefined;
  const headers = KEPT_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!] as [string, string]] : []));
  return { ...shell, headers };
}
