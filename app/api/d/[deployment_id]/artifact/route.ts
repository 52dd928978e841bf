import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { deploymentArtifact } from "@/lib/ctf/deployment-content";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployment-play-contracts";

// What a deployment's player of a generated challenge works on: its file and its web target.
export const GET = handle(play.artifact, ({ db, player }) => deploymentArtifact(db, player));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
