-- questline_post: its current source. A change here is installed by a migration that
-- `npm run db:functions` writes; a test checks that the migrations install exactly this.
-- Posts one journal entry: its lines (JSON array of {holder, name, asset, amount}) must sum to
-- zero per asset. Accounts are created on first use, and each account's cached balance moves in
-- the same statement, locked in (holder, name, asset) order so concurrent postings cannot
-- deadlock. A member account left below zero fails the posting (SQLSTATE QL003) and rolls it back:
-- the balance is read under the row lock the update holds, so concurrent postings cannot both
-- spend the same funds. A key already posted returns that entry and changes nothing (created = false).
CREATE OR REPLACE FUNCTION questline_post(p_key text, p_kind text, p_user text, p_reference text, p_memo text, p_lines jsonb)
RETURNS TABLE (entry_id bigint, created boolean) LANGUAGE plpgsql
AS $$
DECLARE
  v_id bigint;
  v_unbalanced text;
  v_overdrawn boolean;
  v_plan_cache_mode text;
BEGIN
  INSERT INTO journal_entry (idempotency_key, kind, user_id, reference, memo)
    VALUES (p_key, p_kind, p_user, p_reference, p_memo)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    RETURN QUERY SELECT e.id, false FROM journal_entry e WHERE e.idempotency_key = p_key;
    RETURN;
  END IF;
  IF jsonb_array_length(p_lines) < 2 THEN
    RAISE EXCEPTION 'journal entry % needs at least two lines', p_key USING ERRCODE = 'QL001';
  END IF;
  SELECT l.asset INTO v_unbalanced
    FROM jsonb_to_recordset(p_lines) AS l(asset text, amount numeric)
    GROUP BY l.asset HAVING sum(l.amount) <> 0 OR bool_or(l.amount IS NULL OR l.amount <> trunc(l.amount))
    LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'journal entry % does not balance in %', p_key, v_unbalanced USING ERRCODE = 'QL001';
  END IF;
  -- A posting of many lines (a reward batch opening a thousand members' accounts) checks each
  -- line's account through the foreign key, with a plan cached per connection: one made while
  -- ledger_account was small scans the table for every line. Such a posting plans its statements
  -- for the table as it is now. Small postings keep their cached plans: planning every statement
  -- of every posting cost more than the rest of the posting (decision 048).
  IF jsonb_array_length(p_lines) > 16 THEN
    v_plan_cache_mode := current_setting('plan_cache_mode');
    PERFORM set_config('plan_cache_mode', 'force_custom_plan', true);
  END IF;
  WITH lines AS (
    SELECT l.holder, l.name, l.asset, sum(l.amount) AS amount
      FROM jsonb_to_recordset(p_lines) AS l(holder text, name text, asset text, amount numeric)
      GROUP BY l.holder, l.name, l.asset
  ), accounts AS (
    INSERT INTO ledger_account (holder, name, asset, balance)
      SELECT holder, name, asset, amount FROM lines ORDER BY holder, name, asset
      ON CONFLICT (holder, name, asset) DO UPDATE SET balance = ledger_account.balance + excluded.balance
      RETURNING id, holder, name, asset, balance
  ), posted AS (
    INSERT INTO journal_line (entry_id, account_id, asset, amount)
      SELECT v_id, a.id, l.asset, l.amount
        FROM lines l JOIN accounts a ON a.holder = l.holder AND a.name = l.name AND a.asset = l.asset
        WHERE l.amount <> 0
  )
  SELECT coalesce(bool_or(a.holder <> 'platform' AND a.balance < 0), false) INTO v_overdrawn FROM accounts a;
  IF v_plan_cache_mode IS NOT NULL THEN
    PERFORM set_config('plan_cache_mode', v_plan_cache_mode, true);
  END IF;
  IF v_overdrawn THEN
    RAISE EXCEPTION 'journal entry % would take a member account below zero', p_key USING ERRCODE = 'QL003';
  END IF;
  RETURN QUERY SELECT v_id, true;
END $$;
