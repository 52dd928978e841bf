import { getDb, type Db } from "@/db";
import type { Workspace } from "@/db/schema";
import { toErrorResponse } from "@/lib/api/http-errors";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { requireWorkspace, type SessionUser } from "./session";

export type SessionContext<P> = { req: Request; params: P; db: Db; user: SessionUser; workspace: Workspace };

/**
 * The wrapper of the dashboard's own JSON routes (`/api/app/**`): session → workspace →
 * handler, with the same error shape as /api/v1. Changes must come from our own origin.
 */
export function withSession<P = Record<string, never>>(handler: (ctx: SessionContext<P>) => Promise<Response>) {
  return async (req: Request, context?: { params: Promise<P> }): Promise<Response> => {
    const requestId = newId("req");
    try {
      requireSameOrigin(req);
      const { user, workspace } = await requireWorkspace();
      const response = await handler({ req, params: (await context?.params) ?? ({} as P), db: await getDb(), user, workspace });
      response.headers.set("X-Request-Id", requestId);
      return response;
    } catch (error) {
      const response = toErrorResponse(error, requestId);
      response.headers.set("X-Request-Id", requestId);
      return response;
    }
  };
}

function requireSameOrigin(req: Request): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  const origin = req.headers.get("origin");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (!origin || !host || new URL(origin).host !== host) {
    throw new AppError("forbidden", "Cross-origin requests are not accepted here.");
  }
}
