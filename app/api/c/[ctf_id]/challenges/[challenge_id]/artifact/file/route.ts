import { handle } from "@/lib/api/handle";
import { artifactContracts as artifacts } from "@/lib/ctf/artifact-contracts";
import { playerArtifactFile } from "@/lib/ctf/artifacts";

// A generated challenge's file: always a download, never rendered by the browser.
export const GET = handle(artifacts.artifactFile, async ({ db, player, params }) => {
  const file = await playerArtifactFile(db, player, params.challenge_id);
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": `attachment; filename="${file.name}"`,
      "Content-Length": String(file.data.length),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
});
