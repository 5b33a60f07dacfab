-- questline_set_leaderboard_visibility: its current source. A change here is installed by a migration that
-- `npm run db:functions` writes; a test checks that the migrations install exactly this.
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
