-- questline_ledger_immutable: its current source. A change here is installed by a migration that
-- `npm run db:functions` writes; a test checks that the migrations install exactly this.
CREATE OR REPLACE FUNCTION questline_ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'journal entries and lines are immutable: post a correcting entry instead' USING ERRCODE = 'QL002';
END $$;
