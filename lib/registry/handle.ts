import { deploymentPlayerCaller } from "@/lib/ctf/deployments/caller";
import { competitionPlayerCaller } from "@/lib/ctf/play/caller";
import { createHandle } from "@/lib/platform/http/handle";

/**
 * The one wrapper of every route handler (lib/platform/http/handle.ts), with the products'
 * players: a composition root, as the route table (./routes.ts) is.
 */
export const handle = createHandle({ player: competitionPlayerCaller, deployment_player: deploymentPlayerCaller });
