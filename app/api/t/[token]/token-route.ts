import { getDb, type Db } from "@/db";
import { toErrorResponse } from "@/lib/api/http-errors";
import { rejectOversizedBody, rejectUnstorableParams } from "@/lib/api/parse";
import { newId } from "@/lib/ids";

type TokenContext = { req: Request; token: string; db: Db };

/**
 * The recipient's own routes (`/api/t/{token}/**`): no account, the token is the
 * capability. Same error shape as /api/v1, a request id, and never cached.
 */
export function tokenRoute(handler: (ctx: TokenContext) => Promise<Response>) {
  return async (req: Request, context: { params: Promise<{ token: string }> }): Promise<Response> => {
    const requestId = newId("req");
    let response: Response;
    try {
      rejectOversizedBody(req);
      const { token } = await context.params;
      rejectUnstorableParams({ token });
      response = await handler({ req, token, db: await getDb() });
    } catch (error) {
      response = toErrorResponse(error, requestId, req);
    }
    response.headers.set("X-Request-Id", requestId);
    response.headers.set("Cache-Control", "no-store");
    return response;
  };
}
