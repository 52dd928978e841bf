import { otherMethods } from "@/lib/platform/http/unrouted";
import { artifactContracts as artifacts } from "@/lib/ctf/play/artifacts/contracts";
import { playerArtifact } from "@/lib/ctf/play/artifacts/artifacts";
import { handle } from "@/lib/registry/handle";

// What a player of a generated challenge works on: its file and its web target.
export const GET = handle(artifacts.artifact, ({ db, player, params }) => playerArtifact(db, player, params.challenge_id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
