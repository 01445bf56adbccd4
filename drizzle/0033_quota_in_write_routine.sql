-- Quotas checked by the write routine itself (docs/safety.md, "Quotas"; src/db/quotas.ts):
-- every batch src/db/write.ts commits ends with one statement that refuses the batch when
-- a count it raised now passes the account's limit, so no writer can leave the check out.
--
-- The first change of an account's counts in a batch (by the counting triggers of 0024,
-- 0025, 0026) notes what the account held before it: `counts_before`, a JSON array of its
-- counts in the order zones, records, domains, contacts, hosts, tokens, tsig_keys,
-- webhooks (src/registry/quotas.ts QUOTA_KINDS). The routine's last statement reads the rows
-- so noted (the partial index below holds only them: the accounts the batch touched), sets
-- `over_quota` to the first kind whose count is above both what it was before the batch and
-- its limit, and clears the note. A count that fell or stayed is never refused: an account
-- over a lowered limit still deletes and edits, and a batch that deletes as many as it adds
-- passes. The note is written once per account and batch, not once per change: a batch of
-- a thousand records moves the count a thousand times and writes the note once.
--
-- Setting `over_quota` aborts the batch with `quota_exceeded:<kind>:<account id>` (one
-- trigger for every kind; RAISE takes an expression since SQLite 3.47), so the whole batch
-- rolls back and the writer knows which account and which limit.
-- Written by hand: drizzle-kit generates neither triggers nor partial indexes.
ALTER TABLE `account_usage` ADD `counts_before` text;--> statement-breakpoint
CREATE INDEX `account_usage_in_batch` ON `account_usage` (`account_id`) WHERE `counts_before` IS NOT NULL;--> statement-breakpoint
DROP TRIGGER `account_usage_over_zones`;--> statement-breakpoint
DROP TRIGGER `account_usage_over_records`;--> statement-breakpoint
DROP TRIGGER `account_usage_over_domains`;--> statement-breakpoint
DROP TRIGGER `account_usage_over_contacts`;--> statement-breakpoint
DROP TRIGGER `account_usage_over_hosts`;--> statement-breakpoint
DROP TRIGGER `account_usage_over_tokens`;--> statement-breakpoint
DROP TRIGGER `account_usage_over_tsig_keys`;--> statement-breakpoint
DROP TRIGGER `account_usage_over_webhooks`;--> statement-breakpoint
CREATE TRIGGER `account_usage_over_quota` BEFORE UPDATE OF `over_quota` ON `account_usage` WHEN NEW.`over_quota` IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'quota_exceeded:' || NEW.`over_quota` || ':' || NEW.`account_id`); END;--> statement-breakpoint
-- The note: once, on the first change of a count while there is none (OLD holds the counts
-- before that change). Its own update sets no count, so it fires nothing more.
CREATE TRIGGER `account_usage_note_before` AFTER UPDATE OF `zones`, `records`, `domains`, `contacts`, `hosts`, `tokens`, `tsig_keys`, `webhooks` ON `account_usage`
WHEN OLD.`counts_before` IS NULL AND NEW.`counts_before` IS NULL
BEGIN
  UPDATE `account_usage` SET `counts_before` = json_array(OLD.`zones`, OLD.`records`, OLD.`domains`, OLD.`contacts`, OLD.`hosts`, OLD.`tokens`, OLD.`tsig_keys`, OLD.`webhooks`)
  WHERE `account_id` = NEW.`account_id`;
END;
