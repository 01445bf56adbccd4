CREATE TABLE `transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`domain_id` text NOT NULL,
	`name` text NOT NULL,
	`gaining_account_id` text NOT NULL,
	`losing_account_id` text NOT NULL,
	`status` text NOT NULL,
	`period` integer NOT NULL,
	`requested_at` text NOT NULL,
	`act_by` text NOT NULL,
	`acted_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`domain_id`) REFERENCES `domains`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`gaining_account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`losing_account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `transfers_domain_idx` ON `transfers` (`domain_id`,`requested_at`);--> statement-breakpoint
CREATE INDEX `transfers_act_by_idx` ON `transfers` (`status`,`act_by`,`id`);--> statement-breakpoint
ALTER TABLE `domains` ADD `last_transfer_at` text;--> statement-breakpoint
ALTER TABLE `domains` ADD `rgp` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `domains` ADD `rgp_ends_at` text;--> statement-breakpoint
ALTER TABLE `domains` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `domains` ADD `ds` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
CREATE INDEX `domains_rgp_ends_idx` ON `domains` (`rgp_ends_at`,`id`);--> statement-breakpoint
ALTER TABLE `extensions` ADD `transfer_lock_days` integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE `extensions` ADD `pending_transfer_days` integer DEFAULT 5 NOT NULL;--> statement-breakpoint
-- Registries without a transfer lock after registration or transfer (contract §12).
UPDATE `extensions` SET `transfer_lock_days` = 0 WHERE `id` IN ('uk', 'co.uk', 'de', 'nl', 'eu', 'ch');
