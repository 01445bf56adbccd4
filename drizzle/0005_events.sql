CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`at` text NOT NULL,
	`actor` text NOT NULL,
	`resource_type` text NOT NULL,
	`resource_id` text NOT NULL,
	`operation` text NOT NULL,
	`before` text,
	`after` text
);
--> statement-breakpoint
CREATE INDEX `events_resource_idx` ON `events` (`resource_id`,`id`);--> statement-breakpoint
CREATE INDEX `events_type_idx` ON `events` (`resource_type`,`id`);--> statement-breakpoint
CREATE INDEX `events_operation_idx` ON `events` (`operation`,`id`);--> statement-breakpoint
CREATE INDEX `events_actor_idx` ON `events` (`actor`,`id`);