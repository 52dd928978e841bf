import { z } from "zod";
import { documentRoute } from "@/lib/api/openapi";
import { pagingQuery } from "@/lib/api/paging";
import {
  challengeList,
  challengeView,
  createChallengeInput,
  createCtfInput,
  createDeploymentInput,
  ctfList,
  ctfView,
  deploymentList,
  deploymentView,
  generateChallengeInput,
  inviteMemberInput,
  memberList,
  memberView,
  updateChallengeInput,
  updateCtfInput,
} from "./schemas";

const ctfParams = z.object({ ctf_id: z.string().meta({ description: "Competition id (ctf_…)." }) });
const challengeParams = ctfParams.extend({ challenge_id: z.string().meta({ description: "Challenge id (chl_…)." }) });
const deploymentParams = z.object({ deployment_id: z.string().meta({ description: "Deployment id (dep_…)." }) });
const deleted = z.object({ deleted: z.literal(true), id: z.string() });
const tag = "Competitions";

documentRoute({ method: "get", path: "/ctfs", tag, summary: "List managed competitions", scope: "ctf:read", query: pagingQuery, success: { status: 200, description: "A page of competitions.", schema: ctfList } });
documentRoute({
  method: "post",
  path: "/ctfs",
  tag,
  summary: "Create a managed competition",
  description: "Starts as `draft`. States: draft → deploying → deployed (or deploy_failed, retryable) → stopped → archived.",
  scope: "ctf:write",
  body: createCtfInput,
  success: { status: 201, description: "The competition.", schema: ctfView },
});
documentRoute({ method: "get", path: "/ctfs/{ctf_id}", tag, summary: "Read a managed competition", description: "Prefer webhooks to polling this.", scope: "ctf:read", params: ctfParams, success: { status: 200, description: "The competition.", schema: ctfView } });
documentRoute({ method: "patch", path: "/ctfs/{ctf_id}", tag, summary: "Update a managed competition", description: "Not once archived (409).", scope: "ctf:write", params: ctfParams, body: updateCtfInput, errors: [409], success: { status: 200, description: "The competition.", schema: ctfView } });
documentRoute({
  method: "delete",
  path: "/ctfs/{ctf_id}",
  tag,
  summary: "Delete a managed competition",
  description: "Only when not deployed or deploying (409): its infrastructure is torn down, it is deleted, then `ctf.deleted`.",
  scope: "ctf:deploy",
  params: ctfParams,
  errors: [409],
  success: { status: 200, description: "Deleted.", schema: deleted },
});
documentRoute({
  method: "post",
  path: "/ctfs/{ctf_id}/deploy",
  tag,
  summary: "Deploy a managed competition",
  description: "Asynchronous: answers `deploying` at once; when the hosting platform reports it reachable it becomes `deployed` with a `url` and `ctf.deployed` is sent. A host failure → `deploy_failed` with `last_error`, no event; deploy again to retry. From draft, stopped or deploy_failed (else 409).",
  scope: "ctf:deploy",
  params: ctfParams,
  errors: [409],
  success: { status: 202, description: "Deploying.", schema: ctfView },
});
documentRoute({ method: "post", path: "/ctfs/{ctf_id}/stop", tag, summary: "Stop a deployed competition", description: "From deployed (else 409). It can be deployed again.", scope: "ctf:deploy", params: ctfParams, errors: [409], success: { status: 200, description: "Stopped.", schema: ctfView } });
documentRoute({
  method: "post",
  path: "/ctfs/{ctf_id}/archive",
  tag,
  summary: "Archive a competition",
  description: "From deployed or stopped (else 409): a final snapshot of challenges, members and scores is stored, then `ctf.archived`.",
  scope: "ctf:deploy",
  params: ctfParams,
  errors: [409],
  success: { status: 200, description: "Archived.", schema: ctfView },
});

documentRoute({ method: "get", path: "/ctfs/{ctf_id}/challenges", tag: "Challenges", summary: "List a competition's challenges", scope: "ctf:read", params: ctfParams, query: pagingQuery, success: { status: 200, description: "A page of challenges.", schema: challengeList } });
documentRoute({ method: "post", path: "/ctfs/{ctf_id}/challenges", tag: "Challenges", summary: "Create a challenge", description: "The flag is stored hashed and never returned.", scope: "ctf:write", params: ctfParams, body: createChallengeInput, errors: [409], success: { status: 201, description: "The challenge (draft).", schema: challengeView } });
documentRoute({
  method: "post",
  path: "/ctfs/{ctf_id}/challenges/generate",
  tag: "Challenges",
  summary: "Generate a challenge",
  description: "Asynchronous: answers a `generating` challenge; it becomes a `draft` built from the shipped templates for the category and difficulty.",
  scope: "ctf:write",
  params: ctfParams,
  body: generateChallengeInput,
  errors: [409],
  success: { status: 202, description: "Generating.", schema: challengeView },
});
documentRoute({ method: "get", path: "/ctfs/{ctf_id}/challenges/{challenge_id}", tag: "Challenges", summary: "Read a challenge", scope: "ctf:read", params: challengeParams, success: { status: 200, description: "The challenge.", schema: challengeView } });
documentRoute({ method: "patch", path: "/ctfs/{ctf_id}/challenges/{challenge_id}", tag: "Challenges", summary: "Update a challenge", description: "While not published (409).", scope: "ctf:write", params: challengeParams, body: updateChallengeInput, errors: [409], success: { status: 200, description: "The challenge.", schema: challengeView } });
documentRoute({ method: "delete", path: "/ctfs/{ctf_id}/challenges/{challenge_id}", tag: "Challenges", summary: "Delete a challenge", description: "While not published (409).", scope: "ctf:write", params: challengeParams, errors: [409], success: { status: 200, description: "Deleted.", schema: deleted } });
documentRoute({
  method: "post",
  path: "/ctfs/{ctf_id}/challenges/{challenge_id}/publish",
  tag: "Challenges",
  summary: "Publish a challenge to the hosting platform",
  description: "The competition must be deployed (409). Asynchronous: `publishing`, then `published` with the platform's `platform_challenge_id` and `challenge.published`; a host failure → `publish_failed`, no event, retryable.",
  scope: "ctf:write",
  params: challengeParams,
  errors: [409],
  success: { status: 202, description: "Publishing.", schema: challengeView },
});
documentRoute({
  method: "post",
  path: "/ctfs/{ctf_id}/challenges/{challenge_id}/unpublish",
  tag: "Challenges",
  summary: "Remove a challenge from the hosting platform",
  description: "Asynchronous: `unpublishing`, then `unpublished` and `challenge.unpublished`; a host failure → `unpublish_failed`, retryable.",
  scope: "ctf:write",
  params: challengeParams,
  errors: [409],
  success: { status: 202, description: "Unpublishing.", schema: challengeView },
});

documentRoute({ method: "get", path: "/deployments", tag: "Deployments", summary: "List standalone deployments", scope: "ctf:read", query: pagingQuery, success: { status: 200, description: "A page of deployments.", schema: deploymentList } });
documentRoute({
  method: "post",
  path: "/deployments",
  tag: "Deployments",
  summary: "Deploy one challenge for a time window",
  description: "Give `duration_minutes` or `ends_at`. Asynchronous: `deploying`, then `live` with a `url` and `deployment.deployed`; when the window elapses it stops by itself (`deployment.stopped`, reason `window_elapsed`), across restarts.",
  scope: "ctf:deploy",
  body: createDeploymentInput,
  errors: [409],
  success: { status: 202, description: "Deploying.", schema: deploymentView },
});
documentRoute({ method: "get", path: "/deployments/{deployment_id}", tag: "Deployments", summary: "Read a deployment", scope: "ctf:read", params: deploymentParams, success: { status: 200, description: "The deployment.", schema: deploymentView } });
documentRoute({ method: "post", path: "/deployments/{deployment_id}/stop", tag: "Deployments", summary: "Stop a live deployment early", description: "`deployment.stopped` with reason `stopped_by_request`. From live (else 409).", scope: "ctf:deploy", params: deploymentParams, errors: [409], success: { status: 200, description: "Stopped.", schema: deploymentView } });

documentRoute({ method: "get", path: "/ctfs/{ctf_id}/members", tag: "Members", summary: "List a competition's members", scope: "ctf:read", params: ctfParams, query: pagingQuery, success: { status: 200, description: "A page of members.", schema: memberList } });
documentRoute({
  method: "post",
  path: "/ctfs/{ctf_id}/members",
  tag: "Members",
  summary: "Invite a competitor by e-mail",
  description: "Sends an e-mail with an accept link and `member.invited` (again on re-invitation). Accepting → `joined` and `member.joined`. A joined member → 409.",
  scope: "ctf:admin",
  params: ctfParams,
  body: inviteMemberInput,
  errors: [409],
  success: { status: 201, description: "The member.", schema: memberView },
});
