import { openApiDocument } from "@/lib/api/openapi-document";

// GET /api/openapi.json – the OpenAPI 3.1 document, served without a key
export function GET() {
  return Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}
