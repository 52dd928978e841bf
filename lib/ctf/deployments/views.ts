import type { Deployment } from "@/db/schema";
import { iso } from "@/lib/ctf/competitions/views";
import type { DeploymentView } from "./schemas";

export function toDeploymentView(deployment: Deployment): DeploymentView {
  return {
    id: deployment.id,
    challenge_id: deployment.challengeId,
    status: deployment.status,
    url: deployment.url,
    starts_at: deployment.startsAt.toISOString(),
    ends_at: deployment.endsAt.toISOString(),
    stop_reason: deployment.stopReason,
    last_error: deployment.lastError,
    created_at: deployment.createdAt.toISOString(),
    live_at: iso(deployment.liveAt),
    stopped_at: iso(deployment.stoppedAt),
  };
}
