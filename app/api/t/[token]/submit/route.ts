import { submitTest } from "@/lib/tests/taking";
import { tokenRoute } from "../token-route";

// POST /api/t/{token}/submit – every question answered → the result (submitting again changes nothing)
export const POST = tokenRoute(async ({ token, db }) => Response.json(await submitTest(db, token)));
