import { readJson } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { addRecipientsInput } from "@/lib/tests/schemas";
import { addRecipients } from "@/lib/tests/tests";

// POST /api/v1/tests/{code}/recipients – send the test to more people
export const POST = withApiKey<{ code: string }>(async ({ req, params, db, workspaceId }) =>
  json({ data: await addRecipients(db, workspaceId, params.code, await readJson(req, addRecipientsInput)) }, 201),
);
