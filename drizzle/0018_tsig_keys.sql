-- TSIG keys (RFC 8945) as an account's resource, declared secondaries of a zone, and the
-- staging area of DNS UPDATE (RFC 2136) transactions that PowerDNS runs through the
-- remote backend (docs/dns-update.md).
CREATE TABLE `tsig_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text DEFAULT 'acc_00000000000000000000000000' NOT NULL,
	`name` text NOT NULL,
	`algorithm` text NOT NULL,
	`secret_sealed` text NOT NULL,
	`allow` text NOT NULL,
	`zones` text NOT NULL,
	`records` text,
	`expires_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tsig_keys_name_unique` ON `tsig_keys` (`name`);--> statement-breakpoint
CREATE INDEX `tsig_keys_account_idx` ON `tsig_keys` (`account_id`,`id`);--> statement-breakpoint
CREATE TRIGGER tsig_keys_version_guard BEFORE UPDATE OF version ON tsig_keys
WHEN NEW.version <> OLD.version + 1 BEGIN SELECT RAISE(ABORT, 'version_conflict'); END;
--> statement-breakpoint
-- The one key per zone that may UPDATE it: PowerDNS does not tell its backend which key
-- signed an update, so the zone's update key is the one that did.
CREATE TABLE `tsig_update_zones` (
	`account_id` text NOT NULL,
	`zone` text NOT NULL,
	`key_id` text NOT NULL REFERENCES `tsig_keys`(`id`) ON DELETE CASCADE,
	PRIMARY KEY(`account_id`, `zone`)
);
--> statement-breakpoint
CREATE INDEX `tsig_update_zones_key_idx` ON `tsig_update_zones` (`key_id`);--> statement-breakpoint
ALTER TABLE `zones` ADD `secondaries` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
CREATE TABLE `dns_update_transactions` (
	`trxid` integer PRIMARY KEY NOT NULL,
	`zone_id` text NOT NULL,
	`started_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dns_update_transactions_zone_idx` ON `dns_update_transactions` (`zone_id`);--> statement-breakpoint
CREATE TABLE `dns_update_operations` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trxid` integer NOT NULL,
	`kind` text NOT NULL,
	`owner` text NOT NULL,
	`type` text NOT NULL,
	`records` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dns_update_operations_trx_idx` ON `dns_update_operations` (`trxid`,`seq`);
