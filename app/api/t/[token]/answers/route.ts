import { readJson } from "@/lib/api/parse";
import { answerInput, saveAnswer } from "@/lib/tests/taking";
import { tokenRoute } from "../token-route";

// PUT /api/t/{token}/answers – saves one answer as it is chosen (the last one counts)
export const PUT = tokenRoute(async ({ req, token, db }) => {
  const input = await readJson(req, answerInput);
  return Response.json(await saveAnswer(db, token, input));
});
