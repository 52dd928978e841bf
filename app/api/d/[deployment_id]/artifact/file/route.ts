import { artifactFileResponse } from "@/lib/api/artifact-responses";
import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { deploymentArtifactFile } from "@/lib/ctf/deployment-content";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployment-play-contracts";

// A deployment's generated file: always a download, never rendered by the browser.
export const GET = handle(play.artifactFile, async ({ db, player }) => artifactFileResponse(await deploymentArtifactFile(db, player)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
