-- The registry is the authority, its last gaps.
--
-- A poll message is never looped on (docs/registries.md, "Poll messages"): each hand-over of a
-- message counts (`attempts`, bumped when it arrives, given back when it waited for the
-- registry), and the summary of the last unexpected error (`last_error`: the error's kind and a
-- message without SQL text or values) is kept, so that a message whose application keeps
-- failing is kept as a `registry_message` event and acked after a bounded number of attempts.
ALTER TABLE `registry_messages` ADD COLUMN `attempts` integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE `registry_messages` ADD COLUMN `last_error` text;
--> statement-breakpoint
-- Reconciliation takes a connected repository's overdue domains first (expired here, not
-- compared with the registry since: src/db/registry-state.ts, overdueForReconciliation), most
-- overdue first: one range of this index per run.
CREATE INDEX `domains_repository_expires_idx` ON `domains` (`repository_id`, `expires_at`);
