import { and, count, eq, isNull, max, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { apiKeys, recipients, workspaces, type Workspace } from "@/db/schema";
import { planNames } from "@/db/schema/statuses";
import { notFound } from "@/lib/kernel/errors";
import { planLimits } from "@/lib/platform/workspaces/plans";
import type { UpdateWorkspaceInput, WorkspaceSettingsView } from "./schemas";
import { workspaceSender } from "./sender";
import { workspaceUsage } from "./usage";

/** The settings page of a workspace: its name, its plan and what it uses of it, and every plan's limits. */
export async function workspaceSettings(db: Db, workspaceId: string): Promise<WorkspaceSettingsView> {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) throw notFound("Workspace");
  return settingsOf(db, workspace);
}

async function settingsOf(db: Db, workspace: Workspace): Promise<WorkspaceSettingsView> {
  const [usage, [largest], [keys], sender] = await Promise.all([
    workspaceUsage(db, workspace.id),
    // Seats are per test: the fullest test says how close the workspace came.
    db
      .select({ recipients: max(sql<number>`per_test.n`) })
      .from(
        db
          .select({ n: count().as("n") })
          .from(recipients)
          .where(eq(recipients.workspaceId, workspace.id))
          .groupBy(recipients.testId)
          .as("per_test"),
      ),
    db.select({ active: count() }).from(apiKeys).where(and(eq(apiKeys.workspaceId, workspace.id), isNull(apiKeys.revokedAt))),
    workspaceSender(db, workspace.id),
  ]);
  return {
    id: workspace.id,
    name: workspace.name,
    sender,
    organisation_name: workspace.organisationName,
    certificate_signer: workspace.certificateSigner,
    default_language: workspace.defaultLanguage,
    plan: workspace.plan,
    limits: planLimits(workspace.plan),
    usage: { ...usage, largest_test: Number(largest?.recipients ?? 0), api_keys: keys.active },
    plans: planNames.map((name) => ({ name, limits: planLimits(name), current: name === workspace.plan })),
  };
}

/** Renames the workspace (the name every e-mail it sends from now on carries) and sets the issuer of its certificates; absent fields stay. */
export async function updateWorkspace(db: Db, workspaceId: string, input: UpdateWorkspaceInput): Promise<WorkspaceSettingsView> {
  const changes = { name: input.name, organisationName: input.organisation_name, certificateSigner: input.certificate_signer, defaultLanguage: input.default_language };
  const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  if (!Object.keys(set).length) return workspaceSettings(db, workspaceId);
  const [updated] = await db.update(workspaces).set(set).where(eq(workspaces.id, workspaceId)).returning();
  if (!updated) throw notFound("Workspace");
  return settingsOf(db, updated);
}
