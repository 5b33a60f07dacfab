-- questline_award_xp: its current source. A change here is installed by a migration that
-- `npm run db:functions` writes; a test checks that the migrations install exactly this.
-- An award touches every board it counts on in one statement instead of one function call and
-- five statements per board: the entries in one upsert, then the histogram's -1 (old score) and
-- +1 (new score) rows in one upsert, locked in (board, score) order so concurrent awards cannot
-- deadlock (scores only rise on award). Same results as 0003's version; expiry and opting out
-- still go through questline_bump_score.
CREATE OR REPLACE FUNCTION questline_award_xp(
  p_user text, p_project text, p_campaign text, p_source_type text, p_source_id text, p_amount integer, p_at timestamptz
) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_scopes text[] := array_remove(ARRAY['global', 'p:' || p_project, 'c:' || p_campaign], NULL);
  v_day date := (p_at AT TIME ZONE 'utc')::date;
  v_today date := (now() AT TIME ZONE 'utc')::date;
  v_windows text[];
  v_empty_boards text[];
  v_empty_scores bigint[];
  v_new boolean;
BEGIN
  -- The event and the day's XP per scope first: the histogram rows, which other awards wait
  -- for, are locked last and held only until commit.
  WITH event AS (
    INSERT INTO xp_event (user_id, project_id, campaign_id, source_type, source_id, amount, created_at)
      VALUES (p_user, p_project, p_campaign, p_source_type, p_source_id, p_amount, p_at)
      ON CONFLICT (source_type, source_id, user_id) DO NOTHING
      RETURNING true AS new
  ), daily AS (
    INSERT INTO xp_daily (scope, user_id, day, amount)
      SELECT s, p_user, v_day, p_amount FROM unnest(v_scopes) s WHERE EXISTS (SELECT FROM event) ORDER BY s
      ON CONFLICT (scope, day, user_id) DO UPDATE SET amount = xp_daily.amount + excluded.amount
  )
  SELECT new INTO v_new FROM event;
  IF v_new IS NULL THEN RETURN false; END IF;

  v_windows := CASE WHEN v_day > v_today - 7 THEN ARRAY['all', '30d', '7d']
                    WHEN v_day > v_today - 30 THEN ARRAY['all', '30d']
                    ELSE ARRAY['all'] END;

  -- Entries hold positive scores only, so an entry whose score is now above the award's amount
  -- existed before and leaves its old score's histogram row.
  WITH bumped AS (
    INSERT INTO leaderboard_entry AS e (board, user_id, score, reached_at, visible)
      SELECT s || '|' || w, p_user, p_amount, p_at,
             coalesce((SELECT visible FROM leaderboard_preference WHERE user_id = p_user), true)
      FROM unnest(v_scopes) s CROSS JOIN unnest(v_windows) w
      ORDER BY 1
      ON CONFLICT (board, user_id) DO UPDATE SET score = e.score + excluded.score, reached_at = excluded.reached_at
      RETURNING e.board, e.score, e.visible
  ), counted AS (
    INSERT INTO leaderboard_histogram AS h (board, score, members)
      SELECT board, score, change FROM (
        SELECT board, score - p_amount AS score, -1 AS change FROM bumped WHERE visible AND score > p_amount
        UNION ALL
        SELECT board, score, 1 FROM bumped WHERE visible
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
  RETURN true;
END $$;
