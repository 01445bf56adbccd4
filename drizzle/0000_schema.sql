CREATE TABLE `contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`organization` text,
	`email` text NOT NULL,
	`email_key` text NOT NULL,
	`phone` text,
	`fax` text,
	`street` text NOT NULL,
	`city` text,
	`state` text,
	`postal_code` text,
	`country_code` text,
	`privacy` integer NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contacts_email_idx` ON `contacts` (`email_key`,`id`);--> statement-breakpoint
CREATE TABLE `domain_nameservers` (
	`domain_id` text NOT NULL,
	`host_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`domain_id`, `host_id`),
	FOREIGN KEY (`domain_id`) REFERENCES `domains`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`host_id`) REFERENCES `hosts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `domain_nameservers_host_idx` ON `domain_nameservers` (`host_id`,`domain_id`);--> statement-breakpoint
CREATE TABLE `domains` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`extension_id` text NOT NULL,
	`repository_id` text NOT NULL,
	`registrant_id` text,
	`admin_id` text,
	`tech_id` text,
	`billing_id` text,
	`statuses` text NOT NULL,
	`auth_info` text NOT NULL,
	`auto_renew` integer NOT NULL,
	`expires_at` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`extension_id`) REFERENCES `extensions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`repository_id`) REFERENCES `repositories`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`registrant_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`admin_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tech_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`billing_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `domains_name_unique` ON `domains` (`name`);--> statement-breakpoint
CREATE INDEX `domains_extension_idx` ON `domains` (`extension_id`,`id`);--> statement-breakpoint
CREATE INDEX `domains_repository_idx` ON `domains` (`repository_id`,`id`);--> statement-breakpoint
CREATE INDEX `domains_registrant_idx` ON `domains` (`registrant_id`,`id`);--> statement-breakpoint
CREATE INDEX `domains_admin_idx` ON `domains` (`admin_id`,`id`);--> statement-breakpoint
CREATE INDEX `domains_tech_idx` ON `domains` (`tech_id`,`id`);--> statement-breakpoint
CREATE INDEX `domains_billing_idx` ON `domains` (`billing_id`,`id`);--> statement-breakpoint
CREATE INDEX `domains_expires_idx` ON `domains` (`expires_at`,`id`);--> statement-breakpoint
CREATE TABLE `extensions` (
	`id` text PRIMARY KEY NOT NULL,
	`unicode_name` text NOT NULL,
	`type` text NOT NULL,
	`repository_id` text NOT NULL,
	`period_min` integer NOT NULL,
	`period_max` integer NOT NULL,
	`grace_add` integer NOT NULL,
	`grace_renew` integer NOT NULL,
	`grace_auto_renew` integer NOT NULL,
	`grace_transfer` integer NOT NULL,
	`grace_redemption` integer NOT NULL,
	`grace_pending_delete` integer NOT NULL,
	`nameservers_min` integer NOT NULL,
	`nameservers_max` integer NOT NULL,
	`idn` integer NOT NULL,
	`dnssec` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`repository_id`) REFERENCES `repositories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `extensions_repository_idx` ON `extensions` (`repository_id`,`id`);--> statement-breakpoint
CREATE TABLE `host_addresses` (
	`host_id` text NOT NULL,
	`address` text NOT NULL,
	PRIMARY KEY(`host_id`, `address`),
	FOREIGN KEY (`host_id`) REFERENCES `hosts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `host_addresses_address_idx` ON `host_addresses` (`address`,`host_id`);--> statement-breakpoint
CREATE TABLE `hosts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`reversed_name` text NOT NULL,
	`domain_id` text,
	`addresses` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`domain_id`) REFERENCES `domains`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hosts_name_unique` ON `hosts` (`name`);--> statement-breakpoint
CREATE INDEX `hosts_reversed_name_idx` ON `hosts` (`reversed_name`);--> statement-breakpoint
CREATE INDEX `hosts_domain_idx` ON `hosts` (`domain_id`,`id`);--> statement-breakpoint
CREATE TABLE `records` (
	`id` text PRIMARY KEY NOT NULL,
	`zone_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`content` text NOT NULL,
	`ttl` integer NOT NULL,
	`comment` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`zone_id`) REFERENCES `zones`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `records_identity_unique` ON `records` (`zone_id`,`name`,`type`,`content`);--> statement-breakpoint
CREATE INDEX `records_zone_idx` ON `records` (`zone_id`,`id`);--> statement-breakpoint
CREATE INDEX `records_type_idx` ON `records` (`type`,`id`);--> statement-breakpoint
CREATE INDEX `records_name_idx` ON `records` (`name`,`id`);--> statement-breakpoint
CREATE TABLE `repositories` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`roid_suffix` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `zones` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`default_ttl` integer NOT NULL,
	`soa_mname` text NOT NULL,
	`soa_rname` text NOT NULL,
	`soa_serial` integer NOT NULL,
	`soa_refresh` integer NOT NULL,
	`soa_retry` integer NOT NULL,
	`soa_expire` integer NOT NULL,
	`soa_minimum` integer NOT NULL,
	`record_count` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `zones_name_unique` ON `zones` (`name`);