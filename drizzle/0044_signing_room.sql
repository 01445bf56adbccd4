-- A signed zone keeps room for the apex records its keys add to its export (docs/dnssec.md
-- "In the zone's JSON and its export"), computed from the keys (src/db/zone-keys.ts,
-- signingRoom), no longer a fixed 400 bytes: a KSK and a ZSK, RSA keys and a roll under way
-- take more. Each live key's DNSKEY line, and for a KSK or combined key (flags 257) a CDS
-- line (SHA-256) and a CDNSKEY line, each counted as records_bytes_* count a record's:
-- "@", the TTL (the SOA minimum), the type, the content, 7. The keys are looked up only for
-- a zone within 20 000 bytes of the limit (no roll's keys take that much).
DROP TRIGGER `zones_record_bytes_limit`;--> statement-breakpoint
CREATE TRIGGER `zones_record_bytes_limit` AFTER UPDATE OF `record_bytes` ON `zones`
WHEN NEW.`record_bytes` > OLD.`record_bytes` AND NEW.`record_bytes` > 2000000 - 20000
  AND (NEW.`record_bytes` > 2000000 OR NEW.`record_bytes` + (
    SELECT coalesce(sum(
        (1 + length(cast(NEW.`soa_minimum` AS text)) + 7) + 6
          + (length(cast(k.`flags` AS text)) + 3 + length(cast(k.`algorithm` AS text)) + 1 + length(k.`public_key`))
        + CASE WHEN k.`flags` = 257 THEN
            (1 + length(cast(NEW.`soa_minimum` AS text)) + 7) + 3
              + (length(cast(k.`key_tag` AS text)) + 1 + length(cast(k.`algorithm` AS text)) + 3 + 64)
            + (1 + length(cast(NEW.`soa_minimum` AS text)) + 7) + 7
              + (length(cast(k.`flags` AS text)) + 3 + length(cast(k.`algorithm` AS text)) + 1 + length(k.`public_key`))
          ELSE 0 END), 0)
      FROM `zone_keys` k WHERE k.`zone_id` = NEW.`id` AND k.`active` = 1) > 2000000)
BEGIN SELECT RAISE(ABORT, 'zone_too_large'); END;
