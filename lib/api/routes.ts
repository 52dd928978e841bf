import { certificationContracts } from "@/lib/certification/contracts";
import { manageCertificationContracts } from "@/lib/certification/manage-contracts";
import { classContracts } from "@/lib/classes/contracts";
import { artifactContracts } from "@/lib/ctf/artifact-contracts";
import { ctfContracts } from "@/lib/ctf/contracts";
import { deploymentPlayContracts } from "@/lib/ctf/deployment-play-contracts";
import { fileContracts } from "@/lib/ctf/file-contracts";
import { playContracts } from "@/lib/ctf/play-contracts";
import { emailContracts } from "@/lib/email/contracts";
import { keyContracts } from "@/lib/keys/contracts";
import { testContracts } from "@/lib/tests/contracts";
import { webhookContracts } from "@/lib/webhooks/contracts";
import { workspaceContracts } from "@/lib/workspaces/contracts";
import type { AnyContract } from "./contract";

/**
 * Every contract of the app, in the order of the reference: each route handler under app/api
 * is `handle(contract, …)` with one of these (tests/integration/contracts.test.ts fails on a
 * route served without one, and on a contract no route serves). The OpenAPI document and the
 * shared auth/tenant/scope table are derived from this list.
 */
export const allContracts: readonly AnyContract[] = [
  certificationContracts,
  testContracts,
  classContracts,
  webhookContracts,
  ctfContracts,
  playContracts,
  deploymentPlayContracts,
  fileContracts,
  artifactContracts,
  manageCertificationContracts,
  keyContracts,
  workspaceContracts,
  emailContracts,
].flatMap((contracts): AnyContract[] => Object.values(contracts));
