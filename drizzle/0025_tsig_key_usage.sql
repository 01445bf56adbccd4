-- TSIG keys count toward the account's tsig_keys quota (docs/safety.md, "Quotas"), kept
-- like the other counts of drizzle/0024_account_quotas.sql.
UPDATE `account_usage` SET `tsig_keys` = (SELECT count(*) FROM `tsig_keys` k WHERE k.`account_id` = `account_usage`.`account_id`);--> statement-breakpoint
CREATE TRIGGER `usage_tsig_keys_insert` AFTER INSERT ON `tsig_keys`
BEGIN UPDATE `account_usage` SET `tsig_keys` = `tsig_keys` + 1 WHERE `account_id` = NEW.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_tsig_keys_delete` AFTER DELETE ON `tsig_keys`
BEGIN UPDATE `account_usage` SET `tsig_keys` = `tsig_keys` - 1 WHERE `account_id` = OLD.`account_id`; END;
