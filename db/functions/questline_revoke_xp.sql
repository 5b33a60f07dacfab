-- questline_revoke_xp: its current source. A change here is installed by a migration that
-- `npm run db:functions` writes; a test checks that the migrations install exactly this.
-- Takes back one award (p_source_type, p_source_id) of a member, exactly once: a negative event
-- `<source type>_void` dated like the award (a second call finds it and changes nothing), so every
-- sum over a window loses the XP from the day it was earned. The award's day leaves the windows
-- as the expiry takes it out (questline_expire_windows): its XP is lowered on the 7- and 30-day
-- boards, and in xp_daily, only while that day is still in them (the windows' progress is read
-- under a share lock, so the expiry cannot take the day out meanwhile); the all-time boards
-- always. Each board's score falls by the award's amount, keeping the histogram exact; a score
-- that reaches zero leaves the board, a lowered one keeps its reached_at. Locks follow the award's
-- order (the event, the days in scope order, the entries in board order, the histogram rows in
-- (board, score) order), so awards and revokes cannot deadlock each other. Returns the XP taken
-- back: 0 when the source paid this member nothing or was taken back already.
CREATE OR REPLACE FUNCTION questline_revoke_xp(p_user text, p_source_type text, p_source_id text)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_amount integer;
  v_project text;
  v_campaign text;
  v_at timestamptz;
  v_day date;
  v_done date;
  v_scopes text[];
  v_windows text[];
  v_boards text[];
  v_new boolean;
  v_empty_boards text[];
  v_empty_scores bigint[];
BEGIN
  SELECT amount, project_id, campaign_id, created_at INTO v_amount, v_project, v_campaign, v_at
    FROM xp_event WHERE source_type = p_source_type AND source_id = p_source_id AND user_id = p_user;
  IF NOT FOUND OR v_amount <= 0 THEN RETURN 0; END IF;
  SELECT expired_through INTO v_done FROM xp_window_state WHERE id = 1 FOR SHARE;
  v_done := coalesce(v_done, (now() AT TIME ZONE 'utc')::date - 1);
  v_day := (v_at AT TIME ZONE 'utc')::date;
  v_scopes := array_remove(ARRAY['global', 'p:' || v_project, 'c:' || v_campaign], NULL);

  WITH event AS (
    INSERT INTO xp_event (user_id, project_id, campaign_id, source_type, source_id, amount, created_at)
      VALUES (p_user, v_project, v_campaign, p_source_type || '_void', p_source_id, -v_amount, v_at)
      ON CONFLICT (source_type, source_id, user_id) DO NOTHING
      RETURNING true AS new
  ), daily AS (
    -- The day's row is there until the expiry deletes it, when the day leaves the 30-day window.
    INSERT INTO xp_daily (scope, user_id, day, amount)
      SELECT s, p_user, v_day, -v_amount FROM unnest(v_scopes) s
      WHERE EXISTS (SELECT FROM event) AND v_day > v_done - 30 ORDER BY s
      ON CONFLICT (scope, day, user_id) DO UPDATE SET amount = xp_daily.amount + excluded.amount
  )
  SELECT new INTO v_new FROM event;
  IF v_new IS NULL THEN RETURN 0; END IF;

  -- Expiring through day E has taken days up to E - 7 out of the 7-day boards, up to E - 30 out of the 30-day ones.
  v_windows := CASE WHEN v_day > v_done - 7 THEN ARRAY['all', '30d', '7d']
                    WHEN v_day > v_done - 30 THEN ARRAY['all', '30d']
                    ELSE ARRAY['all'] END;
  v_boards := ARRAY(SELECT s || '|' || w FROM unnest(v_scopes) s CROSS JOIN unnest(v_windows) w ORDER BY 1);
  PERFORM 1 FROM leaderboard_entry WHERE user_id = p_user AND board = ANY (v_boards) ORDER BY board FOR UPDATE;

  WITH old AS (
    SELECT board, score, visible FROM leaderboard_entry WHERE user_id = p_user AND board = ANY (v_boards)
  ), emptied AS (
    DELETE FROM leaderboard_entry e USING old
      WHERE e.board = old.board AND e.user_id = p_user AND old.score <= v_amount
  ), lowered AS (
    UPDATE leaderboard_entry e SET score = old.score - v_amount FROM old
      WHERE e.board = old.board AND e.user_id = p_user AND old.score > v_amount
  ), counted AS (
    INSERT INTO leaderboard_histogram AS h (board, score, members)
      SELECT board, score, change FROM (
        SELECT board, score, -1 AS change FROM old WHERE visible
        UNION ALL
        SELECT board, score - v_amount, 1 FROM old WHERE visible AND score > v_amount
      ) changes
      ORDER BY board, score
      ON CONFLICT (board, score) DO UPDATE SET members = h.members + excluded.members
      RETURNING h.board, h.score, h.members
  )
  SELECT array_agg(board), array_agg(score) INTO v_empty_boards, v_empty_scores FROM counted WHERE members <= 0;
  IF v_empty_boards IS NOT NULL THEN
    DELETE FROM leaderboard_histogram h USING unnest(v_empty_boards, v_empty_scores) AS z(board, score)
      WHERE h.board = z.board AND h.score = z.score AND h.members <= 0;
  END IF;
  RETURN v_amount;
END $$;
