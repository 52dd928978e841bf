import { artifactFileResponse } from "@/lib/ctf/templates/responses";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { artifactContracts as artifacts } from "@/lib/ctf/play/artifacts/contracts";
import { playerArtifactFile } from "@/lib/ctf/play/artifacts/artifacts";
import { handle } from "@/lib/registry/handle";

// A generated challenge's file: always a download, never rendered by the browser.
export const GET = handle(artifacts.artifactFile, async ({ db, player, params }) => artifactFileResponse(await playerArtifactFile(db, player, params.challenge_id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
