-- A posting that opens many accounts at once (a reward pool paying thousands of new members)
-- checks each new journal line's account through the foreign key. A plan cached while
-- ledger_account was small scans the table for every line, which grows with each account added:
-- postings inside questline_post always plan for the values at hand.
ALTER FUNCTION questline_post(text, text, text, text, text, jsonb) SET plan_cache_mode = force_custom_plan;
