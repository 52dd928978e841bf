import { databaseKnownDown } from "@/db/availability";
import { UNAVAILABLE_RETRY_SECONDS, unavailableCopy } from "@/lib/kernel/unavailable";

/**
 * For proxy.ts: while this process knows its database is down (db/availability.ts: set by
 * the first request that met the outage, cleared by a probe within about a second of its
 * return), a page request is answered here, 503 with Retry-After, at once, without waiting
 * on the database. A page itself cannot answer 503: the App Router answers a thrown error
 * 500 and a rendered page 200 (only notFound/forbidden/unauthorized and redirects choose
 * another status), so the request that first meets an outage gets the same page from
 * error.tsx with 500. Either page loads itself again every few seconds, so a person who
 * waits gets the page back without doing anything. The API is left alone: its routes answer 503 JSON in the error shape.
 * No imports beyond two dependency-free modules: this runs in the proxy bundle.
 */
export function outagePage(pathname: string): Response | undefined {
  if (!databaseKnownDown() || !readsDatabase(pathname)) return undefined;
  return new Response(page, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": String(UNAVAILABLE_RETRY_SECONDS), "Cache-Control": "no-store" },
  });
}

// Pages that read the database; not the API, Next's assets, the docs or the static "check your e-mail" page.
function readsDatabase(pathname: string): boolean {
  return !/^\/(api|_next|docs|signin\/check)(\/|$)/.test(pathname) && pathname !== "/favicon.ico";
}

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta http-equiv="refresh" content="${UNAVAILABLE_RETRY_SECONDS}"><title>${unavailableCopy.title} · Certify</title>
<style>body{margin:0;font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a}main{max-width:28rem;margin:0 auto;padding:3rem 1rem;min-height:100vh;display:flex;flex-direction:column;justify-content:center;box-sizing:border-box}
.brand{font-size:.875rem;font-weight:700;color:#4f46e5;margin:0 0 .5rem}section{background:#fff;border:1px solid #e2e8f0;border-radius:.5rem;padding:1.25rem;box-shadow:0 1px 2px rgb(0 0 0 / .05)}
h1{font-size:1.25rem;font-weight:600;margin:0}p.body{margin:.5rem 0 0;font-size:.875rem;color:#475569}a{display:inline-block;margin-top:1rem;background:#4f46e5;color:#fff;padding:.6rem .9rem;border-radius:.375rem;font-size:.875rem;text-decoration:none}</style>
</head><body><main data-testid="unavailable"><p class="brand">Certify</p><section><h1>${unavailableCopy.title}</h1><p class="body">${unavailableCopy.body}</p>
<a href="" onclick="location.reload();return false">${unavailableCopy.retry}</a></section></main></body></html>`;
