import { handle } from "@/lib/api/handle";
import { getClass } from "@/lib/classes/classes";
import { classContracts as classes } from "@/lib/classes/contracts";

export const GET = handle(classes.get, ({ db, workspaceId, params }) => getClass(db, workspaceId, params.id));
