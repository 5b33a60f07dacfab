-- questline_expire_windows: its current source. A change here is installed by a migration that
-- `npm run db:functions` writes; a test checks that the migrations install exactly this.
-- Takes the XP of days that left the 7- and 30-day windows out of those boards, for every day
-- up to p_today not yet done. Safe to run any number of times.
CREATE OR REPLACE FUNCTION questline_expire_windows(p_today date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_done date;
  v_day date;
  r record;
  n integer := 0;
BEGIN
  SELECT expired_through INTO v_done FROM xp_window_state WHERE id = 1 FOR UPDATE;
  IF v_done IS NULL OR v_done >= p_today THEN RETURN 0; END IF;
  FOR v_day IN SELECT d::date FROM generate_series(v_done + 1, p_today, interval '1 day') AS d LOOP
    FOR r IN SELECT scope, user_id, amount FROM xp_daily WHERE day = v_day - 7 ORDER BY scope, user_id LOOP
      PERFORM questline_bump_score(r.scope || '|7d', r.user_id, -r.amount, now(), true);
      n := n + 1;
    END LOOP;
    FOR r IN SELECT scope, user_id, amount FROM xp_daily WHERE day = v_day - 30 ORDER BY scope, user_id LOOP
      PERFORM questline_bump_score(r.scope || '|30d', r.user_id, -r.amount, now(), true);
      n := n + 1;
    END LOOP;
    DELETE FROM xp_daily WHERE day <= v_day - 30;
  END LOOP;
  UPDATE xp_window_state SET expired_through = p_today WHERE id = 1;
  RETURN n;
END $$;
