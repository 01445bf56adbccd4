-- Webhooks count toward the account's webhooks quota (docs/safety.md, "Quotas"), kept like
-- the other counts of drizzle/0024_account_quotas.sql.
UPDATE `account_usage` SET `webhooks` = (SELECT count(*) FROM `webhooks` w WHERE w.`account_id` = `account_usage`.`account_id`);--> statement-breakpoint
CREATE TRIGGER `usage_webhooks_insert` AFTER INSERT ON `webhooks`
BEGIN UPDATE `account_usage` SET `webhooks` = `webhooks` + 1 WHERE `account_id` = NEW.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_webhooks_delete` AFTER DELETE ON `webhooks`
BEGIN UPDATE `account_usage` SET `webhooks` = `webhooks` - 1 WHERE `account_id` = OLD.`account_id`; END;
