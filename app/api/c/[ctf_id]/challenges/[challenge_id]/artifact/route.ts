import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { artifactContracts as artifacts } from "@/lib/ctf/artifact-contracts";
import { playerArtifact } from "@/lib/ctf/artifacts";

// What a player of a generated challenge works on: its file and its web target.
export const GET = handle(artifacts.artifact, ({ db, player, params }) => playerArtifact(db, player, params.challenge_id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
