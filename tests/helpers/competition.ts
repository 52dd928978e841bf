import { expect } from "vitest";
import * as attemptsRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/attempts/route";
import * as unlockRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/hints/[n]/unlock/route";
import * as ctfsRoute from "@/app/api/v1/ctfs/route";
import * as ctfRoute from "@/app/api/v1/ctfs/[ctf_id]/route";
import * as deployRoute from "@/app/api/v1/ctfs/[ctf_id]/deploy/route";
import * as stopRoute from "@/app/api/v1/ctfs/[ctf_id]/stop/route";
import * as archiveRoute from "@/app/api/v1/ctfs/[ctf_id]/archive/route";
import * as challengesRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/route";
import * as generateRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/generate/route";
import * as challengeRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/route";
import * as publishRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/publish/route";
import * as unpublishRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/unpublish/route";
import * as membersRoute from "@/app/api/v1/ctfs/[ctf_id]/members/route";
import * as deploymentsRoute from "@/app/api/v1/deployments/route";
import * as deploymentRoute from "@/app/api/v1/deployments/[deployment_id]/route";
import * as deploymentStopRoute from "@/app/api/v1/deployments/[deployment_id]/stop/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import type { Db } from "@/db";
import type { Trainer } from "./fixtures";
import { call, type CallResult } from "./http";
import { publishedChallenge, runningCtf } from "./samples/play";
import { sortedCompactJson, verifyCompetition, type RecordedRequest } from "./receivers";
import { sleep } from "./delivery";

export { sleep, waitUntil } from "./delivery";

/**
 * A thin REST client over the real route handlers, called in-process: every competition
 * action in these tests goes through the API as an integrator's client would send it.
 */
export function client(key: string) {
  const base = "/api/v1";
  const ctf = (id: string) => `${base}/ctfs/${id}`;
  const challenge = (ctfId: string, id: string) => `${ctf(ctfId)}/challenges/${id}`;
  return {
    listCtfs: (query?: Record<string, string | number>) => call(ctfsRoute.GET, `${base}/ctfs`, { key, query }),
    createCtf: (body: unknown) => call(ctfsRoute.POST, `${base}/ctfs`, { method: "POST", key, body }),
    getCtf: (id: string) => call(ctfRoute.GET, ctf(id), { key, params: { ctf_id: id } }),
    updateCtf: (id: string, body: unknown) => call(ctfRoute.PATCH, ctf(id), { method: "PATCH", key, params: { ctf_id: id }, body }),
    deleteCtf: (id: string) => call(ctfRoute.DELETE, ctf(id), { method: "DELETE", key, params: { ctf_id: id } }),
    deploy: (id: string) => call(deployRoute.POST, `${ctf(id)}/deploy`, { method: "POST", key, params: { ctf_id: id } }),
    stop: (id: string) => call(stopRoute.POST, `${ctf(id)}/stop`, { method: "POST", key, params: { ctf_id: id } }),
    archive: (id: string) => call(archiveRoute.POST, `${ctf(id)}/archive`, { method: "POST", key, params: { ctf_id: id } }),
    listChallenges: (ctfId: string, query?: Record<string, string | number>) =>
      call(challengesRoute.GET, `${ctf(ctfId)}/challenges`, { key, params: { ctf_id: ctfId }, query }),
    createChallenge: (ctfId: string, body: unknown) =>
      call(challengesRoute.POST, `${ctf(ctfId)}/challenges`, { method: "POST", key, params: { ctf_id: ctfId }, body }),
    generate: (ctfId: string, body: unknown) =>
      call(generateRoute.POST, `${ctf(ctfId)}/challenges/generate`, { method: "POST", key, params: { ctf_id: ctfId }, body }),
    getChallenge: (ctfId: string, id: string) => call(challengeRoute.GET, challenge(ctfId, id), { key, params: { ctf_id: ctfId, challenge_id: id } }),
    updateChallenge: (ctfId: string, id: string, body: unknown) =>
      call(challengeRoute.PATCH, challenge(ctfId, id), { method: "PATCH", key, params: { ctf_id: ctfId, challenge_id: id }, body }),
    deleteChallenge: (ctfId: string, id: string) =>
      call(challengeRoute.DELETE, challenge(ctfId, id), { method: "DELETE", key, params: { ctf_id: ctfId, challenge_id: id } }),
    publish: (ctfId: string, id: string) =>
      call(publishRoute.POST, `${challenge(ctfId, id)}/publish`, { method: "POST", key, params: { ctf_id: ctfId, challenge_id: id } }),
    unpublish: (ctfId: string, id: string) =>
      call(unpublishRoute.POST, `${challenge(ctfId, id)}/unpublish`, { method: "POST", key, params: { ctf_id: ctfId, challenge_id: id } }),
    listMembers: (ctfId: string, query?: Record<string, string | number>) =>
      call(membersRoute.GET, `${ctf(ctfId)}/members`, { key, params: { ctf_id: ctfId }, query }),
    invite: (ctfId: string, email: string) => call(membersRoute.POST, `${ctf(ctfId)}/members`, { method: "POST", key, params: { ctf_id: ctfId }, body: { email } }),
    listDeployments: (query?: Record<string, string | number>) => call(deploymentsRoute.GET, `${base}/deployments`, { key, query }),
    createDeployment: (body: unknown) => call(deploymentsRoute.POST, `${base}/deployments`, { method: "POST", key, body }),
    getDeployment: (id: string) => call(deploymentRoute.GET, `${base}/deployments/${id}`, { key, params: { deployment_id: id } }),
    stopDeployment: (id: string) =>
      call(deploymentStopRoute.POST, `${base}/deployments/${id}/stop`, { method: "POST", key, params: { deployment_id: id } }),
    listWebhooks: () => call(webhooksRoute.GET, `${base}/webhooks`, { key }),
    createWebhook: (body: unknown) => call(webhooksRoute.POST, `${base}/webhooks`, { method: "POST", key, body }),
  };
}
export type Client = ReturnType<typeof client>;

/** The headers of a request from the app's own pages: what the player routes that change something want. */
export const sameOrigin = { origin: "http://localhost", "x-forwarded-host": "localhost" };

/**
 * What the play tests start from: a deployed competition of `trainer` running now (started an
 * hour ago, ends tomorrow, unless `window` says otherwise) with one published challenge —
 * "Warm-up", flag `CTF{warm}`, 100 points, hints costing 10 and 0 — unless `challenge` overrides.
 */
export async function playableCompetition(
  db: Db,
  trainer: Trainer,
  { window, challenge }: { window?: { startsAt?: Date; endsAt?: Date }; challenge?: Record<string, unknown> } = {},
): Promise<{ ctfId: string; challengeId: string }> {
  const ctfId = await runningCtf(db, trainer, window);
  return { ctfId, challengeId: await publishedChallenge(db, trainer, ctfId, challenge) };
}

/** A player's flag (their cookie, or none) through the attempts route, from our origin. */
export function submitFlagAs(cookie: string | undefined, ctfId: string, challengeId: string, flag: string) {
  const params = { ctf_id: ctfId, challenge_id: challengeId };
  return call(attemptsRoute.POST, `/api/c/${ctfId}/challenges/${challengeId}/attempts`, { method: "POST", params, body: { flag }, headers: { ...sameOrigin, ...(cookie ? { cookie } : {}) } });
}

/** A player unlocks hint `n` through its route, from our origin. */
export function unlockHintAs(cookie: string, ctfId: string, challengeId: string, n = 1) {
  const params = { ctf_id: ctfId, challenge_id: challengeId, n: String(n) };
  return call(unlockRoute.POST, `/api/c/${ctfId}/challenges/${challengeId}/hints/${n}/unlock`, { method: "POST", params, headers: { ...sameOrigin, cookie } });
}

/** Fails with the response when the status is not the expected one. */
export function expectStatus<T = any>(result: CallResult<T>, status: number): T {
  if (result.status !== status) throw new Error(`expected HTTP ${status}, got ${result.status}: ${JSON.stringify(result.body)}`);
  return result.body;
}

/** A competition window in the future (the dates a trainer would give). */
export function ctfInput(overrides: Record<string, unknown> = {}) {
  return { title: "Spring CTF", description: "Twelve challenges, one weekend.", starts_at: "2027-03-01T09:00:00Z", ends_at: "2027-03-02T21:00:00Z", ...overrides };
}

export function challengeInput(overrides: Record<string, unknown> = {}) {
  return {
    title: "Cookie Monster",
    category: "web",
    difficulty: "easy",
    description: "The admin trusts a cookie.",
    points: 120,
    flag: "CTF{c00kie_m0nster_2027}",
    hints: [{ text: "Look at Set-Cookie.", cost: 10 }],
    ...overrides,
  };
}

/** Polls a read until `done` holds (the asynchronous transitions), returning the last body. */
export async function pollUntil<T>(what: string, read: () => Promise<CallResult<T>>, done: (body: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: CallResult<T> | undefined;
  for (;;) {
    last = await read();
    if (last.status === 200 && done(last.body)) return last.body;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last answer ${last.status}: ${JSON.stringify(last.body)}`);
    await sleep(100);
  }
}

/** Waits for a status that is not the transitional one and returns the resource. */
export function settle<T extends { status: string }>(read: () => Promise<CallResult<T>>, transitional: string, timeoutMs?: number): Promise<T> {
  return pollUntil(`leaving ${transitional}`, read, (body) => body.status !== transitional, timeoutMs);
}

/** Requests a receiver got for one event name. */
export function requestsFor(requests: RecordedRequest[], event: string): RecordedRequest[] {
  return requests.filter((request) => request.headers["x-service-event"] === event);
}

export type CompetitionBody = { data: Record<string, unknown>; delivered_at: number; event: string };

/**
 * Checks one delivery against the competition wire format as the spec gives it, with the
 * receiver-side verifier written from the spec, and returns the parsed body.
 */
export function expectCompetitionDelivery(request: RecordedRequest, secret: string, event: string, window?: { from: number; to: number }): CompetitionBody {
  expect(request.method).toBe("POST");
  expect(request.headers["content-type"]).toBe("application/json");
  expect(request.headers["user-agent"]).toBe("Service-Webhook/1");
  expect(request.headers["x-service-event"]).toBe(event);
  expect(request.headers["x-service-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
  expect(verifyCompetition(request.raw, request.headers, secret)).toBe("valid");
  expect(verifyCompetition(request.raw, request.headers, `${secret}!`)).toBe("mismatch");

  const body = JSON.parse(request.raw.toString("utf8")) as CompetitionBody;
  expect(Object.keys(body)).toEqual(["data", "delivered_at", "event"]);
  // The exact bytes are the compact, sorted-keys serialisation of {data, delivered_at, event}.
  expect(request.raw.toString("utf8")).toBe(sortedCompactJson({ data: body.data, delivered_at: body.delivered_at, event: body.event }));
  expect(body.event).toBe(event);
  expect(Number.isInteger(body.delivered_at)).toBe(true);
  if (window) {
    expect(body.delivered_at).toBeGreaterThanOrEqual(Math.floor(window.from / 1000));
    expect(body.delivered_at).toBeLessThanOrEqual(Math.ceil(window.to / 1000));
  }
  expect(body.data).toBeTypeOf("object");
  return body;
}

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
