-- The serving tier (docs/serving.md): a hidden primary (PowerDNS on this service) NOTIFYs
-- secondaries, which learn the zones from an RFC 9432 catalog zone.
--
-- zones.notified_serial: the serial the primary last sent NOTIFY for (the remote backend's
-- setNotified); a zone whose serial differs is due a NOTIFY (getUpdatedMasters). The zones
-- already stored count as notified: a new tier learns them from the catalog, and a deploy
-- does not NOTIFY every zone at once.
ALTER TABLE `zones` ADD `notified_serial` integer;--> statement-breakpoint
UPDATE `zones` SET `notified_serial` = `soa_serial`;--> statement-breakpoint
-- Only the zones due a NOTIFY are in it: the primary's poll (about once a second) reads
-- what changed, not every zone.
CREATE INDEX `zones_unnotified_idx` ON `zones` (`soa_serial`) WHERE notified_serial IS NOT soa_serial;--> statement-breakpoint
-- The catalog zone's own SOA serial and notified serial: one row. Its serial moves (the
-- zones' YYYYMMDDnn rule, RFC 1982, from the database's UTC date) whenever a member may
-- have been added or removed: a zone created, deleted, renamed or moved to another
-- account, an account suspended or made active again. Triggers keep it, so every writer
-- (handlers, the sweep, deletes that cascade) moves it in the same transaction.
CREATE TABLE `dns_catalog` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`serial` integer NOT NULL,
	`notified_serial` integer
);--> statement-breakpoint
INSERT INTO `dns_catalog` (`id`, `serial`) VALUES (1, CAST(strftime('%Y%m%d', 'now') AS INTEGER) * 100);--> statement-breakpoint
CREATE TRIGGER dns_catalog_zone_insert AFTER INSERT ON zones
BEGIN
  UPDATE dns_catalog SET serial = CASE
    WHEN ((CAST(strftime('%Y%m%d', 'now') AS INTEGER) * 100 - serial) % 4294967296 + 4294967296) % 4294967296 BETWEEN 1 AND 2147483647
    THEN CAST(strftime('%Y%m%d', 'now') AS INTEGER) * 100 ELSE (serial + 1) % 4294967296 END;
END;--> statement-breakpoint
CREATE TRIGGER dns_catalog_zone_delete AFTER DELETE ON zones
BEGIN
  UPDATE dns_catalog SET serial = CASE
    WHEN ((CAST(strftime('%Y%m%d', 'now') AS INTEGER) * 100 - serial) % 4294967296 + 4294967296) % 4294967296 BETWEEN 1 AND 2147483647
    THEN CAST(strftime('%Y%m%d', 'now') AS INTEGER) * 100 ELSE (serial + 1) % 4294967296 END;
END;--> statement-breakpoint
CREATE TRIGGER dns_catalog_zone_moved AFTER UPDATE OF name, account_id ON zones
WHEN OLD.name IS NOT NEW.name OR OLD.account_id IS NOT NEW.account_id
BEGIN
  UPDATE dns_catalog SET serial = CASE
    WHEN ((CAST(strftime('%Y%m%d', 'now') AS INTEGER) * 100 - serial) % 4294967296 + 4294967296) % 4294967296 BETWEEN 1 AND 2147483647
    THEN CAST(strftime('%Y%m%d', 'now') AS INTEGER) * 100 ELSE (serial + 1) % 4294967296 END;
END;--> statement-breakpoint
CREATE TRIGGER dns_catalog_account_status AFTER UPDATE OF status ON accounts
WHEN OLD.status IS NOT NEW.status AND EXISTS (SELECT 1 FROM zones WHERE account_id = NEW.id)
BEGIN
  UPDATE dns_catalog SET serial = CASE
    WHEN ((CAST(strftime('%Y%m%d', 'now') AS INTEGER) * 100 - serial) % 4294967296 + 4294967296) % 4294967296 BETWEEN 1 AND 2147483647
    THEN CAST(strftime('%Y%m%d', 'now') AS INTEGER) * 100 ELSE (serial + 1) % 4294967296 END;
END;
