-- The audit trail gets a commit-ordered key, and loses every `auth_info` it ever held.
--
-- `seq` is assigned by the database in the write's own batch (src/db/events.ts: one more
-- than the largest so far; D1 runs one write at a time), so seq order is commit order.
-- The list used to be ordered by `id`, a ULID minted in the Worker before the write
-- committed: two isolates could commit in the other order than their ids, and a reader
-- that had already read past the later id never saw the earlier one.
--
-- The existing events are numbered by the old table's rowid: rows were only ever inserted
-- (never deleted), each with the next rowid, so rowid order is their commit order.
--
-- A domain's `auth_info` (its transfer secret) was copied into `before` / `after` of
-- every domain event, where read tokens could read old and rotated values for ever: it is
-- removed from every row as the rows are copied (json_remove of a missing key, or of
-- null, leaves the value as it was).
CREATE TABLE `__new_events` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`at` text NOT NULL,
	`actor` text NOT NULL,
	`resource_type` text NOT NULL,
	`resource_id` text NOT NULL,
	`operation` text NOT NULL,
	`before` text,
	`after` text
);
--> statement-breakpoint
INSERT INTO `__new_events`("seq", "id", "at", "actor", "resource_type", "resource_id", "operation", "before", "after")
SELECT rowid, "id", "at", "actor", "resource_type", "resource_id", "operation", json_remove("before", '$.auth_info'), json_remove("after", '$.auth_info')
FROM `events` ORDER BY rowid;--> statement-breakpoint
DROP TABLE `events`;--> statement-breakpoint
ALTER TABLE `__new_events` RENAME TO `events`;--> statement-breakpoint
CREATE UNIQUE INDEX `events_id_unique` ON `events` (`id`);--> statement-breakpoint
CREATE INDEX `events_resource_idx` ON `events` (`resource_id`,`seq`);--> statement-breakpoint
CREATE INDEX `events_type_idx` ON `events` (`resource_type`,`seq`);--> statement-breakpoint
CREATE INDEX `events_operation_idx` ON `events` (`operation`,`seq`);--> statement-breakpoint
CREATE INDEX `events_actor_idx` ON `events` (`actor`,`seq`);--> statement-breakpoint
CREATE INDEX `events_at_idx` ON `events` (`at`);
