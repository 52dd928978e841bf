import { otherMethods } from "@/lib/platform/http/unrouted";

// GET /api/health – liveness for load balancers and orchestrators: the process answers HTTP.
// Touches no database on purpose (a database outage must not restart every instance); the
// API's own answers show database trouble as 503s.
export function GET() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
