import { certificationContracts } from "@/lib/certification/catalog/contracts";
import { ownCertificationContracts } from "@/lib/certification/own/contracts";
import { classContracts } from "@/lib/certification/classes/contracts";
import { artifactContracts } from "@/lib/ctf/play/artifacts/contracts";
import { ctfContracts } from "@/lib/ctf/competitions/contracts";
import { deploymentPlayContracts } from "@/lib/ctf/deployments/play-contracts";
import { fileContracts } from "@/lib/ctf/challenges/files/contracts";
import { playContracts, scoreGraphContracts } from "@/lib/ctf/play/contracts";
import { emailContracts } from "@/lib/platform/email/contracts";
import { keyContracts } from "@/lib/platform/keys/contracts";
import { resendAllContracts, testContracts } from "@/lib/certification/tests/contracts";
import { insightContracts } from "@/lib/certification/insight/contracts";
import { takingContracts } from "@/lib/certification/taking/contracts";
import { challengeContracts } from "@/lib/ctf/challenges/contracts";
import { importCtfdContracts } from "@/lib/ctf/challenges/import-ctfd/contracts";
import { deploymentContracts } from "@/lib/ctf/deployments/contracts";
import { webhookContracts } from "@/lib/platform/webhooks/contracts";
import { competitionEndpointContracts, testResultEndpointContracts } from "@/lib/platform/webhooks/management-contracts";
import { webhookHealthContracts } from "@/lib/platform/webhooks/health/contracts";
import { workspaceContracts } from "@/lib/platform/workspaces/contracts";
import { certificateContracts } from "@/lib/certification/certificates/contracts";
import { announcementContracts } from "@/lib/ctf/announcements/contracts";
import { teamContracts } from "@/lib/ctf/teams/contracts";
import type { AnyContract } from "@/lib/kernel/contract";

/**
 * Every contract of the app, in the order of the reference: each route handler under app/api
 * is `handle(contract, …)` with one of these (tests/platform/route-table/contracts.test.ts fails on a
 * route served without one, and on a contract no route serves). The OpenAPI document and the
 * shared auth/tenant/scope table are derived from this list. The reference keeps its order:
 * a competition's members, snapshot and join form follow its challenges and deployments.
 */
const { members, inviteMember, snapshot, join, ...competitionLifecycle } = ctfContracts;

export const allContracts: readonly AnyContract[] = [
  certificationContracts,
  testContracts,
  insightContracts,
  takingContracts,
  classContracts,
  webhookContracts,
  competitionLifecycle,
  challengeContracts,
  deploymentContracts,
  { members, inviteMember, snapshot, join },
  playContracts,
  deploymentPlayContracts,
  fileContracts,
  artifactContracts,
  ownCertificationContracts,
  keyContracts,
  workspaceContracts,
  emailContracts,
  // Appended (issue 24): new operations after every existing one, so none of those moves.
  competitionEndpointContracts,
  testResultEndpointContracts,
  webhookHealthContracts,
  // Appended (issue 23): certificates.
  certificateContracts,
  // Appended (issue 27): announcements.
  announcementContracts,
  // Appended (issue 27): teams.
  teamContracts,
  // Appended (issue 27): import from CTFd.
  importCtfdContracts,
  // Appended (issue 27): the score graph.
  scoreGraphContracts,
  // Appended (issue 28): resend to everyone who has not finished.
  resendAllContracts,
].flatMap((contracts): AnyContract[] => Object.values(contracts));
