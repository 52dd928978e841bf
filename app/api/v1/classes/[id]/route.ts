import { intId } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { getClass } from "@/lib/classes/classes";

// GET /api/v1/classes/{id} – the class, its students and pending invitations
export const GET = withApiKey<{ id: string }>(async ({ params, db, workspaceId }) => json(await getClass(db, workspaceId, intId(params.id, "Class"))));
