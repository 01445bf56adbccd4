-- Ownership (contract §11): every contact, domain, host and zone gets its sponsoring
-- account (records belong to their zone's), and every event the account of its object.
-- Rows made before accounts belong to the operator account migration 0009 created, so a
-- database created before accounts keeps every object, now the operator's. The indexes
-- lead with account_id: a customer's lists read only its own rows (src/db/visibility.ts).
ALTER TABLE `contacts` ADD `account_id` text DEFAULT 'acc_00000000000000000000000000' NOT NULL;--> statement-breakpoint
CREATE INDEX `contacts_account_idx` ON `contacts` (`account_id`,`id`);--> statement-breakpoint
ALTER TABLE `domains` ADD `account_id` text DEFAULT 'acc_00000000000000000000000000' NOT NULL;--> statement-breakpoint
CREATE INDEX `domains_account_idx` ON `domains` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `domains_account_name_idx` ON `domains` (`account_id`,`name`);--> statement-breakpoint
ALTER TABLE `events` ADD `account_id` text DEFAULT 'acc_00000000000000000000000000' NOT NULL;--> statement-breakpoint
CREATE INDEX `events_account_idx` ON `events` (`account_id`,`seq`);--> statement-breakpoint
ALTER TABLE `hosts` ADD `account_id` text DEFAULT 'acc_00000000000000000000000000' NOT NULL;--> statement-breakpoint
CREATE INDEX `hosts_account_idx` ON `hosts` (`account_id`,`id`);--> statement-breakpoint
ALTER TABLE `zones` ADD `account_id` text DEFAULT 'acc_00000000000000000000000000' NOT NULL;--> statement-breakpoint
CREATE INDEX `zones_account_idx` ON `zones` (`account_id`,`id`);