import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { countRows, readPage } from "@/lib/kernel/paged";
import { challengeArtifacts, challenges, ctfs, type Challenge, type ChallengeScoring, type ChallengeStatus } from "@/db/schema";
import type { Page, Paging } from "@/lib/kernel/paging";
import { conflict, invalidFields, notFound } from "@/lib/kernel/errors";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { isIdShaped, newId } from "@/lib/kernel/ids";
import { findCtf } from "@/lib/ctf/competitions/competitions";
import { deleteFileRows, removeStoredBytes } from "@/lib/ctf/competitions/stored-files";
import { regexFlagProblem } from "./flags/pattern";
import { hashFlag, sealFlag, storedFlag, unsealFlag } from "./flags/flags";
import { filesForHost, forgetHostFiles } from "./host-files";
import { describeHostError, HostError, hostFor } from "@/lib/ctf/hosting";
import { checkedPrerequisites, forgetPrerequisite, hostedPrerequisites } from "./prerequisites";
import type { Rng } from "@/lib/ctf/templates/kit/rng";
import { generateChallenge, type ChallengeCategory, type Difficulty, type TemplateKey } from "@/lib/ctf/templates/generate";
import { toChallengeView } from "./views";
import { solveCount, solveCountSql } from "./solve-counts";
import type { ChallengeView, CreateChallengeInput, GenerateChallengeInput, UpdateChallengeInput } from "./schemas";
import { scheduleStep } from "@/lib/ctf/steps";

/** States in which a challenge (its content and files) may change; otherwise unpublish it first. */
export const editable: ChallengeStatus[] = ["draft", "publish_failed", "unpublished", "generation_failed"];

export async function findChallenge(db: Db, workspaceId: string, ctfId: string, challengeId: string, lock = false): Promise<Challenge> {
  if (!isIdShaped(challengeId, "chl") || !isIdShaped(ctfId, "ctf")) throw notFound("Challenge");
  const query = db
    .select()
    .from(challenges)
    .where(and(eq(challenges.id, challengeId), eq(challenges.ctfId, ctfId), eq(challenges.workspaceId, workspaceId)));
  const [challenge] = lock ? await query.for("update") : await query;
  if (!challenge) throw notFound("Challenge");
  return challenge;
}


export async function getChallenge(db: Db, workspaceId: string, ctfId: string, challengeId: string): Promise<ChallengeView> {
  const challenge = await findChallenge(db, workspaceId, ctfId, challengeId);
  return toChallengeView(challenge, await solveCount(db, challenge.id));
}

/** One query for the page: each challenge with its solve count (a dynamic one's `points` is its current value). */
export async function listChallenges(db: Db, workspaceId: string, ctfId: string, paging: Paging): Promise<Page<ChallengeView>> {
  await findCtf(db, workspaceId, ctfId);
  const where = and(eq(challenges.ctfId, ctfId), eq(challenges.workspaceId, workspaceId));
  const rows = db.select({ challenge: challenges, solves: solveCountSql() }).from(challenges).where(where).orderBy(desc(challenges.createdAt), desc(challenges.id));
  return readPage(paging, rows, countRows(db, challenges, where), (row) => toChallengeView(row.challenge, Number(row.solves)));
}

/** Each tag once, in the order given. */
const distinct = (values: string[]) => [...new Set(values)];

/** What is stored of a scoring: a dynamic challenge's `points` is its `initial` (its current value is derived from its solves). */
function storedScoring(scoring: ChallengeScoring, points: number): { scoring: ChallengeScoring; points: number } {
  return { scoring, points: scoring.type === "dynamic" ? scoring.initial : points };
}

async function openCtf(db: Db, workspaceId: string, ctfId: string) {
  const ctf = await findCtf(db, workspaceId, ctfId);
  if (ctf.status === "archived") throw conflict("The competition is archived: its challenges can no longer change.");
  return ctf;
}

export async function createChallenge(db: Db, workspaceId: string, ctfId: string, input: CreateChallengeInput): Promise<ChallengeView> {
  await openCtf(db, workspaceId, ctfId);
  return db.transaction(async (tx) => {
    // The competition's row lock: prerequisites are checked against a graph nobody changes meanwhile.
    await findCtf(tx, workspaceId, ctfId, true);
    const requires = await checkedPrerequisites(tx, workspaceId, ctfId, null, input.requires);
    const [challenge] = await tx
      .insert(challenges)
      .values({
        id: newId("chl"),
        ctfId,
        workspaceId,
        title: input.title,
        category: input.category,
        difficulty: input.difficulty ?? null,
        description: input.description,
        ...storedScoring(input.scoring, input.points),
        requires,
        maxAttempts: input.max_attempts,
        tags: distinct(input.tags),
        ...storedFlag(input.flag, input.flag_mode),
        hints: input.hints,
      })
      .returning();
    return toChallengeView(challenge);
  });
}

/** Asynchronous: a `generating` challenge now, built from the shipped templates by a step. */
export async function requestGeneratedChallenge(db: Db, workspaceId: string, ctfId: string, input: GenerateChallengeInput): Promise<ChallengeView> {
  await openCtf(db, workspaceId, ctfId);
  return db.transaction(async (tx) => {
    const placeholder = "pending-generation";
    const [challenge] = await tx
      .insert(challenges)
      .values({
        id: newId("chl"),
        ctfId,
        workspaceId,
        title: `Generating a ${input.difficulty} ${input.category} challenge…`,
        category: input.category,
        difficulty: input.difficulty,
        points: 0,
        flagHash: hashFlag(placeholder),
        flagSealed: sealFlag(placeholder),
        status: "generating",
      })
      .returning();
    await scheduleStep(tx, workspaceId, "challenge.generate", { challengeId: challenge.id, ...(input.template ? { template: input.template } : {}) }, new Date());
    return toChallengeView(challenge);
  });
}

/**
 * The generation step: builds the challenge from its template (the one asked for, else one of
 * its category drawn at random) and stores it with its artifact — file, web target, solution
 * steps — in one transaction; the flag is stored like any other (hash and sealed copy).
 * `rng` is for tests: a seeded one makes the challenge reproducible.
 */
export async function completeGeneration(db: Db, challengeId: string, template?: TemplateKey, rng?: Rng): Promise<void> {
  const [challenge] = await db.select().from(challenges).where(eq(challenges.id, challengeId));
  if (!challenge || challenge.status !== "generating") return;
  const generated = generateChallenge(challenge.category as ChallengeCategory, (challenge.difficulty ?? "easy") as Difficulty, { template, rng });
  await db.transaction(async (tx) => {
    const [built] = await tx
      .update(challenges)
      .set({
        title: generated.title,
        description: generated.description,
        points: generated.points,
        hints: generated.hints,
        template: generated.template,
        ...storedFlag(generated.flag, "exact"),
        status: "draft",
        updatedAt: new Date(),
      })
      .where(and(eq(challenges.id, challengeId), eq(challenges.status, "generating")))
      .returning({ id: challenges.id });
    if (!built) return;
    await tx.insert(challengeArtifacts).values({
      challengeId,
      workspaceId: challenge.workspaceId,
      fileName: generated.file?.name ?? null,
      fileType: generated.file?.contentType ?? null,
      fileData: generated.file?.data ?? null,
      target: generated.target,
      solution: generated.solution,
    });
  });
}

export async function updateChallenge(db: Db, workspaceId: string, ctfId: string, challengeId: string, input: UpdateChallengeInput): Promise<ChallengeView> {
  await openCtf(db, workspaceId, ctfId);
  return db.transaction(async (tx) => {
    // The competition first, then the challenge: the order every path that locks both takes.
    if (input.requires !== undefined) await findCtf(tx, workspaceId, ctfId, true);
    const challenge = await findChallenge(tx, workspaceId, ctfId, challengeId, true);
    if (!editable.includes(challenge.status)) throw conflict(`A ${challenge.status} challenge cannot be edited; unpublish it first.`);
    if (input.flag !== undefined && challenge.template) {
      throw conflict("A generated challenge's flag is built into its artifact and cannot be changed: generate another challenge for a new flag.");
    }
    const requires = input.requires === undefined ? challenge.requires : await checkedPrerequisites(tx, workspaceId, ctfId, challenge.id, input.requires);
    const [updated] = await tx
      .update(challenges)
      .set({
        title: input.title ?? challenge.title,
        category: input.category ?? challenge.category,
        difficulty: input.difficulty ?? challenge.difficulty,
        description: input.description ?? challenge.description,
        ...storedScoring(input.scoring ?? challenge.scoring, input.points ?? challenge.points),
        requires,
        maxAttempts: input.max_attempts === undefined ? challenge.maxAttempts : input.max_attempts,
        tags: input.tags ? distinct(input.tags) : challenge.tags,
        hints: input.hints ?? challenge.hints,
        ...changedFlag(challenge, input),
        updatedAt: new Date(),
      })
      .where(eq(challenges.id, challenge.id))
      .returning();
    return toChallengeView(updated, await solveCount(tx, updated.id));
  });
}

/** The stored flag after an update: a new flag, or the kept one under a new mode (to `regex`, it must be a valid pattern). */
function changedFlag(challenge: Challenge, input: UpdateChallengeInput) {
  const mode = input.flag_mode ?? challenge.flagMode;
  if (input.flag) return storedFlag(input.flag, mode);
  if (mode === challenge.flagMode) return {};
  const flag = unsealFlag(challenge.flagSealed);
  const problem = mode === "regex" ? regexFlagProblem(flag) : null;
  if (problem) throw invalidFields([{ field: "flag", message: `The current flag is not a valid pattern: ${problem} Give a flag with the mode.` }]);
  return storedFlag(flag, mode);
}

export async function deleteChallenge(db: Db, workspaceId: string, ctfId: string, challengeId: string): Promise<{ deleted: true; id: string }> {
  await openCtf(db, workspaceId, ctfId);
  const storageKeys = await db.transaction(async (tx) => {
    // The competition, then the challenge (an upload in flight holds the challenge's lock and
    // lands before its row is taken here): the others' `requires` change under the first.
    await findCtf(tx, workspaceId, ctfId, true);
    const challenge = await findChallenge(tx, workspaceId, ctfId, challengeId, true);
    if (!editable.includes(challenge.status)) throw conflict(`A ${challenge.status} challenge cannot be deleted; unpublish it first.`);
    const keys = await deleteFileRows(tx, { challengeId: challenge.id });
    await tx.delete(challenges).where(eq(challenges.id, challenge.id));
    await forgetPrerequisite(tx, workspaceId, ctfId, challenge.id);
    return keys;
  });
  await removeStoredBytes(db, storageKeys);
  return { deleted: true, id: challengeId };
}

/** Asynchronous: `publishing`; the step pushes it to the host (→ challenge.published) or marks it publish_failed. */
export async function publishChallenge(db: Db, workspaceId: string, ctfId: string, challengeId: string): Promise<ChallengeView> {
  return transition(db, workspaceId, ctfId, challengeId, {
    from: ["draft", "publish_failed", "unpublished"],
    to: "publishing",
    step: "challenge.publish",
    needsDeployed: true,
  });
}

export async function unpublishChallenge(db: Db, workspaceId: string, ctfId: string, challengeId: string): Promise<ChallengeView> {
  return transition(db, workspaceId, ctfId, challengeId, { from: ["published", "unpublish_failed"], to: "unpublishing", step: "challenge.unpublish", needsDeployed: false });
}

async function transition(
  db: Db,
  workspaceId: string,
  ctfId: string,
  challengeId: string,
  rule: { from: ChallengeStatus[]; to: ChallengeStatus; step: "challenge.publish" | "challenge.unpublish"; needsDeployed: boolean },
): Promise<ChallengeView> {
  const ctf = await openCtf(db, workspaceId, ctfId);
  if (rule.needsDeployed && ctf.status !== "deployed") throw conflict(`Deploy the competition first: it is ${ctf.status}.`);
  return db.transaction(async (tx) => {
    const challenge = await findChallenge(tx, workspaceId, ctfId, challengeId, true);
    if (!rule.from.includes(challenge.status)) {
      throw conflict(`Cannot move a ${challenge.status} challenge to ${rule.to} (allowed from: ${rule.from.join(", ")}).`);
    }
    if (rule.to === "publishing" && ctf.host !== "builtin") {
      const { missing } = await hostedPrerequisites(tx, challenge);
      if (missing.length) throw conflict(unhostedPrerequisites(missing));
    }
    const [updated] = await tx.update(challenges).set({ status: rule.to, lastError: null, updatedAt: new Date() }).where(eq(challenges.id, challenge.id)).returning();
    await scheduleStep(tx, workspaceId, rule.step, { challengeId: challenge.id }, new Date());
    return toChallengeView(updated);
  });
}

const unhostedPrerequisites = (titles: string[]) => `Publish its prerequisites first: ${titles.map((title) => JSON.stringify(title)).join(", ")} ${titles.length === 1 ? "is" : "are"} not on the hosting platform yet.`;

/**
 * The publish step: the host returns the platform id; success records it and publishes the
 * event. The files the host does not carry yet go with it (./host-files.ts).
 */
export async function completePublish(db: Db, challengeId: string): Promise<void> {
  const [row] = await db.select({ challenge: challenges, ctf: ctfs }).from(challenges).innerJoin(ctfs, eq(ctfs.id, challenges.ctfId)).where(eq(challenges.id, challengeId));
  if (!row || row.challenge.status !== "publishing") return;
  try {
    const prerequisites = await hostedPrerequisites(db, row.challenge);
    // CTFd's prerequisites are its own ids: one not there yet would be dropped, opening the challenge too early.
    if (row.ctf.host !== "builtin" && prerequisites.missing.length) throw new HostError(unhostedPrerequisites(prerequisites.missing));
    const files = await filesForHost(db, row.challenge);
    const { platformChallengeId } = await hostFor(row.ctf.host, db).publishChallenge(row.ctf, row.challenge, unsealFlag(row.challenge.flagSealed), files, prerequisites.platformIds);
    await db.transaction(async (tx) => {
      const [published] = await tx
        .update(challenges)
        .set({ status: "published", platformChallengeId, updatedAt: new Date() })
        .where(and(eq(challenges.id, challengeId), eq(challenges.status, "publishing")))
        .returning();
      if (published) {
        await publishEvent(tx, published.workspaceId, "challenge.published", {
          managed_ctf_id: published.ctfId,
          challenge_id: published.id,
          title: published.title,
          category: published.category,
          platform_challenge_id: platformChallengeId,
        });
      }
    });
  } catch (error) {
    // A first publish that failed took its half-made challenge, and the files uploaded to it, away.
    if (row.challenge.platformChallengeId === null) await forgetHostFiles(db, challengeId);
    await db
      .update(challenges)
      .set({ status: "publish_failed", lastError: describeHostError(error), updatedAt: new Date() })
      .where(and(eq(challenges.id, challengeId), eq(challenges.status, "publishing")));
  }
}

export async function completeUnpublish(db: Db, challengeId: string): Promise<void> {
  const [row] = await db.select({ challenge: challenges, ctf: ctfs }).from(challenges).innerJoin(ctfs, eq(ctfs.id, challenges.ctfId)).where(eq(challenges.id, challengeId));
  if (!row || row.challenge.status !== "unpublishing") return;
  try {
    await hostFor(row.ctf.host, db).unpublishChallenge(row.ctf, row.challenge);
    await db.transaction(async (tx) => {
      const [unpublished] = await tx
        .update(challenges)
        .set({ status: "unpublished", updatedAt: new Date() })
        .where(and(eq(challenges.id, challengeId), eq(challenges.status, "unpublishing")))
        .returning();
      if (unpublished) {
        await publishEvent(tx, unpublished.workspaceId, "challenge.unpublished", {
          managed_ctf_id: unpublished.ctfId,
          challenge_id: unpublished.id,
          title: unpublished.title,
          category: unpublished.category,
          platform_challenge_id: unpublished.platformChallengeId ?? 0,
        });
      }
    });
  } catch (error) {
    await db
      .update(challenges)
      .set({ status: "unpublish_failed", lastError: describeHostError(error), updatedAt: new Date() })
      .where(and(eq(challenges.id, challengeId), eq(challenges.status, "unpublishing")));
  }
}
