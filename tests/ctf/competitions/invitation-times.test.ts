import { and, eq } from "drizzle-orm";
import { createElement } from "react";
import { render } from "@react-email/components";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ctfs, emailMessages } from "@/db/schema";
import { createCtf } from "@/lib/ctf/competitions/competitions";
import { inviteMember } from "@/lib/ctf/competitions/members";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import { competitionTimes, MemberInvitationEmail } from "@/lib/ctf/emails/member-invitation";
import { utcDateTimeIn } from "@/lib/platform/i18n/translator";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";

/**
 * A competition's invitation says when it runs as of the moment it is sent ("starts …" before,
 * "is running now, until …" during), with times in the one format of every e-mail
 * (utcDateTimeIn: "1 Dec 2026, 18:00 UTC"), never an ISO-like "2026-11-26 18:38 UTC".
 */

const startsAt = new Date("2026-12-01T18:00:00Z");
const endsAt = new Date("2026-12-02T20:30:00Z");

describe("competitionTimes", () => {
  it("before the start: starts and ends; during: running now, until the end; after: ended", () => {
    expect(competitionTimes({ startsAt, endsAt, sentAt: new Date("2026-11-30T09:00:00Z") })).toBe("starts 1 Dec 2026, 18:00 UTC and ends 2 Dec 2026, 20:30 UTC");
    expect(competitionTimes({ startsAt, endsAt, sentAt: startsAt })).toBe("is running now, until 2 Dec 2026, 20:30 UTC");
    expect(competitionTimes({ startsAt, endsAt, sentAt: new Date("2026-12-03T00:00:00Z") })).toBe("ended 2 Dec 2026, 20:30 UTC");
  });

  it("the e-mail reads as a sentence in either case", async () => {
    const props = { title: "Winter CTF", link: "http://localhost/c/join/x", startsAt, endsAt, organizer: "Acme Academy", selfEnrolled: false };
    const before = await render(createElement(MemberInvitationEmail, { ...props, sentAt: new Date("2026-11-30T09:00:00Z") }), { plainText: true });
    expect(before).toContain("Acme Academy invites you to Winter CTF. The competition starts 1 Dec 2026, 18:00 UTC and ends 2 Dec 2026, 20:30 UTC.");
    const during = await render(createElement(MemberInvitationEmail, { ...props, selfEnrolled: true, sentAt: new Date("2026-12-02T10:00:00Z") }), { plainText: true });
    expect(during).toContain("run by Acme Academy, which is running now, until 2 Dec 2026, 20:30 UTC.");
  });
});

describe("the invitation as sent", () => {
  let database: TestDatabase;
  let trainer: Trainer;
  beforeAll(async () => {
    database = await createTestDatabase();
    trainer = await createTrainer(database.db);
  });
  afterAll(() => database.drop());

  const invitationTo = async (email: string) =>
    (await database.db.select().from(emailMessages).where(and(eq(emailMessages.workspaceId, trainer.workspaceId), eq(emailMessages.to, email))))[0].text;

  it("says it starts before the start, and that it is running now once started", async () => {
    const ctf = await createCtf(database.db, trainer.workspaceId, createCtfInput.parse({ title: "Night CTF", starts_at: "2030-01-01T10:00:00Z", ends_at: "2030-01-02T10:00:00Z" }));
    await inviteMember(database.db, trainer.workspaceId, ctf.id, { email: "early@example.com" });
    const early = await invitationTo("early@example.com");
    expect(early).toContain(`starts ${utcDateTimeIn("en", new Date("2030-01-01T10:00:00Z"))}`);
    expect(early).not.toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);

    // The competition has started meanwhile (its times moved, as if the clock had).
    const end = new Date(Date.now() + 3_600_000);
    await database.db.update(ctfs).set({ startsAt: new Date(Date.now() - 3_600_000), endsAt: end }).where(eq(ctfs.id, ctf.id));
    await inviteMember(database.db, trainer.workspaceId, ctf.id, { email: "late@example.com" });
    const late = await invitationTo("late@example.com");
    expect(late).toContain(`The competition is running now, until ${utcDateTimeIn("en", end)}.`);
    expect(late).not.toContain("starts");
  });
});
