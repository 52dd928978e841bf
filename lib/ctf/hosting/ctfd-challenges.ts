import type { Challenge, FlagMode } from "@/db/schema";
import type { CtfdClient } from "./ctfd-client";
import { uploadChallengeFile } from "./ctfd-files";
import type { HostFile } from "./types";

/** CTFd's flag types for ours: a static flag (case-insensitive through its `data`), or a regex (CTFd matches it whole). */
function ctfdFlagKind(mode: FlagMode): { type: "static" | "regex"; data: string } {
  if (mode === "regex") return { type: "regex", data: "" };
  return { type: "static", data: mode === "case_insensitive" ? "case_insensitive" : "" };
}

/**
 * What CTFd's challenge takes of ours: a `dynamic` challenge is CTFd's dynamic type with
 * `initial`, `minimum`, `decay` and the logarithmic (parabolic) `function`, the formula we use
 * (`value` starts at `initial`); the attempt cap is `max_attempts` (0: unlimited); the
 * prerequisites are CTFd's `requirements`, by CTFd's ids.
 */
function ctfdSettings(challenge: Challenge, prerequisites: number[]) {
  const scoring = challenge.scoring;
  const value =
    scoring.type === "dynamic"
      ? { type: "dynamic", value: scoring.initial, initial: scoring.initial, minimum: scoring.minimum, decay: scoring.decay, function: "logarithmic" }
      : { type: "standard", value: challenge.points };
  return { ...value, max_attempts: challenge.maxAttempts ?? 0, requirements: { prerequisites } };
}

export async function publishChallenge(client: CtfdClient, challenge: Challenge, flag: string, files: HostFile[], prerequisites: number[] = []): Promise<{ platformChallengeId: number }> {
  const settings = ctfdSettings(challenge, prerequisites);
  if (challenge.platformChallengeId) {
    // Back from hidden: files added while it was unpublished and not yet uploaded go first,
    // then what may have been edited meanwhile goes with the state (CTFd cannot change a
    // challenge's type: one edited from static to dynamic keeps its CTFd type).
    for (const file of files) await uploadChallengeFile(client, challenge.platformChallengeId, file);
    const { type: _type, ...editable } = settings;
    await client.request("PATCH", `/challenges/${challenge.platformChallengeId}`, {
      name: challenge.title,
      category: challenge.category,
      description: challenge.description,
      ...editable,
      state: "visible",
    });
    return { platformChallengeId: challenge.platformChallengeId };
  }
  // Created hidden, made visible only once its flag, hints and files are in: players never
  // see a challenge they cannot solve. A failure in between deletes it, its files with it
  // (best effort; at worst a hidden orphan stays), so the retry creates exactly one.
  const created = await client.request<{ id: number }>("POST", "/challenges", {
    name: challenge.title,
    category: challenge.category,
    description: challenge.description,
    ...settings,
    state: "hidden",
  });
  try {
    await client.request("POST", "/flags", { challenge: created.id, content: flag, ...ctfdFlagKind(challenge.flagMode) });
    for (const hint of challenge.hints) await client.request("POST", "/hints", { challenge: created.id, content: hint.text, cost: hint.cost });
    for (const tag of challenge.tags) await client.request("POST", "/tags", { challenge_id: created.id, value: tag });
    for (const file of files) await uploadChallengeFile(client, created.id, file);
    await client.request("PATCH", `/challenges/${created.id}`, { state: "visible" });
  } catch (error) {
    await client.request("DELETE", `/challenges/${created.id}`).catch(() => undefined);
    throw error;
  }
  return { platformChallengeId: created.id };
}

/** Hides the challenge on CTFd (`PATCH /api/v1/challenges/{id}`, `state: hidden`). */
export async function unpublishChallenge(client: CtfdClient, platformChallengeId: number): Promise<void> {
  await client.request("PATCH", `/challenges/${platformChallengeId}`, { state: "hidden" });
}
