import { openApiDocument } from "@/lib/registry/openapi-document";
import { otherMethods } from "@/lib/platform/http/unrouted";

// GET /api/openapi.json – the OpenAPI 3.1 document, served without a key
export function GET() {
  return Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
