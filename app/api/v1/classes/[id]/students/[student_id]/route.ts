import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { getClass, removeStudent } from "@/lib/classes/classes";
import { classContracts as classes } from "@/lib/classes/contracts";

export const DELETE = handle(classes.removeStudent, async ({ db, workspaceId, params }) => {
  await removeStudent(db, workspaceId, params.id, params.student_id);
  return getClass(db, workspaceId, params.id);
});
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
