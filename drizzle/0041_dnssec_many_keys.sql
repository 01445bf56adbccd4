-- DNSSEC key rolls (docs/dnssec-rollovers.md): a roll has two keys live in a zone, or four
-- (an algorithm roll's KSK and ZSK beside the old pair), so the one-active-key index goes;
-- a plain partial index keeps the signed zones' reads (the signatures' renewal, drizzle/0028's
-- trigger) indexed. `active` now says the key is live (not removed); a removed key's row
-- stays only while the parent may still show its DS.
DROP INDEX `zone_keys_active_unique`;--> statement-breakpoint
CREATE INDEX `zone_keys_live_idx` ON `zone_keys` (`zone_id`) WHERE active = 1;--> statement-breakpoint
-- A KSK's or combined key's DS that 0040 found nowhere here is `absent`; but the zone has
-- published its CDS and CDNSKEY since it was signed, asking its parent for that DS: it is
-- wanted, not yet seen (`submitted`). As `absent` a roll would ask the parent for the new
-- DS alone, which before the swap names a key that signs nothing the resolver checks.
UPDATE `zone_keys` SET `ds_state` = 'submitted', `ds_since` = `created_at` WHERE `ds_state` = 'absent' AND `role` <> 'zsk';
