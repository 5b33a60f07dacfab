-- questline_bump_score: its current source. A change here is installed by a migration that
-- `npm run db:functions` writes; a test checks that the migrations install exactly this.
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
