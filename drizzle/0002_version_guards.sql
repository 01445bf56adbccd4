-- Optimistic concurrency: a write sets `version` to the version it read plus one. If
-- another write got there first, OLD.version has moved on and the whole D1 batch (the
-- row and everything written with it) is rolled back with `version_conflict`.
CREATE TRIGGER contacts_version_guard BEFORE UPDATE OF version ON contacts
WHEN NEW.version <> OLD.version + 1 BEGIN SELECT RAISE(ABORT, 'version_conflict'); END;
--> statement-breakpoint
CREATE TRIGGER domains_version_guard BEFORE UPDATE OF version ON domains
WHEN NEW.version <> OLD.version + 1 BEGIN SELECT RAISE(ABORT, 'version_conflict'); END;
--> statement-breakpoint
CREATE TRIGGER hosts_version_guard BEFORE UPDATE OF version ON hosts
WHEN NEW.version <> OLD.version + 1 BEGIN SELECT RAISE(ABORT, 'version_conflict'); END;
--> statement-breakpoint
CREATE TRIGGER zones_version_guard BEFORE UPDATE OF version ON zones
WHEN NEW.version <> OLD.version + 1 BEGIN SELECT RAISE(ABORT, 'version_conflict'); END;
--> statement-breakpoint
CREATE TRIGGER records_version_guard BEFORE UPDATE OF version ON records
WHEN NEW.version <> OLD.version + 1 BEGIN SELECT RAISE(ABORT, 'version_conflict'); END;
