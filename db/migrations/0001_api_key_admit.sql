-- One round trip per API request: find the key (unknown or revoked → no row), then apply the
-- sliding-log rate limits on the locked key row. The row lock is the atomic section per key,
-- so the limit stays exact under concurrency and across app instances; clock_timestamp() is
-- read after the lock, so the database's clock orders every key's log.
-- p_create_limit > 0 marks a creation: it must also fit the creations log, and is appended to both.
-- Rejected requests are not written to either log.
CREATE OR REPLACE FUNCTION api_key_admit(p_hash text, p_limit integer, p_window_ms integer, p_create_limit integer)
RETURNS TABLE (
  key_id text,
  workspace_id text,
  scopes text[],
  prefix text,
  allowed boolean,
  limited_by text,
  remaining integer,
  reset_ms bigint,
  retry_after_ms bigint,
  now_ms bigint
)
LANGUAGE plpgsql AS $$
DECLARE
  k record;
  v_now timestamptz;
  v_window interval := p_window_ms * interval '1 millisecond';
  v_req timestamptz[];
  v_cre timestamptz[];
  v_is_create boolean := coalesce(p_create_limit, 0) > 0;
BEGIN
  SELECT a.id, a.workspace_id, a.scopes, a.prefix, a.request_log, a.create_log
    INTO k
    FROM api_keys a
   WHERE a.hash = p_hash AND a.revoked_at IS NULL
     FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;

  v_now := clock_timestamp();
  v_req := ARRAY(SELECT h FROM unnest(k.request_log) AS h WHERE h > v_now - v_window ORDER BY h);
  IF v_is_create THEN
    v_cre := ARRAY(SELECT h FROM unnest(k.create_log) AS h WHERE h > v_now - v_window ORDER BY h);
  END IF;

  key_id := k.id;
  workspace_id := k.workspace_id;
  scopes := k.scopes;
  prefix := k.prefix;
  now_ms := floor(extract(epoch FROM v_now) * 1000)::bigint;
  limited_by := NULL;
  retry_after_ms := 0;

  IF cardinality(v_req) >= p_limit THEN
    allowed := false;
    limited_by := 'requests';
    retry_after_ms := ceil(extract(epoch FROM (v_req[1] + v_window - v_now)) * 1000)::bigint;
  ELSIF v_is_create AND cardinality(v_cre) >= p_create_limit THEN
    allowed := false;
    limited_by := 'creations';
    retry_after_ms := ceil(extract(epoch FROM (v_cre[1] + v_window - v_now)) * 1000)::bigint;
  ELSE
    allowed := true;
    v_req := v_req || v_now;
    IF v_is_create THEN
      v_cre := v_cre || v_now;
      UPDATE api_keys SET request_log = v_req, create_log = v_cre, last_used_at = v_now WHERE id = k.id;
    ELSE
      UPDATE api_keys SET request_log = v_req, last_used_at = v_now WHERE id = k.id;
    END IF;
  END IF;

  remaining := greatest(p_limit - cardinality(v_req), 0);
  reset_ms := ceil(extract(epoch FROM (coalesce(v_req[1], v_now) + v_window)) * 1000)::bigint;
  RETURN NEXT;
END;
$$;
