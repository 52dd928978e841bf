import { otherMethods } from "@/lib/platform/http/unrouted";
import { issuerProfile } from "@/lib/certification/certificates/certificates";
import { OB3_CONTEXT } from "@/lib/certification/certificates/credential";
import { newId } from "@/lib/kernel/ids";
import { notFound } from "@/lib/kernel/errors";
import { toErrorResponse } from "@/lib/platform/http/http-errors";
import { getDb } from "@/lib/platform/database";
import { asUnavailable } from "@/lib/platform/server/unavailable";

export const dynamic = "force-dynamic";

// GET /issuers/{id} – the Open Badges Profile a credential's issuer.id names (a workspace that issued certificates), public
export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const requestId = newId("req");
  let response: Response;
  try {
    const profile = await issuerProfile(await getDb(), (await params).id);
    response = profile ? Response.json({ "@context": OB3_CONTEXT, ...profile }) : toErrorResponse(notFound("Issuer"), requestId);
  } catch (error) {
    response = toErrorResponse(asUnavailable(error) ?? error, requestId);
  }
  response.headers.set("X-Request-Id", requestId);
  response.headers.set("Access-Control-Allow-Origin", "*");
  response.headers.set("Cache-Control", "no-store");
  return response;
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET }, { public: true });
