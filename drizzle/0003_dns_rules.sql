-- DNS rules the database itself keeps, so that concurrent writers cannot break them
-- between a handler's check and its write (the handler checks first for a clear message).
-- RFC 1034 §3.6.2 / RFC 2181 §10.1: a CNAME is alone at its owner name.
CREATE TRIGGER records_cname_alone_insert BEFORE INSERT ON records
WHEN EXISTS (
  SELECT 1 FROM records r
  WHERE r.zone_id = NEW.zone_id AND r.name = NEW.name
    AND (NEW.type = 'CNAME' OR r.type = 'CNAME')
)
BEGIN SELECT RAISE(ABORT, 'rrset_conflict'); END;
--> statement-breakpoint
CREATE TRIGGER records_cname_alone_update BEFORE UPDATE OF name, type ON records
WHEN EXISTS (
  SELECT 1 FROM records r
  WHERE r.zone_id = NEW.zone_id AND r.name = NEW.name AND r.id <> NEW.id
    AND (NEW.type = 'CNAME' OR r.type = 'CNAME')
)
BEGIN SELECT RAISE(ABORT, 'rrset_conflict'); END;
--> statement-breakpoint
-- The apex keeps at least one NS record while the zone exists (a zone's own deletion
-- removes its records after the zone row, so it is not held back).
CREATE TRIGGER records_apex_ns_kept_delete AFTER DELETE ON records
WHEN OLD.type = 'NS' AND OLD.name = '@'
  AND EXISTS (SELECT 1 FROM zones z WHERE z.id = OLD.zone_id)
  AND NOT EXISTS (SELECT 1 FROM records r WHERE r.zone_id = OLD.zone_id AND r.name = '@' AND r.type = 'NS')
BEGIN SELECT RAISE(ABORT, 'apex_ns_required'); END;
--> statement-breakpoint
CREATE TRIGGER records_apex_ns_kept_update AFTER UPDATE OF name, type ON records
WHEN OLD.type = 'NS' AND OLD.name = '@'
  AND NOT EXISTS (SELECT 1 FROM records r WHERE r.zone_id = OLD.zone_id AND r.name = '@' AND r.type = 'NS')
BEGIN SELECT RAISE(ABORT, 'apex_ns_required'); END;
--> statement-breakpoint
-- A zone's record_count follows its records in the same transaction as every write,
-- imports included, without a COUNT over the zone.
CREATE TRIGGER records_count_insert AFTER INSERT ON records
BEGIN UPDATE zones SET record_count = record_count + 1 WHERE id = NEW.zone_id; END;
--> statement-breakpoint
CREATE TRIGGER records_count_delete AFTER DELETE ON records
BEGIN UPDATE zones SET record_count = record_count - 1 WHERE id = OLD.zone_id; END;
