-- Delivery attempts kept a record (a pass's attempts at one webhook, or a ping) per row,
-- the attempts a JSON array of tuples, instead of a row per attempt: each delivered event
-- cost D1 a row and three index entries per webhook subscribed (src/db/schema.ts,
-- webhookDeliveryRecords; docs/webhooks.md, "Delivery"). The attempts recorded so far move
-- over, one record each, in their order; the listing shows them as before. A table of a
-- million attempts (seven days of ten webhooks at 14 000 changes a day) took 5 s here in
-- SQLite, under D1's 30 s for a statement.
-- Written by hand: migrations after 0014 are (drizzle/meta journals up to 0014).
CREATE TABLE `webhook_delivery_records` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`webhook_id` text NOT NULL,
	`kind` text NOT NULL,
	`at` text NOT NULL,
	`count` integer NOT NULL,
	`attempts` text NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `webhook_delivery_records` (`seq`, `webhook_id`, `kind`, `at`, `count`, `attempts`)
SELECT `seq`, `webhook_id`, `kind`, `at`, 1,
	json_array(json_array(`id`, `message_id`, `attempt`, `status_code`, `duration_ms`, `error`, `outcome`, `next_attempt_at`))
FROM `webhook_deliveries` ORDER BY `seq`;
--> statement-breakpoint
DROP TABLE `webhook_deliveries`;
--> statement-breakpoint
CREATE INDEX `webhook_delivery_records_webhook_idx` ON `webhook_delivery_records` (`webhook_id`,`seq`);
--> statement-breakpoint
CREATE INDEX `webhook_delivery_records_at_idx` ON `webhook_delivery_records` (`at`);
