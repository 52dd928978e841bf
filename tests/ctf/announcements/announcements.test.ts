import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as listRoute from "@/app/api/v1/ctfs/[ctf_id]/announcements/route";
import * as oneRoute from "@/app/api/v1/ctfs/[ctf_id]/announcements/[announcement_id]/route";
import * as publicRoute from "@/app/api/c/[ctf_id]/announcements/route";
import { announcements } from "@/db/schema";
import { createCtf } from "@/lib/ctf/competitions/competitions";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import { archiveCtf } from "@/lib/ctf/play/archive";
import { builtinHostWorld } from "../../helpers/builtin-host";
import { createTrainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { expectStatus, ISO_UTC } from "../../helpers/competition";
import { runningCtf } from "../../helpers/samples/play";

/**
 * Announcements through their routes: the organiser posts, lists and deletes them (API key);
 * the competition's page reads them (public, deployed or archived only), newest first.
 */

const world = builtinHostWorld();

const post = (ctfId: string, body: unknown, key = world.trainer.secret) => call(listRoute.POST, `/api/v1/ctfs/${ctfId}/announcements`, { method: "POST", key, params: { ctf_id: ctfId }, body });
const list = (ctfId: string, query: Record<string, string | number> = {}) => call(listRoute.GET, `/api/v1/ctfs/${ctfId}/announcements`, { key: world.trainer.secret, params: { ctf_id: ctfId }, query });
const remove = (ctfId: string, id: string, key = world.trainer.secret) =>
  call(oneRoute.DELETE, `/api/v1/ctfs/${ctfId}/announcements/${id}`, { method: "DELETE", key, params: { ctf_id: ctfId, announcement_id: id } });
const publicList = (ctfId: string, query: Record<string, string> = {}) => call(publicRoute.GET, `/api/c/${ctfId}/announcements`, { params: { ctf_id: ctfId }, query });

const draftCtf = async () =>
  (await createCtf(world.database.db, world.trainer.workspaceId, createCtfInput.parse({ title: "Draft CTF", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-02T10:00:00Z" }))).id;

describe("posting, listing and deleting", () => {
  it("posts (201, trimmed), lists newest first for the organiser and the page, deletes (204) and the page no longer has it", async () => {
    const ctfId = await runningCtf(world.database.db, world.trainer);
    const first = expectStatus(await post(ctfId, { title: "  Welcome ", body: "Good **luck**." }), 201);
    expect(first).toEqual({ id: expect.stringMatching(/^ann_/), managed_ctf_id: ctfId, title: "Welcome", body: "Good **luck**.", created_at: expect.stringMatching(ISO_UTC) });
    const second = expectStatus(await post(ctfId, { title: "Hint for Warm-up", body: "Look at `robots.txt`." }), 201);

    const page = expectStatus(await list(ctfId), 200);
    expect(page.data.map((a: { id: string }) => a.id)).toEqual([second.id, first.id]);
    expect(page.pagination).toEqual({ page: 1, per_page: 25, total: 2 });
    expect(expectStatus(await list(ctfId, { per_page: 1, page: 2 }), 200).data.map((a: { id: string }) => a.id)).toEqual([first.id]);

    const shown = expectStatus(await publicList(ctfId), 200);
    expect(shown.data).toEqual([
      { id: second.id, title: second.title, body: second.body, created_at: second.created_at },
      { id: first.id, title: first.title, body: first.body, created_at: first.created_at },
    ]);

    const deleted = await remove(ctfId, first.id);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect(expectStatus(await publicList(ctfId), 200).data.map((a: { id: string }) => a.id)).toEqual([second.id]);
    expect((await remove(ctfId, first.id)).status).toBe(404);
  });

  it("refuses bad input with 422 naming the field, and writes nothing", async () => {
    const ctfId = await runningCtf(world.database.db, world.trainer);
    const cases: [unknown, string][] = [
      [{ title: "", body: "x" }, "title"],
      [{ title: "   ", body: "x" }, "title"],
      [{ title: "t".repeat(201), body: "x" }, "title"],
      [{ title: "Hello", body: "" }, "body"],
      [{ title: "Hello", body: "b".repeat(5001) }, "body"],
      [{ title: "Hello" }, "body"],
      [{ title: 42, body: "x" }, "title"],
      // One line of visible text (the rule team names and tags share).
      [{ title: "a\nb", body: "x" }, "title"],
      [{ title: "a\u2028b", body: "x" }, "title"],
      [{ title: "Update\u202Eevil", body: "x" }, "title"],
      [{ title: "\u200B\u200B", body: "x" }, "title"],
      [{ title: "\u3164", body: "x" }, "title"],
    ];
    for (const [body, field] of cases) {
      const refused = await post(ctfId, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.error.code).toBe("validation_failed");
      expect(refused.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect((await post(ctfId, "{not json")).status).toBe(400);
    expect(await world.database.db.select().from(announcements).where(eq(announcements.ctfId, ctfId))).toEqual([]);
    // The limits themselves are accepted.
    expectStatus(await post(ctfId, { title: "t".repeat(200), body: "b".repeat(5000) }), 201);
  });

  it("works before deployment; an archived competition's announcements stay as they are (409) and remain on its page", async () => {
    const draft = await draftCtf();
    expectStatus(await post(draft, { title: "Coming soon", body: "Details next week." }), 201);
    expect(expectStatus(await list(draft), 200).pagination.total).toBe(1);

    const ctfId = await runningCtf(world.database.db, world.trainer);
    const kept = expectStatus(await post(ctfId, { title: "Last call", body: "Ten minutes left." }), 201);
    await archiveCtf(world.database.db, world.trainer.workspaceId, ctfId);
    const late = await post(ctfId, { title: "Too late", body: "x" });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("conflict");
    expect((await remove(ctfId, kept.id)).status).toBe(409);
    expect(expectStatus(await publicList(ctfId), 200).data.map((a: { id: string }) => a.id)).toEqual([kept.id]);
  });

  it("another workspace's competition or announcement is a 404, and unknown ids too", async () => {
    const ctfId = await runningCtf(world.database.db, world.trainer);
    const mine = expectStatus(await post(ctfId, { title: "Mine", body: "x" }), 201);
    const stranger = await createTrainer(world.database.db);
    expect((await post(ctfId, { title: "Theirs", body: "x" }, stranger.secret)).status).toBe(404);
    expect((await remove(ctfId, mine.id, stranger.secret)).status).toBe(404);
    const otherCtf = await runningCtf(world.database.db, world.trainer);
    expect((await remove(otherCtf, mine.id)).status).toBe(404);
    expect((await remove(ctfId, "ann_nope")).status).toBe(404);
    expect((await remove(ctfId, "not-an-id")).status).toBe(404);
    expect(expectStatus(await list(ctfId), 200).pagination.total).toBe(1);
  });

  it("keeps all of twenty posted at once, each once, newest first by time", async () => {
    const ctfId = await runningCtf(world.database.db, world.trainer);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => post(ctfId, { title: `News ${i}`, body: `Item ${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const page = expectStatus(await list(ctfId, { per_page: 100 }), 200);
    expect(page.pagination.total).toBe(20);
    expect(new Set(page.data.map((a: { title: string }) => a.title)).size).toBe(20);
    const times = page.data.map((a: { created_at: string }) => Date.parse(a.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe("the competition page's route", () => {
  it("is a 404 for a draft (or unknown) competition, with or without announcements", async () => {
    const draft = await draftCtf();
    expectStatus(await post(draft, { title: "Coming soon", body: "x" }), 201);
    for (const id of [draft, "ctf_01JD6S1B9R8W6H3KX1ZJ0V5N2Q", "nope"]) {
      const missing = await publicList(id);
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe("not_found");
    }
  });

  it("answers the latest 50 and, with since, only those after it; a malformed since is a 422", async () => {
    const ctfId = await runningCtf(world.database.db, world.trainer);
    const base = Date.now() - 60 * 60_000;
    await world.database.db.insert(announcements).values(
      Array.from({ length: 55 }, (_, i) => ({ id: `ann_${String(i).padStart(26, "0")}`, ctfId, workspaceId: world.trainer.workspaceId, title: `N${i}`, body: "x", createdAt: new Date(base + i * 1000) })),
    );
    const latest = expectStatus(await publicList(ctfId), 200).data;
    expect(latest).toHaveLength(50);
    expect(latest[0].title).toBe("N54");
    expect(latest[49].title).toBe("N5");

    const after = expectStatus(await publicList(ctfId, { since: new Date(base + 51_000).toISOString() }), 200).data;
    expect(after.map((a: { title: string }) => a.title)).toEqual(["N54", "N53", "N52"]);
    const bad = await publicList(ctfId, { since: "yesterday" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields[0].field).toBe("since");
  });
});
