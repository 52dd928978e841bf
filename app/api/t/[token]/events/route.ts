import { otherMethods } from "@/lib/platform/http/unrouted";
import { recordEvents, seenIn } from "@/lib/certification/taking/integrity";
import { handle } from "@/lib/registry/handle";
import { takingContracts } from "@/lib/certification/taking/contracts";

export const POST = handle(takingContracts.events, async ({ db, req, params, body }) => {
  await recordEvents(db, params.token, body.events, seenIn(req.headers));
});
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
