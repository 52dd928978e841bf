import { otherMethods } from "@/lib/platform/http/unrouted";
import { testContracts as tests } from "@/lib/certification/tests/contracts";
import { saveAnswer } from "@/lib/certification/taking/taking";
import { handle } from "@/lib/registry/handle";

export const PUT = handle(tests.saveAnswer, ({ db, params, body }) => saveAnswer(db, params.token, body));
export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
