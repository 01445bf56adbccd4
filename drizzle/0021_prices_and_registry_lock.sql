-- Registrar essentials (docs/lifecycle.md "Prices, premium and reserved names", "Registry
-- lock"): what each extension costs, the names a registry prices on its own (premium) or
-- keeps back (reserved), the registry lock's server statuses on a domain, and the price a
-- transfer was requested at. Catalog data, read-only over the API like the rest of 0001.
--
-- Prices are a registrar's retail figures in USD, one year of each operation, as decimal
-- strings; src/registry/prices.ts derives the price of every period the extension allows
-- (registering n years: the first year, then n-1 renewals; a transfer adds one year at the
-- transfer price, the others at the renewal price). `restore` is the RFC 3915 restore fee.
-- Figures follow the registries' published wholesale prices of 2025-2026 plus a registrar's
-- margin: Verisign's .com ($10.26) and .net, PIR's .org, Identity Digital's .info and .io
-- (a costly ccTLD), Google's .dev and .app, Nominet's .uk (no restore fee: an expired .uk
-- name is simply renewed), DENIC, SIDN, EURid and SWITCH (yearly registrations), and XYZ's
-- low first year with a dearer renewal.
ALTER TABLE `extensions` ADD `prices` text DEFAULT '{"currency":"USD","register":"0.00","renew":"0.00","transfer":"0.00","restore":"0.00"}' NOT NULL;
--> statement-breakpoint
UPDATE `extensions` SET `prices` = CASE `id`
  WHEN 'com'   THEN '{"currency":"USD","register":"12.00","renew":"12.00","transfer":"12.00","restore":"40.00"}'
  WHEN 'net'   THEN '{"currency":"USD","register":"14.00","renew":"14.00","transfer":"14.00","restore":"40.00"}'
  WHEN 'org'   THEN '{"currency":"USD","register":"12.50","renew":"12.50","transfer":"12.50","restore":"40.00"}'
  WHEN 'info'  THEN '{"currency":"USD","register":"24.00","renew":"24.00","transfer":"24.00","restore":"40.00"}'
  WHEN 'io'    THEN '{"currency":"USD","register":"55.00","renew":"55.00","transfer":"55.00","restore":"120.00"}'
  WHEN 'dev'   THEN '{"currency":"USD","register":"15.00","renew":"15.00","transfer":"15.00","restore":"40.00"}'
  WHEN 'app'   THEN '{"currency":"USD","register":"17.00","renew":"17.00","transfer":"17.00","restore":"40.00"}'
  WHEN 'uk'    THEN '{"currency":"USD","register":"8.00","renew":"8.00","transfer":"8.00","restore":"0.00"}'
  WHEN 'co.uk' THEN '{"currency":"USD","register":"8.00","renew":"8.00","transfer":"8.00","restore":"0.00"}'
  WHEN 'de'    THEN '{"currency":"USD","register":"9.00","renew":"9.00","transfer":"9.00","restore":"25.00"}'
  WHEN 'nl'    THEN '{"currency":"USD","register":"8.50","renew":"8.50","transfer":"8.50","restore":"15.00"}'
  WHEN 'eu'    THEN '{"currency":"USD","register":"9.00","renew":"9.00","transfer":"9.00","restore":"25.00"}'
  WHEN 'ch'    THEN '{"currency":"USD","register":"12.00","renew":"12.00","transfer":"12.00","restore":"25.00"}'
  WHEN 'xyz'   THEN '{"currency":"USD","register":"3.00","renew":"15.00","transfer":"15.00","restore":"40.00"}'
  ELSE `prices` END;
--> statement-breakpoint
-- Names a repository prices on its own (premium: `prices` in the extensions' shape) or
-- keeps from registration (reserved: the `nic` and `whois` names that ICANN's Registry
-- Agreement, Specification 5 §4, keeps for every gTLD registry's own operations, and the
-- like at the ccTLD registries).
CREATE TABLE `repository_names` (
	`name` text PRIMARY KEY NOT NULL,
	`repository_id` text NOT NULL,
	`extension_id` text NOT NULL,
	`kind` text NOT NULL,
	`prices` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`repository_id`) REFERENCES `repositories`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`extension_id`) REFERENCES `extensions`(`id`) ON UPDATE no action ON DELETE no action,
	CHECK (`kind` IN ('premium', 'reserved') AND (`kind` = 'premium') = (`prices` IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX `repository_names_repository_idx` ON `repository_names` (`repository_id`,`kind`,`name`);
--> statement-breakpoint
INSERT INTO `repository_names` (`name`, `repository_id`, `extension_id`, `kind`, `prices`, `created_at`, `updated_at`) VALUES
  ('vacation.com', 'verisign', 'com', 'premium', '{"currency":"USD","register":"2500.00","renew":"2500.00","transfer":"2500.00","restore":"40.00"}', '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('hotels.net', 'verisign', 'net', 'premium', '{"currency":"USD","register":"1800.00","renew":"1800.00","transfer":"1800.00","restore":"40.00"}', '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('charity.org', 'pir', 'org', 'premium', '{"currency":"USD","register":"950.00","renew":"950.00","transfer":"950.00","restore":"40.00"}', '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('crypto.io', 'identity-digital', 'io', 'premium', '{"currency":"USD","register":"4200.00","renew":"4200.00","transfer":"4200.00","restore":"120.00"}', '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('travel.info', 'identity-digital', 'info', 'premium', '{"currency":"USD","register":"600.00","renew":"24.00","transfer":"600.00","restore":"40.00"}', '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('chat.app', 'google', 'app', 'premium', '{"currency":"USD","register":"3000.00","renew":"3000.00","transfer":"3000.00","restore":"40.00"}', '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('web.dev', 'google', 'dev', 'premium', '{"currency":"USD","register":"5000.00","renew":"5000.00","transfer":"5000.00","restore":"40.00"}', '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('3d.xyz', 'xyz', 'xyz', 'premium', '{"currency":"USD","register":"750.00","renew":"750.00","transfer":"750.00","restore":"40.00"}', '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('whois.com', 'verisign', 'com', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('whois.net', 'verisign', 'net', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.com', 'verisign', 'com', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.net', 'verisign', 'net', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('whois.org', 'pir', 'org', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.org', 'pir', 'org', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.info', 'identity-digital', 'info', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.io', 'identity-digital', 'io', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.dev', 'google', 'dev', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.app', 'google', 'app', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.uk', 'nominet', 'uk', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.de', 'denic', 'de', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.nl', 'sidn', 'nl', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('eurid.eu', 'eurid', 'eu', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.ch', 'switch', 'ch', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('nic.xyz', 'xyz', 'xyz', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'),
  ('whois.xyz', 'xyz', 'xyz', 'reserved', NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z');
--> statement-breakpoint
-- The registry lock (RFC 5731 §2.3 server statuses), set and cleared by the operator only.
ALTER TABLE `domains` ADD `server_statuses` text DEFAULT '[]' NOT NULL;
--> statement-breakpoint
-- What the transfer costs, as the gaining account was told when it asked ({currency, amount}).
ALTER TABLE `transfers` ADD `price` text;
