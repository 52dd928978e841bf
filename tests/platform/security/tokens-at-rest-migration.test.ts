import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrateDatabase, migrationsFolder } from "@/db/migrate";
import { resealColumns } from "@/db/sealed";
import { databaseAdapter } from "@/lib/platform/auth/adapter";
import { invitationLink } from "@/lib/certification/classes/classes";
import { invitationPreview } from "@/lib/ctf/play/public";
import { memberLink } from "@/lib/ctf/competitions/members";
import { currentSealPrefix, reseal, seal, unseal } from "@/lib/platform/security/sealing";
import { hashToken } from "@/lib/platform/security/tokens";
import { recipientLink } from "@/lib/certification/tests/links";
import { openTest, saveAnswer } from "@/lib/certification/taking/taking";
import { everyTextValue } from "../../helpers/text-dump";
import type { Database } from "@/db/types";
import { endpointSecret } from "@/lib/platform/pipeline/channels/webhook/format";
import { findInvitation } from "@/lib/certification/classes/invitations";
import { openDatabase } from "@/lib/platform/database";

/**
 * The upgrade to tokens at rest (migrations 0023–0025 and the data step between them, run by
 * db/migrate.ts) over rows written the old way: plaintext tokens, a plaintext webhook secret,
 * a raw session token, e-mail bodies with links. After it the old links, the signed-in
 * browser's cookie and the endpoint's secret all still work, and no plaintext is left.
 * Runs on PGlite, and on PostgreSQL in a database of its own when DATABASE_URL is set.
 */

const FIRST_NEW = "0023_sealed_token_columns";

const token = (label: string) => `${label}_${randomBytes(24).toString("base64url")}`.slice(0, 40);
const old = {
  recipient: token("rcp"),
  invitation: token("inv"),
  member: token("mem"),
  secret: `whsec_${randomBytes(24).toString("base64url")}`,
  session: crypto.randomUUID(),
  signInLink: `http://localhost:3000/api/auth/callback/resend?token=${randomBytes(32).toString("hex")}&email=ann%40example.test`,
};

let database: Database;
const cleanups: (() => Promise<void> | void)[] = [];
/** The text values before the upgrade: where each plaintext was. */
let before: Awaited<ReturnType<typeof everyTextValue>>;

/** A copy of the migrations folder whose journal stops before `tag`. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(index, `${tag} in the journal`).toBeGreaterThan(0);
  fs.writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }));
  return dir;
}

/** An empty database: an in-memory PGlite, or a fresh database on the PostgreSQL server of DATABASE_URL. */
async function emptyDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  let opened: Database;
  if (!url) opened = await openDatabase({ dataDir: "memory://" });
  else {
    const name = `t_tokens_migration_${randomBytes(6).toString("hex")}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    cleanups.push(async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
    const target = new URL(url);
    target.pathname = `/${name}`;
    opened = await openDatabase({ url: target.toString(), poolMax: 2 });
  }
  cleanups.push(() => opened.close());
  return opened;
}

/** drizzle-orm's own migrator (what `drizzle-kit migrate` does): the generated SQL only, no data step. */
async function drizzleMigrate(target: Database, migrationsFolder: string): Promise<void> {
  const config = { migrationsFolder };
  if (target.kind === "pglite") await (await import("drizzle-orm/pglite/migrator")).migrate(target.db as never, config);
  else await (await import("drizzle-orm/postgres-js/migrator")).migrate(target.db as never, config);
}

/** Rows as the app wrote them before the upgrade. */
async function writeOldRows(database: Database): Promise<void> {
  const q = (text: string, params: unknown[] = []) => database.query(text, params);
  await q(`insert into "user" (id, email) values ('usr_m', 'ann@example.test')`);
  await q(`insert into workspaces (id, name, owner_user_id) values ('ws_m', 'M', 'usr_m')`);
  await q(`insert into certifications (id, vendor, name) values (9001, 'V', 'Cert')`);
  await q(`insert into tests (id, code, workspace_id, certification_id, certification_name, question_count) values (9001, 'K7Q2M9XR', 'ws_m', 9001, 'Cert', 0)`);
  await q(`insert into recipients (test_id, workspace_id, email, token, question_order) values (9001, 'ws_m', 'ann@example.test', $1, '[]'::jsonb)`, [old.recipient]);
  await q(`insert into classes (id, workspace_id, name, certification_id) values (9001, 'ws_m', 'Evening', 9001)`);
  await q(`insert into class_invitations (class_id, workspace_id, email, token) values (9001, 'ws_m', 'ann@example.test', $1)`, [old.invitation]);
  await q(
    `insert into ctfs (id, workspace_id, title, starts_at, ends_at, host) values ('ctf_m', 'ws_m', 'Spring', now(), now() + interval '1 day', 'builtin')`,
  );
  await q(`insert into members (id, ctf_id, workspace_id, email, token) values ('mem_m', 'ctf_m', 'ws_m', 'ann@example.test', $1)`, [old.member]);
  await q(`insert into webhook_endpoints (id, workspace_id, url, secret, source) values ('wh_m', 'ws_m', 'https://example.test/h', $1, 'api')`, [old.secret]);
  await q(`insert into session ("sessionToken", "userId", expires) values ($1, 'usr_m', now() + interval '30 days')`, [old.session]);
  const mail = (id: string, transport: string, status: string, link: string) =>
    q(`insert into email_messages (id, kind, "to", "from", subject, html, text, links, transport, status) values ($1, 'k', 'ann@example.test', 'a@b.c', 'S', $2, $3, $4::jsonb, $5, $6)`, [
      id,
      `<a href="${link}">open</a>`,
      `open: ${link}`,
      JSON.stringify([link]),
      transport,
      status,
    ]);
  await mail("msg_sent", "resend", "sent", old.signInLink);
  await mail("msg_failed", "resend", "failed", `http://localhost:3000/t/${old.recipient}`);
  await mail("msg_queued", "resend", "queued", `http://localhost:3000/join/${old.invitation}`);
  await mail("msg_mailbox", "mailbox", "sent", `http://localhost:3000/c/join/${old.member}`);
}

beforeAll(async () => {
  database = await emptyDatabase();
  await drizzleMigrate(database, migrationsBefore(FIRST_NEW));
  await writeOldRows(database);
  before = await everyTextValue(database);
  await migrateDatabase(database, { seal });
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("the upgrade to tokens at rest", () => {
  it("drops the plaintext columns: a token is kept as its SHA-256 and a sealed copy", async () => {
    const columns = await database.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns
       where table_schema = 'public' and table_name in ('recipients', 'class_invitations', 'members', 'webhook_endpoints') and column_name in ('token', 'secret')`,
    );
    expect(columns).toEqual([]);
    for (const [table, plain] of [
      ["recipients", old.recipient],
      ["class_invitations", old.invitation],
      ["members", old.member],
    ] as const) {
      const [row] = await database.query<{ token_hash: string; token_sealed: string }>(`select token_hash, token_sealed from ${table}`);
      expect(row.token_hash, table).toBe(hashToken(plain));
      expect(row.token_sealed.startsWith(currentSealPrefix()), table).toBe(true);
    }
  });

  it("keeps every old link working and showable: looked up by hash, shown from the sealed copy", async () => {
    const view = await openTest(database.db, old.recipient);
    expect(view).toMatchObject({ status: "sent", email: "ann@example.test" });
    // The answer save (the SQL function, rewritten to look the hash up) finds the recipient: not started yet.
    await expect(saveAnswer(database.db, old.recipient, { question_id: 1, option: 0 })).rejects.toMatchObject({ code: "conflict" });
    expect((await findInvitation(database.db, old.invitation))?.invitation.email).toBe("ann@example.test");
    expect((await invitationPreview(database.db, old.member))?.ctf.id).toBe("ctf_m");

    const [recipient] = await database.query<{ token_sealed: string }>(`select token_sealed from recipients`);
    expect(recipientLink({ tokenSealed: recipient.token_sealed })).toMatch(new RegExp(`/t/${old.recipient}$`));
    const [invitation] = await database.query<{ token_sealed: string }>(`select token_sealed from class_invitations`);
    expect(invitationLink({ tokenSealed: invitation.token_sealed })).toMatch(new RegExp(`/join/${old.invitation}$`));
    const [member] = await database.query<{ token_sealed: string }>(`select token_sealed from members`);
    expect(memberLink({ tokenSealed: member.token_sealed })).toMatch(new RegExp(`/c/join/${old.member}$`));
  });

  it("keeps the webhook endpoint's secret (sealed) and the signed-in browser's session (hashed)", async () => {
    const [endpoint] = await database.query<{ secret_sealed: string }>(`select secret_sealed from webhook_endpoints`);
    expect(endpointSecret({ secretSealed: endpoint.secret_sealed })).toBe(old.secret);

    const [session] = await database.query<{ sessionToken: string }>(`select "sessionToken" from session`);
    expect(session.sessionToken).toBe(hashToken(old.session));
    const found = await databaseAdapter(database.db).getSessionAndUser!(old.session);
    expect(found?.user.email).toBe("ann@example.test");
    expect(found?.session.sessionToken).toBe(old.session);
  });

  it("empties the bodies of messages that are done with, keeps those still to send and the dev mailbox's", async () => {
    const rows = await database.query<{ id: string; html: string; text: string; links: string[] | string }>(`select id, html, text, links from email_messages order by id`);
    const byId = Object.fromEntries(rows.map((row) => [row.id, { html: row.html, text: row.text, links: typeof row.links === "string" ? JSON.parse(row.links) : row.links }]));
    expect(byId.msg_sent).toEqual({ html: "", text: "", links: [] });
    expect(byId.msg_failed).toEqual({ html: "", text: "", links: [] });
    expect(byId.msg_queued.links).toEqual([`http://localhost:3000/join/${old.invitation}`]);
    expect(byId.msg_mailbox.links).toEqual([`http://localhost:3000/c/join/${old.member}`]);
  });

  it("leaves no plaintext token, secret or session token outside what is still to be sent", async () => {
    const kept = ({ table, row }: { table: string; row: Record<string, unknown> }) => table === "email_messages" && ["msg_queued", "msg_mailbox"].includes(String(row.id));
    const where = (values: typeof before, secret: string) =>
      values.filter((value) => !kept(value) && value.value.includes(secret)).map(({ table, column }) => `${table}.${column}`);
    const after = await everyTextValue(database);
    for (const secret of [old.recipient, old.invitation, old.member, old.secret, old.session, old.signInLink]) {
      expect(where(before, secret), `${secret} was stored in plaintext before`).not.toEqual([]);
      expect(where(after, secret), secret).toEqual([]);
    }
  });

  it("migrating again changes nothing; re-sealing under a new first key keeps every value", async () => {
    const sealed = await database.query(`select token_sealed from recipients`);
    await migrateDatabase(database, { seal });
    expect(await database.query(`select token_sealed from recipients`)).toEqual(sealed);

    // A team made after the upgrade: its invite code is sealed from the start, and rotation re-seals it too.
    await database.query(`insert into teams (id, ctf_id, workspace_id, name, invite_code_hash, invite_code_sealed) values ('team_m', 'ctf_m', 'ws_m', 'Owls', 'h', $1)`, [seal("teams.invite_code", "Abcdefghijklmnop")]);

    vi.stubEnv("DATA_ENCRYPTION_KEYS", `rotated-key-${"r".repeat(40)}`);
    try {
      expect(await resealColumns(database.db, currentSealPrefix(), reseal)).toEqual({ recipients: 1, class_invitations: 1, members: 1, webhook_endpoints: 1, teams: 1 });
      expect(await resealColumns(database.db, currentSealPrefix(), reseal)).toEqual({ recipients: 0, class_invitations: 0, members: 0, webhook_endpoints: 0, teams: 0 });
      const [team] = await database.query<{ invite_code_sealed: string }>(`select invite_code_sealed from teams`);
      expect(team.invite_code_sealed.startsWith(currentSealPrefix())).toBe(true);
      expect(unseal("teams.invite_code", team.invite_code_sealed)).toBe("Abcdefghijklmnop");
      const [endpoint] = await database.query<{ secret_sealed: string }>(`select secret_sealed from webhook_endpoints`);
      expect(endpoint.secret_sealed.startsWith(currentSealPrefix())).toBe(true);
      expect(endpointSecret({ secretSealed: endpoint.secret_sealed })).toBe(old.secret);
      expect((await openTest(database.db, old.recipient))?.email).toBe("ann@example.test");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("the same upgrade through drizzle-kit's migrator alone (no data step)", () => {
  it("stops before the plaintext is dropped, and the app's migration completes it afterwards", async () => {
    const other = await emptyDatabase();
    await drizzleMigrate(other, migrationsBefore(FIRST_NEW));
    await writeOldRows(other);
    const refused = await drizzleMigrate(other, migrationsFolder).then(
      () => null,
      (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ""}`,
    );
    expect(refused).toContain("Tokens and webhook secrets are not sealed yet");
    const [{ count }] = await other.query<{ count: number }>(`select count(*)::int as count from recipients where token = $1`, [old.recipient]);
    expect(count).toBe(1);

    await migrateDatabase(other, { seal });
    expect((await openTest(other.db, old.recipient))?.email).toBe("ann@example.test");
  });
});
