import { otherMethods } from "@/lib/platform/http/unrouted";
import { testContracts as tests } from "@/lib/certification/tests/contracts";
import { startTest } from "@/lib/certification/taking/taking";
import { handle } from "@/lib/registry/handle";

export const POST = handle(tests.start, ({ db, params }) => startTest(db, params.token));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
