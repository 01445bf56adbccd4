-- Webhooks (docs/webhooks.md): where an account's events are POSTed, signed per Standard
-- Webhooks, at least once. The events table is the outbox: a webhook's `cursor_seq` is
-- how far along `events.seq` (commit order) it has been dealt with, so what it is owed is
-- every matching event after it, whatever crashed or restarted in between.
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text DEFAULT 'acc_00000000000000000000000000' NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`event_types` text,
	`enabled` integer NOT NULL,
	`disabled_reason` text,
	`secret_sealed` text NOT NULL,
	`previous_secret_sealed` text,
	`previous_secret_expires_at` text,
	`loopback` integer DEFAULT false NOT NULL,
	`api_host` text NOT NULL,
	`cursor_seq` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`failing_since` text,
	`lease_id` text,
	`lease_until` integer,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhooks_account_idx` ON `webhooks` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhooks_enabled_idx` ON `webhooks` (`enabled`,`id`);--> statement-breakpoint
-- Every write to a webhook raises its version: what If-Match compares (as 0002_version_guards does for the other tables).
CREATE TRIGGER `webhooks_version_guard` BEFORE UPDATE OF `version` ON `webhooks`
WHEN NEW.`version` <> OLD.`version` + 1
BEGIN
	SELECT RAISE(ABORT, 'version_conflict');
END;--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`kind` text NOT NULL,
	`message_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`at` text NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`error` text,
	`outcome` text NOT NULL,
	`next_attempt_at` text,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_id_unique` ON `webhook_deliveries` (`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`seq`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_at_idx` ON `webhook_deliveries` (`at`);--> statement-breakpoint
CREATE TABLE `webhook_dispatch` (
	`id` integer PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `webhook_dispatch` (`id`, `seq`) SELECT 1, coalesce(max(`seq`), 0) FROM `events`;
