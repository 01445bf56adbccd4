-- A customer's event filters (GET /v1/events?operation=…, ?type=…, ?token=…) read through
-- the visibility layer (src/db/visibility.ts), which adds `account_id = ?`: with only the
-- single-column indexes SQLite walks either every account's events of that operation or the
-- account's whole history, and filters the rest row by row. These ranges hold exactly the
-- account's events of one kind in commit order, so a page reads the rows it answers and no
-- more, however long the account's history or anyone else's. (`since` needs none: the walk
-- starts at a sequence number, and events_account_idx (account_id, seq) serves it.) Written by hand (drizzle-kit
-- generates them from src/db/schema.ts the same way).
CREATE INDEX IF NOT EXISTS `events_account_operation_idx` ON `events` (`account_id`, `operation`, `seq`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `events_account_type_idx` ON `events` (`account_id`, `resource_type`, `seq`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `events_account_actor_idx` ON `events` (`account_id`, `actor`, `seq`);
