-- The recipient's answer save in one round trip (issue 13): checks the token, the state
-- (started, not completed, before the deadline fixed at Start), the question (of the
-- recipient's test, through the recipient's option orders) and the option (a position on
-- the recipient's page, mapped back to the question's own index), then upserts the answer
-- and counts the answers given. `outcome` tells lib/tests/taking.ts which error to answer
-- (not_found, completed, not_started, time_up, unknown_question, no_such_option) or `saved`.
-- p_now is the application's clock, as the checks used before this function.
-- Plain plpgsql: it runs on PostgreSQL and on PGlite alike. See docs/decisions.md.
create or replace function taking_save_answer(p_token text, p_question_id integer, p_option integer, p_now timestamptz)
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
    from recipients r where r.token = p_token;
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
