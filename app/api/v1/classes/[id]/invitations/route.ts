import { intId, readJson } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { inviteStudents } from "@/lib/classes/classes";
import { inviteStudentsInput } from "@/lib/classes/schemas";

// POST /api/v1/classes/{id}/invitations – invite more students
export const POST = withApiKey<{ id: string }>(async ({ req, params, db, workspaceId }) =>
  json(await inviteStudents(db, workspaceId, intId(params.id, "Class"), await readJson(req, inviteStudentsInput)), 201),
);
