-- Every rule the database keeps on records is answered from the index
-- records_identity_unique (zone_id, name, type, content), so one insert costs a few index
-- steps however many records share its name. The CNAME rule of 0003 read
-- `(NEW.type = 'CNAME' OR r.type = 'CNAME')`: no index can serve that OR, so each insert
-- walked every record at its owner name, and importing N records at one name read N²/2
-- rows (20 000 records: 2·10⁸ rows, ~19 s of D1 time). Each side of the OR is now its own
-- trigger whose WHEN is an equality lookup on the index.
-- RFC 1034 §3.6.2 / RFC 2181 §10.1: a CNAME is alone at its owner name.
DROP TRIGGER IF EXISTS records_cname_alone_insert;
--> statement-breakpoint
DROP TRIGGER IF EXISTS records_cname_alone_update;
--> statement-breakpoint
-- A new CNAME needs an empty name: the first index entry at (zone_id, name) answers.
CREATE TRIGGER records_cname_alone_insert BEFORE INSERT ON records
WHEN NEW.type = 'CNAME'
  AND EXISTS (SELECT 1 FROM records r WHERE r.zone_id = NEW.zone_id AND r.name = NEW.name)
BEGIN SELECT RAISE(ABORT, 'rrset_conflict'); END;
--> statement-breakpoint
-- Any other record needs no CNAME at its name: one probe of (zone_id, name, 'CNAME').
CREATE TRIGGER records_beside_cname_insert BEFORE INSERT ON records
WHEN NEW.type <> 'CNAME'
  AND EXISTS (SELECT 1 FROM records r WHERE r.zone_id = NEW.zone_id AND r.name = NEW.name AND r.type = 'CNAME')
BEGIN SELECT RAISE(ABORT, 'rrset_conflict'); END;
--> statement-breakpoint
-- The same two rules for a record moved to another name or type; the record itself (at
-- most one row at its new name) is stepped over.
CREATE TRIGGER records_cname_alone_update BEFORE UPDATE OF name, type ON records
WHEN NEW.type = 'CNAME'
  AND EXISTS (SELECT 1 FROM records r WHERE r.zone_id = NEW.zone_id AND r.name = NEW.name AND r.id <> NEW.id)
BEGIN SELECT RAISE(ABORT, 'rrset_conflict'); END;
--> statement-breakpoint
CREATE TRIGGER records_beside_cname_update BEFORE UPDATE OF name, type ON records
WHEN NEW.type <> 'CNAME'
  AND EXISTS (SELECT 1 FROM records r WHERE r.zone_id = NEW.zone_id AND r.name = NEW.name AND r.type = 'CNAME' AND r.id <> NEW.id)
BEGIN SELECT RAISE(ABORT, 'rrset_conflict'); END;
-- Already index-driven, kept as 0003 wrote them: the apex-NS triggers probe
-- (zone_id, '@', 'NS') and the zone by its primary key; the count triggers update the
-- zone by its primary key; ON DELETE CASCADE finds a zone's records by records_zone_idx.
