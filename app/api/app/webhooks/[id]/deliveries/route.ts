import { pagingQuery } from "@/lib/api/paging";
import { readQuery } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { listDeliveries } from "@/lib/webhooks/deliveries";

// GET /api/app/webhooks/{id}/deliveries – the endpoint's delivery log with every attempt
export const GET = withSession<{ id: string }>(async ({ req, params, db, workspace }) =>
  Response.json(await listDeliveries(db, workspace.id, params.id, readQuery(req, pagingQuery))),
);
