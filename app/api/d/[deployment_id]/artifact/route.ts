import { otherMethods } from "@/lib/platform/http/unrouted";
import { deploymentArtifact } from "@/lib/ctf/deployments/content";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployments/play-contracts";
import { handle } from "@/lib/registry/handle";

// What a deployment's player of a generated challenge works on: its file and its web target.
export const GET = handle(play.artifact, ({ db, player }) => deploymentArtifact(db, player));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
