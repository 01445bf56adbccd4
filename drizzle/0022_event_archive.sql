-- The audit trail's archive (docs/capacity.md): events older than the hot window
-- (EVENT_HOT_DAYS) move from D1 to R2, as gzip'd newline-delimited JSON objects, one
-- object per account, day and batch. This table is the archive's index: one row per
-- object, written in the same D1 batch that deletes the object's events, so an event is
-- always in exactly one place (this database, or one object this table names).
--
-- `id` is `arc_` and the ULID of the object's first event: deterministic, so two runs that
-- archive the same events name the same object (and R2 keeps only the first put). Rows are
-- owned like events (src/db/visibility.ts): a customer sees its own account's objects.
-- `last_seq` is the largest `events.seq` the object holds: a cursor of the events list
-- standing before it was overtaken by the archive (410 gone).
CREATE TABLE `event_archives` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`key` text NOT NULL,
	`first_event` text NOT NULL,
	`last_event` text NOT NULL,
	`first_seq` integer NOT NULL,
	`last_seq` integer NOT NULL,
	`count` integer NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `event_archives_key_unique` ON `event_archives` (`key`);--> statement-breakpoint
CREATE INDEX `event_archives_account_idx` ON `event_archives` (`account_id`,`first_seq`);--> statement-breakpoint
CREATE INDEX `event_archives_account_last_seq_idx` ON `event_archives` (`account_id`,`last_seq`);--> statement-breakpoint
CREATE INDEX `event_archives_first_seq_idx` ON `event_archives` (`first_seq`);--> statement-breakpoint
CREATE INDEX `event_archives_last_seq_idx` ON `event_archives` (`last_seq`);
