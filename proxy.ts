import { NextResponse, type NextRequest } from "next/server";
import { toErrorResponse } from "@/lib/platform/http/http-errors";
import { isSameOrigin } from "@/lib/platform/http/same-origin";
import { setAnswerHeaders } from "@/lib/platform/http/answer-headers";
import { AppError } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { outagePage } from "@/lib/platform/server/outage-page";
import { PAGE_PATH_HEADER, recipientArea } from "@/lib/platform/i18n/areas";
import { firstPageSlot, SHELL_REQUEST_HEADER } from "@/app/t/[token]/_shell/slot";

/**
 * Four answers that must come before Next.js routes a request.
 *
 * A server action posted from another origin (an `Origin` that is not this host) is answered
 * 403 in the error shape. Next.js refuses it too, but by throwing, which answers 500. Next.js
 * takes a POST to a page for a server action when it carries `Next-Action` or is a multipart
 * form, and compares the `Origin`'s host with `X-Forwarded-Host`, else `Host`
 * (lib/platform/http/same-origin.ts compares the same). A POST without `Origin` is left to Next.js,
 * which lets it through (no browser omits it on a cross-origin POST).
 * `serverActions.allowedOrigins` is not configured: set it, and this check must allow the
 * same origins.
 *
 * During a database outage this process knows of (db/availability.ts), a page is answered
 * 503 with the "temporarily unavailable" page at once: a page itself cannot choose a 5xx
 * status (the App Router answers a thrown error 500), and it would wait on the database.
 *
 * A path with malformed percent-encoding (`/api/v1/tests/%ZZ`, `/join/%C3%28`) makes
 * Next.js throw while it decodes the dynamic segment, before any handler runs. Here API
 * paths get a 400 in the one error shape, a certificate's public files (PDF, credential,
 * status), issuers and /.well-known a 404 in it, and pages the ordinary not-found page.
 *
 * The first page of a personal link (GET /t/{token}, a browser's document request, before Start)
 * is answered from its shell when there is one (app/t/[token]/_shell/first-page.ts): filled
 * with the recipient's name and token, without the App Router's render. Anything else on that
 * path (Next.js's own requests for the page's payload, a started attempt, a shell that could
 * not be built) goes on to the page.
 *
 * The matcher selects pages and paths that contain a `%`: API requests skip the proxy (they
 * answer 503 JSON themselves), because a proxy that runs makes Next.js copy the request body
 * for it (up to 10 MB), which the body limits of the handlers exist to avoid.
 */
export async function proxy(req: NextRequest): Promise<Response | undefined> {
  const path = req.nextUrl.pathname;
  if (crossOriginAction(req)) return errorAnswer(new AppError("forbidden", "Cross-origin form submissions are not accepted here."), req.nextUrl.pathname);
  const outage = outagePage(path);
  if (outage) return outage;
  if (decodable(path)) return (await firstPage(req, path)) ?? withPagePath(req, path);
  if (path.startsWith("/api/")) return errorAnswer(new AppError("invalid_path", "The request path is not valid percent-encoding."), path);
  // The public files of a certificate and its issuer answer in the error shape, as they do for an id that is none.
  if (PUBLIC_FILES.test(path)) return errorAnswer(new AppError("not_found", "Certificate not found."), path);
  const notFound = req.nextUrl.clone();
  notFound.pathname = "/_malformed-path"; // no such page: Next.js renders the not-found page, 404
  return NextResponse.rewrite(notFound);
}

/**
 * Recipient and student pages get their path in PAGE_PATH_HEADER, which their locale is found
 * from (app/_i18n/request.ts); any other request loses a header of that name a client sent.
 */
function withPagePath(req: NextRequest, path: string): Response | undefined {
  const area = !path.startsWith("/api/") && recipientArea(path) !== undefined;
  if (!area && !req.headers.has(PAGE_PATH_HEADER)) return undefined;
  const requestHeaders = new Headers(req.headers);
  if (area) requestHeaders.set(PAGE_PATH_HEADER, path);
  else requestHeaders.delete(PAGE_PATH_HEADER);
  return NextResponse.next({ request: { headers: requestHeaders } });
}

/**
 * A browser's first request for a personal link's page, answered from its shell when there is
 * one. Not Next.js's requests for the page's payload (`RSC`, prefetches, the `_rsc` query), not
 * a server action, not a query string (it would be in the page), not the shell's own render.
 */
async function firstPage(req: NextRequest, path: string): Promise<Response | undefined> {
  const answer = firstPageSlot.answer;
  if (!answer || req.method !== "GET" || req.nextUrl.search !== "") return undefined;
  const token = /^\/t\/([^/]+)$/.exec(path)?.[1];
  if (token === undefined) return undefined;
  const h = req.headers;
  if (h.has("rsc") || h.has("next-router-prefetch") || h.has("next-router-state-tree") || h.has("next-action") || h.has(SHELL_REQUEST_HEADER)) return undefined;
  return answer(token, h);
}

/** A POST Next.js would run as a server action of a page, sent from another origin. */
function crossOriginAction(req: NextRequest): boolean {
  if (req.method !== "POST" || req.nextUrl.pathname.startsWith("/api/")) return false;
  const action = req.headers.has("next-action") || (req.headers.get("content-type") ?? "").startsWith("multipart/form-data");
  return action && req.headers.has("origin") && !isSameOrigin(req.headers);
}

function errorAnswer(error: AppError, path: string): Response {
  const requestId = newId("req");
  const response = toErrorResponse(error, requestId);
  setAnswerHeaders(response.headers, path, requestId);
  return response;
}

/** Paths served by route handlers outside /api that answer JSON errors (app/certificates/[id]/*, app/issuers, app/.well-known). */
const PUBLIC_FILES = /^\/(certificates\/[^/]*\/(pdf|credential|status)|issuers\/|\.well-known\/)/;

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  // Matched against the raw path: any path with a percent sign, and every page.
  matcher: ["/(.*%.*)", "/((?!api/|_next/|favicon.ico).*)"],
};
