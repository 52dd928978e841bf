import type { FlagMode } from "@/db/schema";
import type { CompetitionHost } from "./types";
import { HostError } from "./types";

export type CtfdConfig = { url: string; token: string; timeoutMs?: number };

/** CTFd's flag types for ours: a static flag (case-insensitive through its `data`), or a regex (CTFd matches it whole). */
function ctfdFlagKind(mode: FlagMode): { type: "static" | "regex"; data: string } {
  if (mode === "regex") return { type: "regex", data: "" };
  return { type: "static", data: mode === "case_insensitive" ? "case_insensitive" : "" };
}

/**
 * CTFd through its REST API (`/api/v1`, `Authorization: Token …`): a competition is the
 * configured CTFd instance; publishing creates the challenge and its static flag, and
 * unpublishing hides it. Standalone deployments are served by the app (CTFd has no
 * per-challenge deployments).
 */
export function ctfdHost(config: CtfdConfig, fallbackUrl: (deploymentId: string) => string): CompetitionHost {
  const base = config.url.replace(/\/+$/, "");

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: { Authorization: `Token ${config.token}`, "Content-Type": "application/json", Accept: "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: "manual",
        signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new HostError(`CTFd is unreachable: ${(error as Error).message}`);
    }
    const payload = (await response.json().catch(() => undefined)) as { success?: boolean; data?: T; errors?: unknown } | undefined;
    if (!response.ok || !payload?.success) {
      throw new HostError(`CTFd answered ${response.status} to ${method} ${path}${payload?.errors ? `: ${JSON.stringify(payload.errors)}` : ""}`);
    }
    return payload.data as T;
  }

  return {
    kind: "ctfd",
    async deployCompetition() {
      await request("GET", "/challenges?view=admin");
      return { url: base };
    },
    async teardownCompetition() {},
    async publishChallenge(_ctf, challenge, flag) {
      if (challenge.platformChallengeId) {
        await request("PATCH", `/challenges/${challenge.platformChallengeId}`, { state: "visible" });
        return { platformChallengeId: challenge.platformChallengeId };
      }
      // Created hidden, made visible only once its flag and hints are in: players never see
      // a challenge they cannot solve. A failure in between deletes it (best effort; at worst
      // a hidden orphan stays), so the retry creates exactly one.
      const created = await request<{ id: number }>("POST", "/challenges", {
        name: challenge.title,
        category: challenge.category,
        description: challenge.description,
        value: challenge.points,
        type: "standard",
        state: "hidden",
      });
      try {
        await request("POST", "/flags", { challenge: created.id, content: flag, ...ctfdFlagKind(challenge.flagMode) });
        for (const hint of challenge.hints) await request("POST", "/hints", { challenge: created.id, content: hint.text, cost: hint.cost });
        await request("PATCH", `/challenges/${created.id}`, { state: "visible" });
      } catch (error) {
        await request("DELETE", `/challenges/${created.id}`).catch(() => undefined);
        throw error;
      }
      return { platformChallengeId: created.id };
    },
    async unpublishChallenge(_ctf, challenge) {
      if (!challenge.platformChallengeId) throw new HostError("The challenge has no CTFd id.");
      await request("PATCH", `/challenges/${challenge.platformChallengeId}`, { state: "hidden" });
    },
    async deployChallenge(deployment) {
      return { url: fallbackUrl(deployment.id) };
    },
    async stopChallenge() {},
  };
}
