-- records.owner_order: the owner name's labels reversed, joined by a space
-- (src/dns/name-order.ts ownerOrder: `leaf.ent` → `ent leaf`, the apex → ''), so that a
-- zone's names sort in canonical order (RFC 4034 §6.1) in records_owner_order_idx and
-- "is there a name below this one" is one seek of the index (the DNS backend's empty
-- non-terminal question, contract §13), not a walk of the zone's names.
ALTER TABLE `records` ADD `owner_order` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `records_owner_order_idx` ON `records` (`zone_id`,`owner_order`);--> statement-breakpoint
-- The records already stored: each name split at its dots, the labels prepended in turn.
WITH RECURSIVE split(id, rest, reversed) AS (
  SELECT id, name || '.', '' FROM records WHERE name <> '@'
  UNION ALL
  SELECT id, substr(rest, instr(rest, '.') + 1),
         CASE reversed WHEN '' THEN substr(rest, 1, instr(rest, '.') - 1) ELSE substr(rest, 1, instr(rest, '.') - 1) || ' ' || reversed END
    FROM split WHERE rest <> ''
)
UPDATE records SET owner_order = split.reversed FROM split WHERE split.id = records.id AND split.rest = '';--> statement-breakpoint
-- Every write sets owner_order with name. A write that forgot it (the '' default) is
-- refused: the key of a name is exactly as long as the name (the apex's is empty).
CREATE TRIGGER records_owner_order_insert BEFORE INSERT ON records
WHEN length(NEW.owner_order) <> CASE NEW.name WHEN '@' THEN 0 ELSE length(NEW.name) END
BEGIN SELECT RAISE(ABORT, 'records.owner_order does not match records.name'); END;--> statement-breakpoint
CREATE TRIGGER records_owner_order_update BEFORE UPDATE OF name, owner_order ON records
WHEN length(NEW.owner_order) <> CASE NEW.name WHEN '@' THEN 0 ELSE length(NEW.name) END
BEGIN SELECT RAISE(ABORT, 'records.owner_order does not match records.name'); END;
