import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { testContracts as tests } from "@/lib/tests/contracts";
import { startTest } from "@/lib/tests/taking";

export const POST = handle(tests.start, ({ db, params }) => startTest(db, params.token));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
