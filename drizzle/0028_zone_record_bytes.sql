-- A zone's size as its master file writes it (docs/safety.md, "Quotas"): `record_bytes`
-- is the UTF-8 length of the zone's record lines as the export renders them
-- (src/dns/master-file/render.ts: `owner ttl IN TYPE content` and a newline, so the bytes
-- of name, ttl, type and content plus 7), kept by triggers in the same transaction as
-- every record write, as record_count is (drizzle/0003). A zone may hold at most
-- 2 000 000 such bytes (MAX_ZONE_RECORD_BYTES, src/resources/zones/master-file.ts): with
-- the $ORIGIN, $TTL and SOA lines and a signed zone's DNSKEY, CDS and CDNSKEY, its export
-- stays within the 2 MiB an import takes, so every zone the API accepts exports and
-- imports back (a signed zone keeps room for what signing adds to its export). A write
-- that would take a zone past it aborts with `zone_too_large` (the
-- app answers 422 policy_violation naming the limit); the check reads no record: O(change),
-- not O(zone). A zone already past it (none can be, but a restore could) may shrink.
-- Written by hand: drizzle-kit generates neither triggers nor backfills.
ALTER TABLE `zones` ADD `record_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `zones` SET `record_bytes` = (
  SELECT coalesce(sum(length(cast(r.`name` AS blob)) + length(cast(r.`ttl` AS text)) + length(r.`type`) + length(cast(r.`content` AS blob)) + 7), 0)
    FROM `records` r WHERE r.`zone_id` = `zones`.`id`
);--> statement-breakpoint
-- record_count and record_bytes move in one update of the zone row: an inserted or
-- deleted record costs the zone one row write, as before.
DROP TRIGGER IF EXISTS `records_count_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `records_count_delete`;--> statement-breakpoint
CREATE TRIGGER `records_count_insert` AFTER INSERT ON `records`
BEGIN
  UPDATE `zones` SET `record_count` = `record_count` + 1,
    `record_bytes` = `record_bytes` + length(cast(NEW.`name` AS blob)) + length(cast(NEW.`ttl` AS text)) + length(NEW.`type`) + length(cast(NEW.`content` AS blob)) + 7
  WHERE `id` = NEW.`zone_id`;
END;--> statement-breakpoint
CREATE TRIGGER `records_count_delete` AFTER DELETE ON `records`
BEGIN
  UPDATE `zones` SET `record_count` = `record_count` - 1,
    `record_bytes` = `record_bytes` - (length(cast(OLD.`name` AS blob)) + length(cast(OLD.`ttl` AS text)) + length(OLD.`type`) + length(cast(OLD.`content` AS blob)) + 7)
  WHERE `id` = OLD.`zone_id`;
END;--> statement-breakpoint
-- A changed record moves the total only when its line's length changed.
CREATE TRIGGER `records_bytes_update` AFTER UPDATE OF `name`, `ttl`, `type`, `content` ON `records`
WHEN length(cast(NEW.`name` AS blob)) + length(cast(NEW.`ttl` AS text)) + length(NEW.`type`) + length(cast(NEW.`content` AS blob))
  <> length(cast(OLD.`name` AS blob)) + length(cast(OLD.`ttl` AS text)) + length(OLD.`type`) + length(cast(OLD.`content` AS blob))
BEGIN
  UPDATE `zones` SET `record_bytes` = `record_bytes`
    + (length(cast(NEW.`name` AS blob)) + length(cast(NEW.`ttl` AS text)) + length(NEW.`type`) + length(cast(NEW.`content` AS blob)))
    - (length(cast(OLD.`name` AS blob)) + length(cast(OLD.`ttl` AS text)) + length(OLD.`type`) + length(cast(OLD.`content` AS blob)))
  WHERE `id` = NEW.`zone_id`;
END;--> statement-breakpoint
-- A signed zone keeps 400 bytes for the apex DNSKEY, CDS and CDNSKEY its export adds
-- (SIGNED_ZONE_RESERVE): the key is looked up only for a zone that near the limit.
CREATE TRIGGER `zones_record_bytes_limit` AFTER UPDATE OF `record_bytes` ON `zones`
WHEN NEW.`record_bytes` > OLD.`record_bytes` AND NEW.`record_bytes` > 2000000 - 400
  AND (NEW.`record_bytes` > 2000000 OR EXISTS (SELECT 1 FROM `zone_keys` k WHERE k.`zone_id` = NEW.`id` AND k.`active` = 1))
BEGIN SELECT RAISE(ABORT, 'zone_too_large'); END;
--> statement-breakpoint
-- An account that took part in a transfer is kept (docs/accounts.md): its delete counts
-- them by these two ranges, not by a scan of every transfer of the service.
CREATE INDEX `transfers_gaining_account_idx` ON `transfers` (`gaining_account_id`);--> statement-breakpoint
CREATE INDEX `transfers_losing_account_idx` ON `transfers` (`losing_account_id`);
