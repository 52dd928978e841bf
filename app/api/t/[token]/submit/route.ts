import { otherMethods } from "@/lib/platform/http/unrouted";
import { submitTest } from "@/lib/certification/taking/taking";
import { seenIn } from "@/lib/certification/taking/integrity";
import { handle } from "@/lib/registry/handle";
import { takingContracts } from "@/lib/certification/taking/contracts";

export const POST = handle(takingContracts.submit, ({ db, req, params }) => submitTest(db, params.token, seenIn(req.headers)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
