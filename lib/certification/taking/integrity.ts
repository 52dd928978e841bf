import { createHash } from "node:crypto";
import type { Db } from "@/db";
import { preparedQuery } from "@/db/prepared";
import { notFound } from "@/lib/kernel/errors";
import { clientAddress } from "@/lib/platform/ratelimit/client-ip";
import { hashToken, isTokenShaped } from "@/lib/platform/security/tokens";
import { MAX_HIDDEN_SPAN_MS, type IntegrityEvent } from "@/lib/certification/integrity/schemas";

/**
 * Recording an attempt's integrity record (table attempt_integrity, a test's
 * `record_integrity`): the server writes the address and browser at Start and at submit, the
 * page posts what it saw (POST /api/t/{token}/events). Every write is one upsert with bounded
 * counters, so a forged post can neither overflow a column nor touch anything else (status,
 * answers, result). The trainer's reading is lib/certification/integrity/summary.ts.
 */

/** The address and browser of a request, as recorded. */
export type Seen = { address: string | null; browser: string | null };

/** A User-Agent is kept up to this many characters. */
export const MAX_BROWSER_CHARS = 300;
/** Distinct browsers told apart per attempt: past this many, more are not counted. */
export const MAX_BROWSERS = 20;
/** A counter (hidden, copy, full screen) stops here; hidden milliseconds stop at PostgreSQL's integer maximum (about 24.8 days). */
export const MAX_COUNT = 100_000;
const MAX_HIDDEN_MS = 2_147_483_647;

/**
 * The client's address (the app's one reading of it, which honours TRUST_PROXY; an IPv6
 * address as its /64) and the User-Agent, cut to MAX_BROWSER_CHARS.
 */
export function seenIn(headers: Headers): Seen {
  const browser = headers.get("user-agent")?.trim().slice(0, MAX_BROWSER_CHARS) || null;
  return { address: clientAddress(headers), browser };
}

/** A browser as kept in `browsers`: a short SHA-256 prefix of its User-Agent (enough to tell a handful apart, nothing to read back). */
export function browserKey(browser: string): string {
  return createHash("sha256").update(browser, "utf8").digest("hex").slice(0, 16);
}

/** `browsers` with the new keys ($) added when not there yet, while fewer than MAX_BROWSERS are kept. */
const MERGED_BROWSERS = `case when a.browsers @> excluded.browsers or jsonb_array_length(a.browsers) >= ${MAX_BROWSERS} then a.browsers else a.browsers || excluded.browsers end`;

const recordSeenSql = (moment: "start" | "submit") =>
  `insert into attempt_integrity as a (recipient_id, ${moment}_address, ${moment}_browser, browsers) values ($1::integer, $2::text, $3::text, $4::jsonb)
   on conflict (recipient_id) do update set ${moment}_address = excluded.${moment}_address, ${moment}_browser = excluded.${moment}_browser,
     browsers = ${MERGED_BROWSERS}, updated_at = now()`;
const RECORD_START_SQL = recordSeenSql("start");
const RECORD_SUBMIT_SQL = recordSeenSql("submit");

/**
 * Records where Start or the submission came from (one upsert; the browser also joins the
 * browsers that opened the link). The caller records only when this request started or
 * completed the attempt, and only with the test's `record_integrity` on.
 */
export async function recordSeen(db: Db, recipientId: number, moment: "start" | "submit", seen: Seen): Promise<void> {
  const browsers = seen.browser ? [browserKey(seen.browser)] : [];
  await preparedQuery(db, moment === "start" ? RECORD_START_SQL : RECORD_SUBMIT_SQL, [recipientId, seen.address, seen.browser, JSON.stringify(browsers)]);
}

/** A post's events added up, each value bounded. */
export function tallyEvents(events: IntegrityEvent[]) {
  const tally = { opened: false, hiddenCount: 0, hiddenMs: 0, copies: 0, fullscreenExits: 0 };
  for (const event of events) {
    if (event.type === "opened") tally.opened = true;
    else if (event.type === "hidden") {
      tally.hiddenCount += 1;
      tally.hiddenMs += Math.min(event.ms, MAX_HIDDEN_SPAN_MS);
    } else if (event.type === "copy") tally.copies += 1;
    else tally.fullscreenExits += 1;
  }
  return tally;
}

/**
 * The page's post, in one statement: the recipient by the token's hash, recorded only while
 * the test records integrity and the attempt is not completed; the counters only once started
 * (the start page posts just "opened"). Sums are computed as bigint and capped, so no post can
 * overflow a column. `known`: the token names a recipient at all (else 404).
 */
const RECORD_EVENTS_SQL = `with r as (
    select r.id, (r.status = 'started') as started from recipients r join tests t on t.id = r.test_id
    where r.token_hash = $1::text and t.record_integrity and r.status <> 'completed'
  ), up as (
    insert into attempt_integrity as a (recipient_id, browsers, hidden_count, hidden_ms, copy_count, fullscreen_exits)
    select r.id, $2::jsonb,
      case when r.started then least($3::bigint, ${MAX_COUNT}) else 0 end, case when r.started then least($4::bigint, ${MAX_HIDDEN_MS}) else 0 end,
      case when r.started then least($5::bigint, ${MAX_COUNT}) else 0 end, case when r.started then least($6::bigint, ${MAX_COUNT}) else 0 end
    from r
    on conflict (recipient_id) do update set
      browsers = ${MERGED_BROWSERS},
      hidden_count = least(a.hidden_count::bigint + excluded.hidden_count, ${MAX_COUNT}),
      hidden_ms = least(a.hidden_ms::bigint + excluded.hidden_ms, ${MAX_HIDDEN_MS}),
      copy_count = least(a.copy_count::bigint + excluded.copy_count, ${MAX_COUNT}),
      fullscreen_exits = least(a.fullscreen_exits::bigint + excluded.fullscreen_exits, ${MAX_COUNT}),
      updated_at = now()
    returning 1
  )
  select exists (select 1 from recipients where token_hash = $1::text) as known, (select count(*) from up)::integer as recorded`;

/**
 * Records what the recipient's page saw (POST /api/t/{token}/events). An unknown token → 404;
 * a test without `record_integrity`, or a completed attempt, records nothing (and says so
 * with `false`, which the route does not tell the page). "opened" adds the request's browser
 * to those that opened the link.
 */
export async function recordEvents(db: Db, token: string, events: IntegrityEvent[], seen: Seen): Promise<boolean> {
  if (!isTokenShaped(token)) throw notFound("Test");
  const tally = tallyEvents(events);
  const browsers = tally.opened && seen.browser ? [browserKey(seen.browser)] : [];
  const [row] = await preparedQuery<{ known: boolean; recorded: number }>(db, RECORD_EVENTS_SQL, [
    hashToken(token),
    JSON.stringify(browsers),
    tally.hiddenCount,
    tally.hiddenMs,
    tally.copies,
    tally.fullscreenExits,
  ]);
  if (!row.known) throw notFound("Test");
  return row.recorded > 0;
}
