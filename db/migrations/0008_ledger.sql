CREATE TABLE "deposit" (
	"id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"from_address" text NOT NULL,
	"ref" text NOT NULL,
	"user_id" text,
	"asset" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"required" integer NOT NULL,
	"credited_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_cursor" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"vault" text NOT NULL,
	"next_block" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_reference" (
	"user_id" text PRIMARY KEY NOT NULL,
	"ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journal_entry" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "journal_entry_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" text,
	"reference" text,
	"memo" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journal_line" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "journal_line_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entry_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "journal_line_not_zero" CHECK ("journal_line"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_account" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_account_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"holder" text NOT NULL,
	"name" text NOT NULL,
	"asset" text NOT NULL,
	"balance" numeric(78, 0) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_account_member_names" CHECK (("ledger_account"."holder" = 'platform') = ("ledger_account"."name" not in ('available', 'held')))
);
--> statement-breakpoint
CREATE TABLE "platform_setting" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawal" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"chain_id" integer NOT NULL,
	"asset" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"fee" numeric(78, 0) DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"request_key" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"tx_hash" text,
	"nonce" integer,
	"raw_tx" text,
	"failure" text,
	"waiting" boolean DEFAULT false NOT NULL,
	"sent_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deposit" ADD CONSTRAINT "deposit_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_reference" ADD CONSTRAINT "deposit_reference_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_line" ADD CONSTRAINT "journal_line_entry_id_journal_entry_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entry"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_line" ADD CONSTRAINT "journal_line_account_id_ledger_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal" ADD CONSTRAINT "withdrawal_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_chain_tx_log_key" ON "deposit" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "deposit_user_idx" ON "deposit" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "deposit_pending_idx" ON "deposit" USING btree ("chain_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_reference_ref_key" ON "deposit_reference" USING btree ("ref");--> statement-breakpoint
CREATE UNIQUE INDEX "journal_entry_idempotency_key" ON "journal_entry" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "journal_entry_user_idx" ON "journal_entry" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "journal_entry_reference_idx" ON "journal_entry" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "journal_line_entry_idx" ON "journal_line" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "journal_line_account_idx" ON "journal_line" USING btree ("account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_account_key" ON "ledger_account" USING btree ("holder","name","asset");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawal_request_key" ON "withdrawal" USING btree ("user_id","request_key");--> statement-breakpoint
CREATE INDEX "withdrawal_user_idx" ON "withdrawal" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawal_status_idx" ON "withdrawal" USING btree ("status");--> statement-breakpoint
-- Posts one journal entry: its lines (JSON array of {holder, name, asset, amount}) must sum to
-- zero per asset. Accounts are created on first use, and each account's cached balance moves in
-- the same statement, locked in (holder, name, asset) order so concurrent postings cannot
-- deadlock. A member account left below zero fails the posting (SQLSTATE QL003) and rolls it back:
-- the balance is read under the row lock the update holds, so concurrent postings cannot both
-- spend the same funds. A key already posted returns that entry and changes nothing (created = false).
CREATE FUNCTION questline_post(p_key text, p_kind text, p_user text, p_reference text, p_memo text, p_lines jsonb)
RETURNS TABLE (entry_id bigint, created boolean) LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
  v_unbalanced text;
  v_overdrawn boolean;
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
  IF v_overdrawn THEN
    RAISE EXCEPTION 'journal entry % would take a member account below zero', p_key USING ERRCODE = 'QL003';
  END IF;
  RETURN QUERY SELECT v_id, true;
END $$;
--> statement-breakpoint
CREATE FUNCTION questline_ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'journal entries and lines are immutable: post a correcting entry instead' USING ERRCODE = 'QL002';
END $$;
--> statement-breakpoint
CREATE TRIGGER journal_entry_immutable BEFORE UPDATE OR DELETE ON journal_entry FOR EACH ROW EXECUTE FUNCTION questline_ledger_immutable();
--> statement-breakpoint
CREATE TRIGGER journal_entry_no_truncate BEFORE TRUNCATE ON journal_entry FOR EACH STATEMENT EXECUTE FUNCTION questline_ledger_immutable();
--> statement-breakpoint
CREATE TRIGGER journal_line_immutable BEFORE UPDATE OR DELETE ON journal_line FOR EACH ROW EXECUTE FUNCTION questline_ledger_immutable();
--> statement-breakpoint
CREATE TRIGGER journal_line_no_truncate BEFORE TRUNCATE ON journal_line FOR EACH STATEMENT EXECUTE FUNCTION questline_ledger_immutable();
