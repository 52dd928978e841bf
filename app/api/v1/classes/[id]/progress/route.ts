import { intId } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { classProgress } from "@/lib/classes/classes";

// GET /api/v1/classes/{id}/progress – per student: tests sent, started, completed, averages
export const GET = withApiKey<{ id: string }>(async ({ params, db, workspaceId }) => json(await classProgress(db, workspaceId, intId(params.id, "Class"))));
