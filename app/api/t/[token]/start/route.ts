import { handle } from "@/lib/api/handle";
import { testContracts as tests } from "@/lib/tests/contracts";
import { startTest } from "@/lib/tests/taking";

export const POST = handle(tests.start, ({ db, params }) => startTest(db, params.token));
