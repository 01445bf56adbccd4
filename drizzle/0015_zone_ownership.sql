-- Names are owned (docs/accounts.md, src/registry/zone-ownership.ts): no zone inside or
-- above another account's zone, none at or inside a domain another account registered
-- here, no customer's zone at or above an extension of the catalog.
--
-- zones.reversed_name: the zone's labels in reverse order (`alice.example.org` →
-- `org.example.alice`, as hosts.reversed_name), so that the zones below a zone are one
-- range of zones_reversed_name_idx (the keys from `org.example.alice.` to
-- `org.example.alice/`): how a zone create finds another account's zone below the new
-- one, and how the DNS backend finds that a zone was made above another account's.
ALTER TABLE `zones` ADD `reversed_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The zones already stored: each name split at its dots, the labels prepended in turn.
WITH RECURSIVE split(id, rest, reversed) AS (
  SELECT id, name || '.', '' FROM zones
  UNION ALL
  SELECT id, substr(rest, instr(rest, '.') + 1),
         CASE reversed WHEN '' THEN substr(rest, 1, instr(rest, '.') - 1) ELSE substr(rest, 1, instr(rest, '.') - 1) || '.' || reversed END
    FROM split WHERE rest <> ''
)
UPDATE zones SET reversed_name = split.reversed FROM split WHERE split.id = zones.id AND split.rest = '';--> statement-breakpoint
CREATE INDEX `zones_reversed_name_idx` ON `zones` (`reversed_name`);--> statement-breakpoint
-- Every write sets reversed_name with name. A write that forgot it (the '' default) is
-- refused: the reversed name is exactly as long as the name.
CREATE TRIGGER zones_reversed_name_insert BEFORE INSERT ON zones
WHEN length(NEW.reversed_name) <> length(NEW.name)
BEGIN SELECT RAISE(ABORT, 'zones.reversed_name does not match zones.name'); END;--> statement-breakpoint
CREATE TRIGGER zones_reversed_name_update BEFORE UPDATE OF name, reversed_name ON zones
WHEN length(NEW.reversed_name) <> length(NEW.name)
BEGIN SELECT RAISE(ABORT, 'zones.reversed_name does not match zones.name'); END;--> statement-breakpoint
-- The zones that break the rules, one row per rule broken and per name that blocks it:
-- zones made before the rules existed, and zones a transfer left in the losing account
-- (the domain's names are the gaining account's). The DNS backend serves none of them
-- (src/resources/pdns/queries.ts asks the same questions of one zone at a time), and the
-- operator decides what becomes of each: `npm run zone-conflicts` lists them.
--   reserved_name: a customer's zone at or above an extension of the catalog, or at a top-level name;
--   in_domain:     a zone at or inside a domain another account registered here;
--   inside_zone:   a zone made inside another account's zone that was there first;
--   above_zone:    a zone made above another account's zone that was there first.
-- "First": the earlier created_at, then the smaller id (ids are time-ordered ULIDs).
CREATE VIEW zone_ownership_conflicts AS
WITH RECURSIVE up(zone_id, name) AS (
  SELECT id, name FROM zones
  UNION ALL
  SELECT zone_id, substr(name, instr(name, '.') + 1) FROM up WHERE instr(name, '.') > 0
)
SELECT z.id AS zone_id, z.name AS zone, z.account_id, 'reserved_name' AS rule, NULL AS other_account_id, NULL AS other_name
  FROM zones z JOIN accounts a ON a.id = z.account_id
 WHERE a.role = 'customer'
   AND (instr(z.name, '.') = 0 OR EXISTS (SELECT 1 FROM extensions e WHERE e.id = z.name OR substr(e.id, -length(z.name) - 1) = '.' || z.name))
UNION ALL
SELECT z.id, z.name, z.account_id, 'in_domain', d.account_id, d.name
  FROM up JOIN zones z ON z.id = up.zone_id JOIN domains d ON d.name = up.name
 WHERE d.account_id <> z.account_id
UNION ALL
SELECT z.id, z.name, z.account_id, 'inside_zone', p.account_id, p.name
  FROM up JOIN zones z ON z.id = up.zone_id JOIN zones p ON p.name = up.name
 WHERE p.id <> z.id AND p.account_id <> z.account_id
   AND (p.created_at < z.created_at OR (p.created_at = z.created_at AND p.id < z.id))
UNION ALL
SELECT p.id, p.name, p.account_id, 'above_zone', b.account_id, b.name
  FROM up JOIN zones b ON b.id = up.zone_id JOIN zones p ON p.name = up.name
 WHERE p.id <> b.id AND p.account_id <> b.account_id
   AND (b.created_at < p.created_at OR (b.created_at = p.created_at AND b.id < p.id));
