import { otherMethods } from "@/lib/platform/http/unrouted";
import { unlockDeploymentHint } from "@/lib/ctf/deployments/play";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployments/play-contracts";
import { handle } from "@/lib/registry/handle";

// A deployment's player unlocks a hint: its text, its cost deducted once.
export const POST = handle(play.unlockHint, ({ db, player, params }) => unlockDeploymentHint(db, player, params.n));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
