-- Quotas per account (docs/safety.md, "Quotas"): what an account holds is counted here, by
-- triggers in the same transaction as every write, so a create's quota check reads one row
-- (not a count over the account's objects) and holds under concurrency: a create's batch
-- ends with a guard (src/db/quotas.ts) that sets `over_quota` when the count now passes the
-- limit, and the triggers at the end of this file turn that into an abort naming the
-- quota, so the whole batch rolls back. `accounts.limits` holds an operator's overrides
-- (a JSON object); the defaults are the Worker's configuration (wrangler.toml LIMIT_*).
-- Written by hand: drizzle-kit generates neither triggers nor backfills.
ALTER TABLE `accounts` ADD `limits` text;--> statement-breakpoint
CREATE TABLE `account_usage` (
	`account_id` text PRIMARY KEY NOT NULL REFERENCES `accounts`(`id`) ON UPDATE CASCADE ON DELETE CASCADE,
	`zones` integer DEFAULT 0 NOT NULL,
	`records` integer DEFAULT 0 NOT NULL,
	`domains` integer DEFAULT 0 NOT NULL,
	`contacts` integer DEFAULT 0 NOT NULL,
	`hosts` integer DEFAULT 0 NOT NULL,
	`tokens` integer DEFAULT 0 NOT NULL,
	`tsig_keys` integer DEFAULT 0 NOT NULL,
	`webhooks` integer DEFAULT 0 NOT NULL,
	`over_quota` text
);--> statement-breakpoint
INSERT INTO `account_usage` (`account_id`, `zones`, `records`, `domains`, `contacts`, `hosts`, `tokens`)
SELECT a.`id`,
  (SELECT count(*) FROM `zones` z WHERE z.`account_id` = a.`id`),
  (SELECT coalesce(sum(z.`record_count`), 0) FROM `zones` z WHERE z.`account_id` = a.`id`),
  (SELECT count(*) FROM `domains` d WHERE d.`account_id` = a.`id`),
  (SELECT count(*) FROM `contacts` c WHERE c.`account_id` = a.`id`),
  (SELECT count(*) FROM `hosts` h WHERE h.`account_id` = a.`id`),
  (SELECT count(*) FROM `api_tokens` t WHERE t.`account_id` = a.`id` AND t.`revoked_at` IS NULL)
FROM `accounts` a;--> statement-breakpoint
CREATE TRIGGER `account_usage_new` AFTER INSERT ON `accounts`
BEGIN INSERT INTO `account_usage` (`account_id`) VALUES (NEW.`id`); END;--> statement-breakpoint
CREATE TRIGGER `usage_contacts_insert` AFTER INSERT ON `contacts`
BEGIN UPDATE `account_usage` SET `contacts` = `contacts` + 1 WHERE `account_id` = NEW.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_contacts_delete` AFTER DELETE ON `contacts`
BEGIN UPDATE `account_usage` SET `contacts` = `contacts` - 1 WHERE `account_id` = OLD.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_contacts_move` AFTER UPDATE OF `account_id` ON `contacts` WHEN NEW.`account_id` <> OLD.`account_id`
BEGIN
  UPDATE `account_usage` SET `contacts` = `contacts` - 1 WHERE `account_id` = OLD.`account_id`;
  UPDATE `account_usage` SET `contacts` = `contacts` + 1 WHERE `account_id` = NEW.`account_id`;
END;--> statement-breakpoint
CREATE TRIGGER `usage_domains_insert` AFTER INSERT ON `domains`
BEGIN UPDATE `account_usage` SET `domains` = `domains` + 1 WHERE `account_id` = NEW.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_domains_delete` AFTER DELETE ON `domains`
BEGIN UPDATE `account_usage` SET `domains` = `domains` - 1 WHERE `account_id` = OLD.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_domains_move` AFTER UPDATE OF `account_id` ON `domains` WHEN NEW.`account_id` <> OLD.`account_id`
BEGIN
  UPDATE `account_usage` SET `domains` = `domains` - 1 WHERE `account_id` = OLD.`account_id`;
  UPDATE `account_usage` SET `domains` = `domains` + 1 WHERE `account_id` = NEW.`account_id`;
END;--> statement-breakpoint
CREATE TRIGGER `usage_hosts_insert` AFTER INSERT ON `hosts`
BEGIN UPDATE `account_usage` SET `hosts` = `hosts` + 1 WHERE `account_id` = NEW.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_hosts_delete` AFTER DELETE ON `hosts`
BEGIN UPDATE `account_usage` SET `hosts` = `hosts` - 1 WHERE `account_id` = OLD.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_hosts_move` AFTER UPDATE OF `account_id` ON `hosts` WHEN NEW.`account_id` <> OLD.`account_id`
BEGIN
  UPDATE `account_usage` SET `hosts` = `hosts` - 1 WHERE `account_id` = OLD.`account_id`;
  UPDATE `account_usage` SET `hosts` = `hosts` + 1 WHERE `account_id` = NEW.`account_id`;
END;--> statement-breakpoint
CREATE TRIGGER `usage_zones_insert` AFTER INSERT ON `zones`
BEGIN UPDATE `account_usage` SET `zones` = `zones` + 1, `records` = `records` + NEW.`record_count` WHERE `account_id` = NEW.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_zones_delete` AFTER DELETE ON `zones`
BEGIN UPDATE `account_usage` SET `zones` = `zones` - 1, `records` = `records` - OLD.`record_count` WHERE `account_id` = OLD.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_zones_move` AFTER UPDATE OF `account_id` ON `zones` WHEN NEW.`account_id` <> OLD.`account_id`
BEGIN
  UPDATE `account_usage` SET `zones` = `zones` - 1, `records` = `records` - OLD.`record_count` WHERE `account_id` = OLD.`account_id`;
  UPDATE `account_usage` SET `zones` = `zones` + 1, `records` = `records` + NEW.`record_count` WHERE `account_id` = NEW.`account_id`;
END;--> statement-breakpoint
-- A zone's records: its record_count follows them (drizzle/0003_dns_rules.sql).
CREATE TRIGGER `usage_records_count` AFTER UPDATE OF `record_count` ON `zones` WHEN NEW.`record_count` <> OLD.`record_count` AND NEW.`account_id` = OLD.`account_id`
BEGIN UPDATE `account_usage` SET `records` = `records` + NEW.`record_count` - OLD.`record_count` WHERE `account_id` = NEW.`account_id`; END;--> statement-breakpoint
-- Tokens count while they are not revoked.
CREATE TRIGGER `usage_tokens_insert` AFTER INSERT ON `api_tokens` WHEN NEW.`revoked_at` IS NULL
BEGIN UPDATE `account_usage` SET `tokens` = `tokens` + 1 WHERE `account_id` = NEW.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_tokens_revoke` AFTER UPDATE OF `revoked_at` ON `api_tokens` WHEN OLD.`revoked_at` IS NULL AND NEW.`revoked_at` IS NOT NULL
BEGIN UPDATE `account_usage` SET `tokens` = `tokens` - 1 WHERE `account_id` = OLD.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `usage_tokens_delete` AFTER DELETE ON `api_tokens` WHEN OLD.`revoked_at` IS NULL
BEGIN UPDATE `account_usage` SET `tokens` = `tokens` - 1 WHERE `account_id` = OLD.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `account_usage_over_zones` BEFORE UPDATE OF `over_quota` ON `account_usage` WHEN NEW.`over_quota` = 'zones'
BEGIN SELECT RAISE(ABORT, 'quota_exceeded:zones'); END;--> statement-breakpoint
CREATE TRIGGER `account_usage_over_records` BEFORE UPDATE OF `over_quota` ON `account_usage` WHEN NEW.`over_quota` = 'records'
BEGIN SELECT RAISE(ABORT, 'quota_exceeded:records'); END;--> statement-breakpoint
CREATE TRIGGER `account_usage_over_domains` BEFORE UPDATE OF `over_quota` ON `account_usage` WHEN NEW.`over_quota` = 'domains'
BEGIN SELECT RAISE(ABORT, 'quota_exceeded:domains'); END;--> statement-breakpoint
CREATE TRIGGER `account_usage_over_contacts` BEFORE UPDATE OF `over_quota` ON `account_usage` WHEN NEW.`over_quota` = 'contacts'
BEGIN SELECT RAISE(ABORT, 'quota_exceeded:contacts'); END;--> statement-breakpoint
CREATE TRIGGER `account_usage_over_hosts` BEFORE UPDATE OF `over_quota` ON `account_usage` WHEN NEW.`over_quota` = 'hosts'
BEGIN SELECT RAISE(ABORT, 'quota_exceeded:hosts'); END;--> statement-breakpoint
CREATE TRIGGER `account_usage_over_tokens` BEFORE UPDATE OF `over_quota` ON `account_usage` WHEN NEW.`over_quota` = 'tokens'
BEGIN SELECT RAISE(ABORT, 'quota_exceeded:tokens'); END;--> statement-breakpoint
CREATE TRIGGER `account_usage_over_tsig_keys` BEFORE UPDATE OF `over_quota` ON `account_usage` WHEN NEW.`over_quota` = 'tsig_keys'
BEGIN SELECT RAISE(ABORT, 'quota_exceeded:tsig_keys'); END;--> statement-breakpoint
CREATE TRIGGER `account_usage_over_webhooks` BEFORE UPDATE OF `over_quota` ON `account_usage` WHEN NEW.`over_quota` = 'webhooks'
BEGIN SELECT RAISE(ABORT, 'quota_exceeded:webhooks'); END;
