-- DNS UPDATE through the update gateway (docs/dns-update.md): the Worker now reads each
-- signed message whole, verifies its TSIG itself and applies it in one batch, so the
-- staging PowerDNS's remote backend needed (a transaction spread over many requests) and
-- the one-update-key-per-zone table (PowerDNS did not say which key signed) go. A zone
-- takes any number of update keys: the signer is the key the TSIG names.
--
-- dns_update_seen: the signed messages seen lately, (key, time signed, MAC), so that a
-- captured update replayed within its fudge window is refused (RFC 8945 §5.2.3 leaves
-- that to the server). Rows older than twice the window are pruned by later updates.
DROP TABLE IF EXISTS `dns_update_operations`;--> statement-breakpoint
DROP TABLE IF EXISTS `dns_update_transactions`;--> statement-breakpoint
DROP TABLE IF EXISTS `tsig_update_zones`;--> statement-breakpoint
CREATE TABLE `dns_update_seen` (
	`key_id` text NOT NULL,
	`signed_at` integer NOT NULL,
	`mac` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dns_update_seen_unique` ON `dns_update_seen` (`key_id`,`signed_at`,`mac`);--> statement-breakpoint
CREATE INDEX `dns_update_seen_signed_at_idx` ON `dns_update_seen` (`signed_at`);
