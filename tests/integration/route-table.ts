import type { Db } from "@/db";
import type { ApiScope } from "@/lib/keys/scopes";
import { createCertification } from "@/lib/certification/catalog";
import * as certificationsRoute from "@/app/api/v1/certifications/route";
import * as certificationRoute from "@/app/api/v1/certifications/[id]/route";
import * as domainsRoute from "@/app/api/v1/certifications/[id]/domains/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import * as webhookRoute from "@/app/api/v1/webhooks/[id]/route";
import { createWebhook } from "@/lib/webhooks/endpoints";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as testRecipientsRoute from "@/app/api/v1/tests/[code]/recipients/route";
import * as resendRoute from "@/app/api/v1/tests/[code]/recipients/[id]/resend/route";
import * as classesRoute from "@/app/api/v1/classes/route";
import * as classRoute from "@/app/api/v1/classes/[id]/route";
import * as invitationsRoute from "@/app/api/v1/classes/[id]/invitations/route";
import * as progressRoute from "@/app/api/v1/classes/[id]/progress/route";
import { createTest } from "@/lib/tests/tests";
import { createClass } from "@/lib/classes/classes";
import { setPlan } from "@/lib/workspaces";
import { catalogCertificationId } from "@/db/seed";
import { domains } from "@/db/schema";
import { eq } from "drizzle-orm";
import * as ctfsRoute from "@/app/api/v1/ctfs/route";
import * as ctfRoute from "@/app/api/v1/ctfs/[ctf_id]/route";
import * as ctfDeployRoute from "@/app/api/v1/ctfs/[ctf_id]/deploy/route";
import * as ctfStopRoute from "@/app/api/v1/ctfs/[ctf_id]/stop/route";
import * as ctfArchiveRoute from "@/app/api/v1/ctfs/[ctf_id]/archive/route";
import * as challengesRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/route";
import * as generateRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/generate/route";
import * as challengeRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/route";
import * as publishRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/publish/route";
import * as unpublishRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/unpublish/route";
import * as membersRoute from "@/app/api/v1/ctfs/[ctf_id]/members/route";
import * as deploymentsRoute from "@/app/api/v1/deployments/route";
import * as deploymentRoute from "@/app/api/v1/deployments/[deployment_id]/route";
import * as deploymentStopRoute from "@/app/api/v1/deployments/[deployment_id]/stop/route";
import { completeCtfDeploy, createCtf, deployCtf } from "@/lib/ctf/competitions";
import { completePublish, createChallenge, publishChallenge } from "@/lib/ctf/challenges";
import { completeDeploymentDeploy, createDeployment } from "@/lib/ctf/deployments";
import type { Trainer } from "../helpers/fixtures";

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * Every /api/v1 route, for the shared auth/tenant/scope cases. A new route adds one entry
 * here; `api-contract.test.ts` fails while a route file is missing from this table.
 */
export type RouteCase = {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** As in the OpenAPI document, under /api/v1. */
  path: string;
  handler: Handler;
  /** Scope the route requires, if any. */
  scope?: ApiScope;
  /** Path params naming a resource that belongs to `owner` (created here). */
  ownParams?: (db: Db, owner: Trainer) => Promise<Record<string, string>>;
  /** A valid request body, for routes that take one. */
  body?: (db: Db, owner: Trainer) => Promise<unknown>;
};

async function ownCertification(db: Db, owner: Trainer) {
  const certification = await createCertification(db, owner.workspaceId, {
    name: "Internal onboarding",
    vendor: "Acme",
    domains: [{ name: "Basics", questions: [{ prompt: "2 + 2?", options: ["3", "4"], correct: 1 }] }],
  });
  return { id: String(certification.id) };
}

async function ownWebhook(db: Db, owner: Trainer) {
  const webhook = await createWebhook(db, owner.workspaceId, { url: "https://example.com/hook" }, "api");
  return { id: webhook.id };
}

async function catalogCertification(db: Db) {
  const id = (await catalogCertificationId(db, "aws-clf-c02"))!;
  const domainIds = (await db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, id))).map((d) => d.id);
  return { id, domainIds };
}

async function ownTest(db: Db, owner: Trainer) {
  await setPlan(db, owner.workspaceId, "pro");
  const { id, domainIds } = await catalogCertification(db);
  const test = await createTest(db, owner.workspaceId, {
    certification_id: id,
    domains: domainIds.slice(0, 2),
    questions: 4,
    recipients: [{ email: `r${Date.now()}${Math.random()}@example.com`, name: "R" }],
    send_email: false,
  });
  return { code: test.code, id: String(test.recipients[0].id) };
}

async function ownClass(db: Db, owner: Trainer) {
  await setPlan(db, owner.workspaceId, "pro");
  const { id } = await catalogCertification(db);
  const klass = await createClass(db, owner.workspaceId, { name: "Class", certification_id: id, emails: [] });
  return { id: String(klass.id) };
}

const ctfInput = { title: "Spring CTF", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-02T10:00:00Z" };
const challengeInput = { title: "Warm-up", category: "web" as const, flag: "CTF{warm}", points: 50 };

async function ownCtf(db: Db, owner: Trainer, state: "draft" | "deployed" = "draft") {
  const ctf = await createCtf(db, owner.workspaceId, ctfInput);
  if (state === "deployed") {
    await deployCtf(db, owner.workspaceId, ctf.id);
    await completeCtfDeploy(db, ctf.id);
  }
  return { ctf_id: ctf.id };
}

async function ownChallenge(db: Db, owner: Trainer, state: "draft" | "published" = "draft") {
  const { ctf_id } = await ownCtf(db, owner, state === "published" ? "deployed" : "draft");
  const challenge = await createChallenge(db, owner.workspaceId, ctf_id, challengeInput);
  if (state === "published") {
    await publishChallenge(db, owner.workspaceId, ctf_id, challenge.id);
    await completePublish(db, challenge.id);
  }
  return { ctf_id, challenge_id: challenge.id };
}

async function liveDeployment(db: Db, owner: Trainer) {
  const { challenge_id } = await ownChallenge(db, owner);
  const deployment = await createDeployment(db, owner.workspaceId, { challenge_id, duration_minutes: 30 });
  await completeDeploymentDeploy(db, deployment.id);
  return { deployment_id: deployment.id };
}

let emailCounter = 0;
const freshEmail = () => `s${Date.now()}-${emailCounter++}@example.com`;

export const apiRoutes: RouteCase[] = [
  { method: "GET", path: "/certifications", handler: certificationsRoute.GET as Handler },
  { method: "GET", path: "/certifications/{id}", handler: certificationRoute.GET as Handler, ownParams: ownCertification },
  { method: "GET", path: "/certifications/{id}/domains", handler: domainsRoute.GET as Handler, ownParams: ownCertification },
  { method: "GET", path: "/webhooks", handler: webhooksRoute.GET as Handler, scope: "ctf:read" },
  {
    method: "POST",
    path: "/webhooks",
    handler: webhooksRoute.POST as Handler,
    scope: "ctf:admin",
    body: async () => ({ url: "https://example.com/hook", events: [] }),
  },
  { method: "DELETE", path: "/webhooks/{id}", handler: webhookRoute.DELETE as Handler, scope: "ctf:admin", ownParams: ownWebhook },
  { method: "GET", path: "/tests", handler: testsRoute.GET as Handler },
  {
    method: "POST",
    path: "/tests",
    handler: testsRoute.POST as Handler,
    body: async (db) => {
      const { id, domainIds } = await catalogCertification(db);
      return { certification_id: id, domains: domainIds.slice(0, 1), questions: 2, recipients: [{ email: freshEmail(), name: "A" }], send_email: false };
    },
  },
  { method: "GET", path: "/tests/{code}", handler: testRoute.GET as Handler, ownParams: ownTest },
  {
    method: "POST",
    path: "/tests/{code}/recipients",
    handler: testRecipientsRoute.POST as Handler,
    ownParams: ownTest,
    body: async () => ({ recipients: [{ email: freshEmail() }], send_email: false }),
  },
  { method: "POST", path: "/tests/{code}/recipients/{id}/resend", handler: resendRoute.POST as Handler, ownParams: ownTest },
  { method: "GET", path: "/classes", handler: classesRoute.GET as Handler },
  {
    method: "POST",
    path: "/classes",
    handler: classesRoute.POST as Handler,
    body: async (db, owner) => {
      await setPlan(db, owner.workspaceId, "pro");
      return { name: "Evening group", certification_id: (await catalogCertification(db)).id, emails: [] };
    },
  },
  { method: "GET", path: "/classes/{id}", handler: classRoute.GET as Handler, ownParams: ownClass },
  {
    method: "POST",
    path: "/classes/{id}/invitations",
    handler: invitationsRoute.POST as Handler,
    ownParams: ownClass,
    body: async () => ({ emails: [freshEmail()] }),
  },
  { method: "GET", path: "/classes/{id}/progress", handler: progressRoute.GET as Handler, ownParams: ownClass },
  { method: "GET", path: "/ctfs", handler: ctfsRoute.GET as Handler, scope: "ctf:read" },
  { method: "POST", path: "/ctfs", handler: ctfsRoute.POST as Handler, scope: "ctf:write", body: async () => ctfInput },
  { method: "GET", path: "/ctfs/{ctf_id}", handler: ctfRoute.GET as Handler, scope: "ctf:read", ownParams: (db, o) => ownCtf(db, o) },
  { method: "PATCH", path: "/ctfs/{ctf_id}", handler: ctfRoute.PATCH as Handler, scope: "ctf:write", ownParams: (db, o) => ownCtf(db, o), body: async () => ({ title: "Renamed" }) },
  { method: "DELETE", path: "/ctfs/{ctf_id}", handler: ctfRoute.DELETE as Handler, scope: "ctf:deploy", ownParams: (db, o) => ownCtf(db, o) },
  { method: "POST", path: "/ctfs/{ctf_id}/deploy", handler: ctfDeployRoute.POST as Handler, scope: "ctf:deploy", ownParams: (db, o) => ownCtf(db, o) },
  { method: "POST", path: "/ctfs/{ctf_id}/stop", handler: ctfStopRoute.POST as Handler, scope: "ctf:deploy", ownParams: (db, o) => ownCtf(db, o, "deployed") },
  { method: "POST", path: "/ctfs/{ctf_id}/archive", handler: ctfArchiveRoute.POST as Handler, scope: "ctf:deploy", ownParams: (db, o) => ownCtf(db, o, "deployed") },
  { method: "GET", path: "/ctfs/{ctf_id}/challenges", handler: challengesRoute.GET as Handler, scope: "ctf:read", ownParams: (db, o) => ownCtf(db, o) },
  { method: "POST", path: "/ctfs/{ctf_id}/challenges", handler: challengesRoute.POST as Handler, scope: "ctf:write", ownParams: (db, o) => ownCtf(db, o), body: async () => challengeInput },
  {
    method: "POST",
    path: "/ctfs/{ctf_id}/challenges/generate",
    handler: generateRoute.POST as Handler,
    scope: "ctf:write",
    ownParams: (db, o) => ownCtf(db, o),
    body: async () => ({ category: "crypto", difficulty: "medium" }),
  },
  { method: "GET", path: "/ctfs/{ctf_id}/challenges/{challenge_id}", handler: challengeRoute.GET as Handler, scope: "ctf:read", ownParams: (db, o) => ownChallenge(db, o) },
  {
    method: "PATCH",
    path: "/ctfs/{ctf_id}/challenges/{challenge_id}",
    handler: challengeRoute.PATCH as Handler,
    scope: "ctf:write",
    ownParams: (db, o) => ownChallenge(db, o),
    body: async () => ({ points: 75 }),
  },
  { method: "DELETE", path: "/ctfs/{ctf_id}/challenges/{challenge_id}", handler: challengeRoute.DELETE as Handler, scope: "ctf:write", ownParams: (db, o) => ownChallenge(db, o) },
  {
    method: "POST",
    path: "/ctfs/{ctf_id}/challenges/{challenge_id}/publish",
    handler: publishRoute.POST as Handler,
    scope: "ctf:write",
    ownParams: async (db, o) => {
      const { ctf_id } = await ownCtf(db, o, "deployed");
      const challenge = await createChallenge(db, o.workspaceId, ctf_id, challengeInput);
      return { ctf_id, challenge_id: challenge.id };
    },
  },
  { method: "POST", path: "/ctfs/{ctf_id}/challenges/{challenge_id}/unpublish", handler: unpublishRoute.POST as Handler, scope: "ctf:write", ownParams: (db, o) => ownChallenge(db, o, "published") },
  { method: "GET", path: "/ctfs/{ctf_id}/members", handler: membersRoute.GET as Handler, scope: "ctf:read", ownParams: (db, o) => ownCtf(db, o) },
  {
    method: "POST",
    path: "/ctfs/{ctf_id}/members",
    handler: membersRoute.POST as Handler,
    scope: "ctf:admin",
    ownParams: (db, o) => ownCtf(db, o),
    body: async () => ({ email: freshEmail() }),
  },
  { method: "GET", path: "/deployments", handler: deploymentsRoute.GET as Handler, scope: "ctf:read" },
  {
    method: "POST",
    path: "/deployments",
    handler: deploymentsRoute.POST as Handler,
    scope: "ctf:deploy",
    body: async (db, o) => ({ challenge_id: (await ownChallenge(db, o)).challenge_id, duration_minutes: 10 }),
  },
  { method: "GET", path: "/deployments/{deployment_id}", handler: deploymentRoute.GET as Handler, scope: "ctf:read", ownParams: liveDeployment },
  { method: "POST", path: "/deployments/{deployment_id}/stop", handler: deploymentStopRoute.POST as Handler, scope: "ctf:deploy", ownParams: liveDeployment },
];

/** "/certifications/{id}" with { id: "7" } → "/api/v1/certifications/7". */
export function urlOf(route: RouteCase, params: Record<string, string> = {}): string {
  return "/api/v1" + route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? "0");
}
