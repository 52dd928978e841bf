import type { Certificate } from "@/db/schema";
import { findCertificate } from "@/lib/certification/certificates/certificates";
import { newId } from "@/lib/kernel/ids";
import { notFound } from "@/lib/kernel/errors";
import { toErrorResponse } from "@/lib/platform/http/http-errors";
import { getDb } from "@/lib/platform/database";
import { asUnavailable } from "@/lib/platform/server/unavailable";

/**
 * The answer of a certificate's public file (PDF, credential, status): made by `answer` from
 * the certificate, or 404 in the one error shape for an id that is none (a forged or mistyped
 * one is never told apart from a deleted one); a database outage answers 503, never 500.
 * Anyone may fetch these from any origin (a verifier in a browser): CORS is open, nothing is
 * cached by shared caches (a revocation must show at once).
 */
export async function certificateAnswer(params: Promise<{ id: string }>, answer: (certificate: Certificate) => Response | Promise<Response>): Promise<Response> {
  const requestId = newId("req");
  let response: Response;
  try {
    const certificate = await findCertificate(await getDb(), (await params).id);
    response = certificate ? await answer(certificate) : toErrorResponse(notFound("Certificate"), requestId);
  } catch (error) {
    response = toErrorResponse(asUnavailable(error) ?? error, requestId);
  }
  response.headers.set("X-Request-Id", requestId);
  response.headers.set("Access-Control-Allow-Origin", "*");
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  return response;
}
