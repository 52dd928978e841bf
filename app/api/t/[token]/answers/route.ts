import { otherMethods } from "@/lib/platform/http/unrouted";
import { saveAnswer } from "@/lib/certification/taking/taking";
import { handle } from "@/lib/registry/handle";
import { takingContracts } from "@/lib/certification/taking/contracts";

export const PUT = handle(takingContracts.saveAnswer, ({ db, params, body }) => saveAnswer(db, params.token, body));
export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
