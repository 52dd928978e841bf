import { readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { addRecipientsInput } from "@/lib/tests/schemas";
import { addRecipients } from "@/lib/tests/tests";

// POST /api/app/tests/{code}/recipients – send the test to more people (dashboard)
export const POST = withSession<{ code: string }>(async ({ req, params, db, workspace }) => {
  const input = await readJson(req, addRecipientsInput);
  return Response.json({ data: await addRecipients(db, workspace.id, params.code, input) }, { status: 201 });
});
