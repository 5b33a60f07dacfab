-- Leaderboards kept exact as XP lands. See app/modules/leaderboards/leaderboards.server.ts.

INSERT INTO "xp_window_state" ("id", "expired_through") VALUES (1, (now() AT TIME ZONE 'utc')::date - 1) ON CONFLICT DO NOTHING;
--> statement-breakpoint

-- Adds `p_delta` to a member's score on one board and keeps the board's histogram of visible
-- members exact. A score that drops to zero leaves the board.
CREATE OR REPLACE FUNCTION questline_bump_score(p_board text, p_user text, p_delta bigint, p_at timestamptz, p_visible boolean)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_old bigint;
  v_visible boolean;
  v_new bigint;
BEGIN
  IF p_delta = 0 THEN RETURN; END IF;
  SELECT score, visible INTO v_old, v_visible FROM leaderboard_entry WHERE board = p_board AND user_id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    IF p_delta < 0 THEN RETURN; END IF;
    INSERT INTO leaderboard_entry (board, user_id, score, reached_at, visible)
      VALUES (p_board, p_user, p_delta, p_at, p_visible)
      ON CONFLICT (board, user_id) DO NOTHING;
    IF NOT FOUND THEN
      -- Another award created the entry first: add to it instead.
      PERFORM questline_bump_score(p_board, p_user, p_delta, p_at, p_visible);
      RETURN;
    END IF;
    IF p_visible THEN
      INSERT INTO leaderboard_histogram (board, score, members) VALUES (p_board, p_delta, 1)
        ON CONFLICT (board, score) DO UPDATE SET members = leaderboard_histogram.members + 1;
    END IF;
    RETURN;
  END IF;

  v_new := v_old + p_delta;
  IF v_new <= 0 THEN
    DELETE FROM leaderboard_entry WHERE board = p_board AND user_id = p_user;
  ELSE
    UPDATE leaderboard_entry
      SET score = v_new, reached_at = CASE WHEN p_delta > 0 THEN p_at ELSE reached_at END
      WHERE board = p_board AND user_id = p_user;
  END IF;
  IF v_visible THEN
    UPDATE leaderboard_histogram SET members = members - 1 WHERE board = p_board AND score = v_old;
    DELETE FROM leaderboard_histogram WHERE board = p_board AND score = v_old AND members <= 0;
    IF v_new > 0 THEN
      INSERT INTO leaderboard_histogram (board, score, members) VALUES (p_board, v_new, 1)
        ON CONFLICT (board, score) DO UPDATE SET members = leaderboard_histogram.members + 1;
    END IF;
  END IF;
END $$;
--> statement-breakpoint

-- Records an XP award once per (source, member) and adds it to every board it counts on:
-- global, the project's and the campaign's, over all time and the 30- and 7-day windows.
-- Returns false when this source already paid this member.
CREATE OR REPLACE FUNCTION questline_award_xp(
  p_user text, p_project text, p_campaign text, p_source_type text, p_source_id text, p_amount integer, p_at timestamptz
) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_visible boolean;
  v_scope text;
  v_day date := (p_at AT TIME ZONE 'utc')::date;
  v_today date := (now() AT TIME ZONE 'utc')::date;
BEGIN
  INSERT INTO xp_event (user_id, project_id, campaign_id, source_type, source_id, amount, created_at)
    VALUES (p_user, p_project, p_campaign, p_source_type, p_source_id, p_amount, p_at)
    ON CONFLICT (source_type, source_id, user_id) DO NOTHING;
  IF NOT FOUND THEN RETURN false; END IF;

  v_visible := coalesce((SELECT visible FROM leaderboard_preference WHERE user_id = p_user), true);
  FOREACH v_scope IN ARRAY array_remove(ARRAY['global', 'p:' || p_project, 'c:' || p_campaign], NULL) LOOP
    PERFORM questline_bump_score(v_scope || '|all', p_user, p_amount, p_at, v_visible);
    IF v_day > v_today - 30 THEN
      PERFORM questline_bump_score(v_scope || '|30d', p_user, p_amount, p_at, v_visible);
    END IF;
    IF v_day > v_today - 7 THEN
      PERFORM questline_bump_score(v_scope || '|7d', p_user, p_amount, p_at, v_visible);
    END IF;
    INSERT INTO xp_daily (scope, user_id, day, amount) VALUES (v_scope, p_user, v_day, p_amount)
      ON CONFLICT (scope, day, user_id) DO UPDATE SET amount = xp_daily.amount + excluded.amount;
  END LOOP;
  RETURN true;
END $$;
--> statement-breakpoint

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
--> statement-breakpoint

-- Shows or hides a member on every public board, keeping the histograms exact.
CREATE OR REPLACE FUNCTION questline_set_leaderboard_visibility(p_user text, p_visible boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  INSERT INTO leaderboard_preference (user_id, visible) VALUES (p_user, p_visible)
    ON CONFLICT (user_id) DO UPDATE SET visible = excluded.visible;
  FOR r IN SELECT board, score FROM leaderboard_entry WHERE user_id = p_user AND visible <> p_visible ORDER BY board FOR UPDATE LOOP
    UPDATE leaderboard_entry SET visible = p_visible WHERE board = r.board AND user_id = p_user;
    IF p_visible THEN
      INSERT INTO leaderboard_histogram (board, score, members) VALUES (r.board, r.score, 1)
        ON CONFLICT (board, score) DO UPDATE SET members = leaderboard_histogram.members + 1;
    ELSE
      UPDATE leaderboard_histogram SET members = members - 1 WHERE board = r.board AND score = r.score;
      DELETE FROM leaderboard_histogram WHERE board = r.board AND score = r.score AND members <= 0;
    END IF;
  END LOOP;
END $$;
