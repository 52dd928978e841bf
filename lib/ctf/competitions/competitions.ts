import { and, desc, eq, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { countRows, readPage } from "@/lib/kernel/paged";
import { challenges, ctfs, flagAttempts, hintUnlocks, members, solves, teams, type Ctf, type CtfStatus } from "@/db/schema";
import type { Page, Paging } from "@/lib/kernel/paging";
import { AppError, conflict, invalidFields, notFound } from "@/lib/kernel/errors";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { isIdShaped, newId } from "@/lib/kernel/ids";
import { deleteFileRows, removeStoredBytes } from "./stored-files";
import { configuredHostKind, describeHostError, hostFor } from "@/lib/ctf/hosting";
import type { CreateCtfInput, CtfView, UpdateCtfInput } from "./schemas";
import { toCtfView } from "./views";
import { scheduleStep } from "@/lib/ctf/steps";

/** Which states each action starts from; anything else is a 409 naming the state. */
const allowedFrom: Record<"update" | "deploy" | "stop" | "archive" | "delete", CtfStatus[]> = {
  update: ["draft", "deploying", "deployed", "deploy_failed", "stopped"],
  deploy: ["draft", "stopped", "deploy_failed"],
  stop: ["deployed"],
  archive: ["deployed", "stopped"],
  delete: ["draft", "deploy_failed", "stopped", "archived"],
};

export function assertState(ctf: Ctf, action: keyof typeof allowedFrom): void {
  if (!allowedFrom[action].includes(ctf.status)) {
    throw conflict(`Cannot ${action} a competition that is ${ctf.status} (allowed from: ${allowedFrom[action].join(", ")}).`);
  }
}

const counts = {
  challenges: sql<number>`(select count(*)::int from ${challenges} c where c.ctf_id = "ctfs"."id")`,
  members: sql<number>`(select count(*)::int from ${members} m where m.ctf_id = "ctfs"."id")`,
};

export async function findCtf(db: Db, workspaceId: string, ctfId: string, lock = false): Promise<Ctf> {
  if (!isIdShaped(ctfId, "ctf")) throw notFound("Competition");
  const query = db.select().from(ctfs).where(and(eq(ctfs.id, ctfId), eq(ctfs.workspaceId, workspaceId)));
  const [ctf] = lock ? await query.for("update") : await query;
  if (!ctf) throw notFound("Competition");
  return ctf;
}

export async function getCtf(db: Db, workspaceId: string, ctfId: string): Promise<CtfView> {
  if (!isIdShaped(ctfId, "ctf")) throw notFound("Competition");
  const [row] = await db
    .select({ ctf: ctfs, ...counts })
    .from(ctfs)
    .where(and(eq(ctfs.id, ctfId), eq(ctfs.workspaceId, workspaceId)));
  if (!row) throw notFound("Competition");
  return toCtfView(row.ctf, row);
}

export async function listCtfs(db: Db, workspaceId: string, paging: Paging): Promise<Page<CtfView>> {
  const where = eq(ctfs.workspaceId, workspaceId);
  const rows = db.select({ ctf: ctfs, ...counts }).from(ctfs).where(where).orderBy(desc(ctfs.createdAt), desc(ctfs.id));
  return readPage(paging, rows, countRows(db, ctfs, where), (row) => toCtfView(row.ctf, row));
}

/** A freeze before the start would freeze an empty board: `freeze_at` must come after `starts_at` (it may come after `ends_at`: then it never shows). */
function checkFreeze(freezeAt: Date | null, startsAt: Date): void {
  if (freezeAt && freezeAt <= startsAt) throw invalidFields([{ field: "freeze_at", message: "freeze_at must be after starts_at." }]);
}

/**
 * Whether players may have played already: the window has begun while the competition is (or
 * was, stopped since) deployed, or it is archived. Its `mode` is then fixed: solves, hint costs
 * and attempts were counted per player or per team.
 */
function hasStarted(ctf: Ctf, now = new Date()): boolean {
  if (ctf.status === "archived") return true;
  return now >= ctf.startsAt && ctf.deployedAt !== null && ["deployed", "stopped"].includes(ctf.status);
}

/**
 * Whether anyone has played, whatever the dates say now: a flag attempt, a hint unlock, a solve
 * or a team exists. Moving `starts_at` into the future after play must not reopen `mode` (the
 * rows already counted per player or per team would be left on no board).
 */
async function hasPlay(db: Db, ctfId: string): Promise<boolean> {
  const any = (table: typeof flagAttempts | typeof hintUnlocks | typeof solves | typeof teams) => sql`exists (select 1 from ${table} where ${table.ctfId} = ${ctfId})`;
  const result = await db.execute(sql`select (${any(flagAttempts)} or ${any(hintUnlocks)} or ${any(solves)} or ${any(teams)}) as played`);
  const [row] = rowsOf<{ played: boolean | string }>(result);
  return row.played === true || row.played === "t" || row.played === "true";
}

/** A new competition starts as a draft on the configured host. */
export async function createCtf(db: Db, workspaceId: string, input: CreateCtfInput): Promise<CtfView> {
  checkFreeze(input.freeze_at, input.starts_at);
  const [ctf] = await db
    .insert(ctfs)
    .values({
      id: newId("ctf"),
      workspaceId,
      title: input.title,
      description: input.description,
      startsAt: input.starts_at,
      endsAt: input.ends_at,
      isPublic: input.is_public,
      mode: input.mode,
      teamSizeMax: input.team_size_max,
      freezeAt: input.freeze_at,
      host: configuredHostKind(),
    })
    .returning();
  return toCtfView(ctf, { challenges: 0, members: 0 });
}

/**
 * Changes what is given. `mode` is refused (409) once the competition has started or anyone
 * has played in it (hasPlay; same mode again is no change); `freeze_at` must come after `starts_at` (the stored one when not given).
 * A CTFd-hosted competition that is deployed gets its new mode, team size or freeze in the same
 * request (`PATCH /api/v1/configs`); if CTFd fails, nothing is changed (503).
 */
export async function updateCtf(db: Db, workspaceId: string, ctfId: string, input: UpdateCtfInput): Promise<CtfView> {
  await db.transaction(async (tx) => {
    const ctf = await findCtf(tx, workspaceId, ctfId, true);
    assertState(ctf, "update");
    const startsAt = input.starts_at ?? ctf.startsAt;
    const endsAt = input.ends_at ?? ctf.endsAt;
    if (endsAt <= startsAt) throw new AppError("validation_failed", "Some fields must be corrected.", { fields: [{ field: "ends_at", message: "ends_at must be after starts_at." }] });
    const freezeAt = input.freeze_at === undefined ? ctf.freezeAt : input.freeze_at;
    if (input.freeze_at !== undefined || input.starts_at !== undefined) checkFreeze(freezeAt, startsAt);
    const mode = input.mode ?? ctf.mode;
    if (mode !== ctf.mode) {
      const counted = `its mode stays ${ctf.mode} (solves, hint costs and attempts are already counted per ${ctf.mode === "teams" ? "team" : "player"}).`;
      if (hasStarted(ctf)) throw conflict(`The competition has started: ${counted}`);
      if (await hasPlay(tx, ctf.id)) throw conflict(`The competition has been played (or has teams) already: ${counted}`);
    }
    const [updated] = await tx
      .update(ctfs)
      .set({
        title: input.title ?? ctf.title,
        description: input.description ?? ctf.description,
        startsAt,
        endsAt,
        isPublic: input.is_public ?? ctf.isPublic,
        mode,
        teamSizeMax: input.team_size_max === undefined ? ctf.teamSizeMax : input.team_size_max,
        freezeAt,
        updatedAt: new Date(),
      })
      .where(eq(ctfs.id, ctf.id))
      .returning();
    // Sent while the row is locked and before the commit: CTFd refusing leaves both as they were.
    if (updated.status === "deployed" && settingsChanged(ctf, updated)) await runHost(() => hostFor(updated.host, tx).configureCompetition(updated));
  });
  return getCtf(db, workspaceId, ctfId);
}

/** Whether what a host is configured with (mode, team size, freeze) changed. */
function settingsChanged(before: Ctf, after: Ctf): boolean {
  const time = (date: Date | null) => date?.getTime() ?? null;
  return (
    before.mode !== after.mode ||
    before.teamSizeMax !== after.teamSizeMax ||
    time(before.freezeAt) !== time(after.freezeAt)
  );
}

/** Asynchronous: `deploying` now; the host step makes it `deployed` (then ctf.deployed) or `deploy_failed`. */
export async function deployCtf(db: Db, workspaceId: string, ctfId: string): Promise<CtfView> {
  // The answer is the state this request made (`deploying`), read before the commit: read after
  // it, a worker quick enough to run the step in between would make it `deployed` already.
  return db.transaction(async (tx) => {
    const ctf = await findCtf(tx, workspaceId, ctfId, true);
    assertState(ctf, "deploy");
    await tx.update(ctfs).set({ status: "deploying", lastError: null, updatedAt: new Date() }).where(eq(ctfs.id, ctf.id));
    await scheduleStep(tx, workspaceId, "ctf.deploy", { ctfId: ctf.id }, new Date());
    return getCtf(tx, workspaceId, ctfId);
  });
}

/** The deploy step: runs the host, then records the outcome; only success sends an event. */
export async function completeCtfDeploy(db: Db, ctfId: string): Promise<void> {
  const [ctf] = await db.select().from(ctfs).where(eq(ctfs.id, ctfId));
  if (!ctf || ctf.status !== "deploying") return;
  try {
    const { url } = await hostFor(ctf.host, db).deployCompetition(ctf);
    await db.transaction(async (tx) => {
      const [deployed] = await tx
        .update(ctfs)
        .set({ status: "deployed", url, deployedAt: new Date(), updatedAt: new Date(), lastError: null })
        .where(and(eq(ctfs.id, ctf.id), eq(ctfs.status, "deploying")))
        .returning();
      if (deployed) {
        await publishEvent(tx, ctf.workspaceId, "ctf.deployed", { managed_ctf_id: ctf.id, title: deployed.title, url, is_public: deployed.isPublic });
      }
    });
  } catch (error) {
    await db
      .update(ctfs)
      .set({ status: "deploy_failed", lastError: describeHostError(error), updatedAt: new Date() })
      .where(and(eq(ctfs.id, ctf.id), eq(ctfs.status, "deploying")));
  }
}

export async function runHost<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw new AppError("service_unavailable", `The hosting platform failed: ${describeHostError(error)}. Nothing was changed; try again.`);
  }
}

/** Takes the running instance down; the competition can be deployed again later. */
export async function stopCtf(db: Db, workspaceId: string, ctfId: string): Promise<CtfView> {
  const ctf = await findCtf(db, workspaceId, ctfId);
  assertState(ctf, "stop");
  await runHost(() => hostFor(ctf.host, db).teardownCompetition(ctf));
  await db.update(ctfs).set({ status: "stopped", updatedAt: new Date() }).where(and(eq(ctfs.id, ctf.id), eq(ctfs.status, "deployed")));
  return getCtf(db, workspaceId, ctfId);
}

export async function getSnapshot(db: Db, workspaceId: string, ctfId: string) {
  const ctf = await findCtf(db, workspaceId, ctfId);
  if (!ctf.snapshot) throw conflict("This competition has not been archived.");
  return ctf.snapshot;
}

/** Only when not deployed: the infrastructure is torn down, the competition deleted, then ctf.deleted. */
export async function deleteCtf(db: Db, workspaceId: string, ctfId: string): Promise<{ deleted: true; id: string }> {
  const current = await findCtf(db, workspaceId, ctfId);
  assertState(current, "delete");
  await runHost(() => hostFor(current.host, db).teardownCompetition(current));
  const storageKeys = await db.transaction(async (tx) => {
    const ctf = await findCtf(tx, workspaceId, ctfId, true);
    assertState(ctf, "delete");
    const keys = await deleteFileRows(tx, { ctfId: ctf.id });
    await tx.delete(ctfs).where(eq(ctfs.id, ctf.id));
    await publishEvent(tx, workspaceId, "ctf.deleted", { managed_ctf_id: ctf.id, title: ctf.title, deleted_at: new Date().toISOString() });
    return keys;
  });
  await removeStoredBytes(db, storageKeys);
  return { deleted: true, id: ctfId };
}
