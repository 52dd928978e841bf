import { artifactFileResponse } from "@/lib/api/artifact-responses";
import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { artifactContracts as artifacts } from "@/lib/ctf/artifact-contracts";
import { playerArtifactFile } from "@/lib/ctf/artifacts";

// A generated challenge's file: always a download, never rendered by the browser.
export const GET = handle(artifacts.artifactFile, async ({ db, player, params }) => artifactFileResponse(await playerArtifactFile(db, player, params.challenge_id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
