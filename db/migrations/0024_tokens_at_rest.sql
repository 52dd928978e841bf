-- Custom SQL migration file, put your code below! --
-- Tokens and secrets at rest (issue 21, docs/security.md). Before this migration the app's
-- start-up (db/migrate.ts, data step of db/sealed.ts) has filled token_hash and token_sealed
-- of every recipient, class invitation and member and secret_sealed of every webhook
-- endpoint. A database migrated without that step (drizzle-kit migrate) stops here, before the
-- next migration drops the plaintext columns, so nothing is lost.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM "recipients" WHERE "token_hash" IS NULL OR "token_sealed" IS NULL)
     OR EXISTS (SELECT 1 FROM "class_invitations" WHERE "token_hash" IS NULL OR "token_sealed" IS NULL)
     OR EXISTS (SELECT 1 FROM "members" WHERE "token_hash" IS NULL OR "token_sealed" IS NULL)
     OR EXISTS (SELECT 1 FROM "webhook_endpoints" WHERE "secret_sealed" IS NULL) THEN
    RAISE EXCEPTION 'Tokens and webhook secrets are not sealed yet: apply the migrations with npm run db:migrate (or by starting the app), which seals them first, not with drizzle-kit migrate.';
  END IF;
END $$;
--> statement-breakpoint
-- Auth.js sessions: the row keeps the SHA-256 of the cookie's token (lib/auth/adapter.ts),
-- so a signed-in browser's cookie finds its migrated row.
UPDATE "session" SET "sessionToken" = encode(sha256(convert_to("sessionToken", 'UTF8')), 'hex');
--> statement-breakpoint
-- Messages the provider accepted, or that will never be sent (refused, dropped), keep no body
-- or links: they carried personal and sign-in links. The dev mailbox's own messages stay.
UPDATE "email_messages" SET "html" = '', "text" = '', "links" = '[]'::jsonb
  WHERE "transport" = 'resend' AND "status" IN ('sent', 'failed', 'dropped');
--> statement-breakpoint
-- The answer save looks the recipient up by the SHA-256 of the token (the token column goes).
DROP FUNCTION IF EXISTS taking_save_answer(text, integer, integer, timestamptz);
--> statement-breakpoint
create function taking_save_answer(p_token_hash text, p_question_id integer, p_option integer, p_now timestamptz)
returns table (outcome text, deadline timestamptz, answered integer, questions integer)
language plpgsql volatile as $$
#variable_conflict use_column
declare
  v_id integer;
  v_test_id integer;
  v_status text;
  v_deadline timestamptz;
  v_orders jsonb;
  v_questions integer;
  v_order jsonb;
  v_count integer;
  v_index integer;
begin
  select r.id, r.test_id, r.status, r.deadline_at, r.option_orders, jsonb_array_length(r.question_order)
    into v_id, v_test_id, v_status, v_deadline, v_orders, v_questions
    from recipients r where r.token_hash = p_token_hash;
  if not found then
    return query select 'not_found'::text, null::timestamptz, null::integer, null::integer;
    return;
  end if;
  if v_status = 'completed' then
    return query select 'completed'::text, v_deadline, null::integer, v_questions;
    return;
  elsif v_status = 'sent' then
    return query select 'not_started'::text, v_deadline, null::integer, v_questions;
    return;
  elsif v_deadline is not null and p_now >= v_deadline then
    return query select 'time_up'::text, v_deadline, null::integer, v_questions;
    return;
  end if;

  if v_orders is not null then
    v_order := v_orders -> p_question_id::text;
    if v_order is null then
      return query select 'unknown_question'::text, v_deadline, null::integer, v_questions;
      return;
    end if;
    v_count := jsonb_array_length(v_order);
  else
    -- A recipient from before option orders: the options as stored.
    select jsonb_array_length(q.options) into v_count from test_questions q where q.id = p_question_id and q.test_id = v_test_id;
    if not found then
      return query select 'unknown_question'::text, v_deadline, null::integer, v_questions;
      return;
    end if;
  end if;
  if p_option < 0 or p_option >= v_count then
    return query select 'no_such_option'::text, v_deadline, null::integer, v_questions;
    return;
  end if;
  v_index := coalesce((v_order ->> p_option)::integer, p_option);

  -- Under the recipient's row lock, and only while started and before the deadline: an
  -- answer never lands after the attempt was submitted (a submit holds the same lock).
  update recipients set last_activity_at = p_now
   where id = v_id and status = 'started' and (deadline_at is null or deadline_at > p_now);
  if not found then
    select r.status, r.deadline_at into v_status, v_deadline from recipients r where r.id = v_id;
    return query select case when v_status = 'started' and v_deadline is not null and p_now >= v_deadline then 'time_up' else 'completed' end,
                        v_deadline, null::integer, v_questions;
    return;
  end if;
  insert into answers (recipient_id, question_id, option_index, answered_at)
  values (v_id, p_question_id, v_index, p_now)
  on conflict (recipient_id, question_id) do update set option_index = excluded.option_index, answered_at = excluded.answered_at;
  return query select 'saved'::text, v_deadline, (select count(*)::integer from answers a where a.recipient_id = v_id), v_questions;
end;
$$;
