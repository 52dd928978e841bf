import { otherMethods } from "@/lib/platform/http/unrouted";
import { startTest } from "@/lib/certification/taking/taking";
import { handle } from "@/lib/registry/handle";
import { takingContracts } from "@/lib/certification/taking/contracts";

export const POST = handle(takingContracts.start, ({ db, params }) => startTest(db, params.token));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
