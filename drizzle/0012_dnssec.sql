CREATE TABLE `zone_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`zone_id` text NOT NULL,
	`key_tag` integer NOT NULL,
	`algorithm` integer NOT NULL,
	`flags` integer NOT NULL,
	`public_key` text NOT NULL,
	`private_key_sealed` text NOT NULL,
	`active` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`zone_id`) REFERENCES `zones`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `zone_keys_active_unique` ON `zone_keys` (`zone_id`) WHERE active = 1;--> statement-breakpoint
CREATE INDEX `zone_keys_zone_idx` ON `zone_keys` (`zone_id`,`id`);