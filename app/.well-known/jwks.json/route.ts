import { otherMethods } from "@/lib/platform/http/unrouted";
import { publicKeySet } from "@/lib/certification/certificates/keys";

export const dynamic = "force-dynamic";

// GET /.well-known/jwks.json – the public keys that verify certificates' credentials (every
// configured key and the one derived from AUTH_SECRET; docs/certification-api.md, "Certificates").
export async function GET() {
  return Response.json(await publicKeySet(), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET }, { public: true });
