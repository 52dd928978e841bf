import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { testContracts as tests } from "@/lib/tests/contracts";
import { saveAnswer } from "@/lib/tests/taking";

export const PUT = handle(tests.saveAnswer, ({ db, params, body }) => saveAnswer(db, params.token, body));
export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
