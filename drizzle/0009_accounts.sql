-- Accounts (contract §11). One operator account is created here; migration 0010 gives
-- every contact, domain, host, zone and event a sponsoring account, by default this one,
-- so an installation that never thinks about accounts keeps working unchanged (and
-- `npm start` acts as it). Tokens gain their account (existing ones: the operator's), the
-- token that minted them and their restrictions; token names are unique per account.
CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`status` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_name_unique` ON `accounts` (`name`);--> statement-breakpoint
INSERT INTO `accounts` (`id`, `name`, `role`, `status`, `version`, `created_at`, `updated_at`)
VALUES ('acc_00000000000000000000000000', 'Operator', 'operator', 'active', 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));--> statement-breakpoint
DROP INDEX `api_tokens_name_unique`;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `account_id` text DEFAULT 'acc_00000000000000000000000000' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `parent_id` text;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `zones` text;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `domains` text;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `records` text;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `allowed_ips` text;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `expires_at` text;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `last_used_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_account_name_unique` ON `api_tokens` (`account_id`,`name`);--> statement-breakpoint
CREATE INDEX `api_tokens_account_idx` ON `api_tokens` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `api_tokens_parent_idx` ON `api_tokens` (`parent_id`);