import { artifactFileResponse } from "@/lib/ctf/templates/responses";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { deploymentArtifactFile } from "@/lib/ctf/deployments/content";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployments/play-contracts";
import { handle } from "@/lib/registry/handle";

// A deployment's generated file: always a download, never rendered by the browser.
export const GET = handle(play.artifactFile, async ({ db, player }) => artifactFileResponse(await deploymentArtifactFile(db, player)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
