-- Custom SQL migration file, put your code below! --
-- Multiple-response questions (issue 23): the answer save takes `options` (a set of positions
-- on the recipient's page) for a `multiple` question, `option` for a `single` one. Same one
-- round trip and the same outcomes as before (0024_tokens_at_rest.sql), plus:
--   options_expected (a multiple question answered with `option`), option_expected (a single
--   one answered with `options`), wrong_count (not exactly the number to choose; `choose`
--   carries it), no_such_options (a position out of range or given twice).
-- The set is stored in the question's own order, ascending, in answers.option_indexes, and
-- option_index is its first (so readers of option_index alone still see a real option).
-- Every refusal returns before anything is written.
DROP FUNCTION IF EXISTS taking_save_answer(text, integer, integer, timestamptz);
--> statement-breakpoint
create function taking_save_answer(p_token_hash text, p_question_id integer, p_option integer, p_options integer[], p_now timestamptz)
returns table (outcome text, deadline timestamptz, answered integer, questions integer, choose integer)
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
  v_type text;
  v_choose integer;
  v_index integer;
  v_indexes jsonb;
begin
  select r.id, r.test_id, r.status, r.deadline_at, r.option_orders, jsonb_array_length(r.question_order)
    into v_id, v_test_id, v_status, v_deadline, v_orders, v_questions
    from recipients r where r.token_hash = p_token_hash;
  if not found then
    return query select 'not_found'::text, null::timestamptz, null::integer, null::integer, null::integer;
    return;
  end if;
  if v_status = 'completed' then
    return query select 'completed'::text, v_deadline, null::integer, v_questions, null::integer;
    return;
  elsif v_status = 'sent' then
    return query select 'not_started'::text, v_deadline, null::integer, v_questions, null::integer;
    return;
  elsif v_deadline is not null and p_now >= v_deadline then
    return query select 'time_up'::text, v_deadline, null::integer, v_questions, null::integer;
    return;
  end if;

  -- The recipient's own questions are the keys of their option orders (older recipients,
  -- without orders: the test's questions, options as stored).
  if v_orders is not null then
    v_order := v_orders -> p_question_id::text;
    if v_order is null then
      return query select 'unknown_question'::text, v_deadline, null::integer, v_questions, null::integer;
      return;
    end if;
  end if;
  select jsonb_array_length(q.options), q.type, coalesce(jsonb_array_length(q.correct_indexes), 1)
    into v_count, v_type, v_choose
    from test_questions q where q.id = p_question_id and q.test_id = v_test_id;
  if not found then
    return query select 'unknown_question'::text, v_deadline, null::integer, v_questions, null::integer;
    return;
  end if;
  if v_order is not null then
    v_count := jsonb_array_length(v_order);
  end if;

  if v_type = 'multiple' then
    if p_options is null then
      return query select 'options_expected'::text, v_deadline, null::integer, v_questions, v_choose;
      return;
    end if;
    if cardinality(p_options) <> v_choose then
      return query select 'wrong_count'::text, v_deadline, null::integer, v_questions, v_choose;
      return;
    end if;
    if exists (select 1 from unnest(p_options) p where p is null or p < 0 or p >= v_count)
       or (select count(distinct p) from unnest(p_options) p) <> cardinality(p_options) then
      return query select 'no_such_options'::text, v_deadline, null::integer, v_questions, v_choose;
      return;
    end if;
    select jsonb_agg(i order by i) into v_indexes
      from (select coalesce((v_order ->> p)::integer, p) as i from unnest(p_options) p) mapped;
    v_index := (v_indexes ->> 0)::integer;
  else
    if p_option is null then
      return query select 'option_expected'::text, v_deadline, null::integer, v_questions, 1;
      return;
    end if;
    if p_option < 0 or p_option >= v_count then
      return query select 'no_such_option'::text, v_deadline, null::integer, v_questions, 1;
      return;
    end if;
    v_index := coalesce((v_order ->> p_option)::integer, p_option);
    v_indexes := null;
  end if;

  -- Under the recipient's row lock, and only while started and before the deadline: an
  -- answer never lands after the attempt was submitted (a submit holds the same lock).
  update recipients set last_activity_at = p_now
   where id = v_id and status = 'started' and (deadline_at is null or deadline_at > p_now);
  if not found then
    select r.status, r.deadline_at into v_status, v_deadline from recipients r where r.id = v_id;
    return query select case when v_status = 'started' and v_deadline is not null and p_now >= v_deadline then 'time_up' else 'completed' end,
                        v_deadline, null::integer, v_questions, null::integer;
    return;
  end if;
  insert into answers (recipient_id, question_id, option_index, option_indexes, answered_at)
  values (v_id, p_question_id, v_index, v_indexes, p_now)
  on conflict (recipient_id, question_id) do update
    set option_index = excluded.option_index, option_indexes = excluded.option_indexes, answered_at = excluded.answered_at;
  return query select 'saved'::text, v_deadline, (select count(*)::integer from answers a where a.recipient_id = v_id), v_questions, v_choose;
end;
$$;
