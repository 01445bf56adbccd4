-- Assertions a write makes at its turn in its D1 batch (src/db/write.ts). A guard (a rule
-- checked on what the write read, checked again at commit) and "this statement changed
-- a row" are each an INSERT … SELECT into this table of a row that is there only when
-- the assertion fails: `holds` is then 0, the CHECK refuses it, and the whole batch rolls
-- back with "CHECK constraint failed: write_assertion_holds". When the assertion holds
-- nothing is inserted, so the table stays empty.
CREATE TABLE `write_assertions` (
	`holds` integer NOT NULL,
	`rule` text NOT NULL,
	CONSTRAINT `write_assertion_holds` CHECK (`holds` = 1)
);--> statement-breakpoint
-- Transfers step their version as the other versioned tables do; the trigger refuses any
-- other step, like those of drizzle/0002_version_guards.sql.
CREATE TRIGGER `transfers_version_guard` BEFORE UPDATE OF `version` ON `transfers`
WHEN NEW.`version` <> OLD.`version` + 1 BEGIN SELECT RAISE(ABORT, 'version_conflict'); END;
