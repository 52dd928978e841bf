-- Generic sliding-log rate limit (lib/ratelimit/window.ts): one hit against one or more
-- buckets, all or nothing, in one round trip. Each bucket's row is created when absent and
-- locked by the upsert, in key order, so callers sharing buckets cannot deadlock and every
-- count is exact across instances; clock_timestamp() is read after the locks, so the
-- database's clock orders each bucket's log. The hit is admitted only when every bucket
-- has room, and is then appended to every bucket; a refused hit is written nowhere.
-- Called inside a transaction, the hit counts only if that transaction commits, and the
-- rows stay locked until then. Call it once per transaction.
-- A few rows whose hits have all left their window are deleted on the way (skipping rows
-- other callers hold), so the table holds about one row per recently active key.
CREATE OR REPLACE FUNCTION rate_limit_hit(p_keys text[], p_limits integer[], p_windows_ms integer[])
RETURNS TABLE (
  bucket text,
  admitted boolean,
  has_room boolean,
  remaining integer,
  reset_ms bigint,
  retry_after_ms bigint
)
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_now timestamptz;
  v_window interval;
  v_hits timestamptz[];
  v_admit boolean := true;
BEGIN
  IF cardinality(p_keys) IS DISTINCT FROM cardinality(p_limits) OR cardinality(p_keys) IS DISTINCT FROM cardinality(p_windows_ms) THEN
    RAISE EXCEPTION 'rate_limit_hit: keys, limits and windows differ in length';
  END IF;

  FOR r IN SELECT DISTINCT k.key FROM unnest(p_keys) AS k(key) ORDER BY k.key LOOP
    INSERT INTO rate_limit_buckets AS b (key, expires_at) VALUES (r.key, now())
    ON CONFLICT (key) DO UPDATE SET expires_at = b.expires_at;
  END LOOP;

  v_now := clock_timestamp();

  FOR r IN SELECT k.key, k.lim, k.win FROM unnest(p_keys, p_limits, p_windows_ms) AS k(key, lim, win) LOOP
    IF (SELECT count(*) FROM rate_limit_buckets b, unnest(b.hits) AS h
         WHERE b.key = r.key AND h > v_now - r.win * interval '1 millisecond') >= r.lim THEN
      v_admit := false;
    END IF;
  END LOOP;

  FOR r IN SELECT k.key, k.lim, k.win FROM unnest(p_keys, p_limits, p_windows_ms) AS k(key, lim, win) ORDER BY k.key LOOP
    v_window := r.win * interval '1 millisecond';
    SELECT ARRAY(SELECT h FROM unnest(b.hits) AS h WHERE h > v_now - v_window ORDER BY h)
      INTO v_hits FROM rate_limit_buckets b WHERE b.key = r.key;
    bucket := r.key;
    admitted := v_admit;
    has_room := cardinality(v_hits) < r.lim;
    -- Room again once enough of the oldest hits have left the window.
    retry_after_ms := CASE WHEN has_room THEN 0
      ELSE ceil(extract(epoch FROM (coalesce(v_hits[greatest(cardinality(v_hits) - r.lim + 1, 1)], v_now) + v_window - v_now)) * 1000)::bigint END;
    IF v_admit THEN
      v_hits := v_hits || v_now;
    END IF;
    UPDATE rate_limit_buckets
       SET hits = v_hits, expires_at = coalesce(v_hits[cardinality(v_hits)], v_now) + v_window
     WHERE key = r.key;
    remaining := greatest(r.lim - cardinality(v_hits), 0);
    reset_ms := ceil(extract(epoch FROM (coalesce(v_hits[1], v_now) + v_window)) * 1000)::bigint;
    RETURN NEXT;
  END LOOP;

  DELETE FROM rate_limit_buckets
   WHERE key IN (SELECT s.key FROM rate_limit_buckets s WHERE s.expires_at < v_now
                  ORDER BY s.expires_at LIMIT 20 FOR UPDATE SKIP LOCKED);
END;
$$;
