import { otherMethods } from "@/lib/platform/http/unrouted";
import { artifactContracts as artifacts } from "@/lib/ctf/play/artifacts/contracts";
import { revealChallenge } from "@/lib/ctf/play/artifacts/artifacts";
import { handle } from "@/lib/registry/handle";

// The organiser reveals a generated challenge's flag and solution (confirm: true).
export const POST = handle(artifacts.reveal, ({ db, workspaceId, params, body }) => revealChallenge(db, workspaceId, params.ctf_id, params.challenge_id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
