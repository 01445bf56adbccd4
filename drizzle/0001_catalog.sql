-- The catalog: registries (repositories) and the extensions (TLDs) they run.
-- Read-only over the API; a new extension is added by a new migration like this one.
-- Periods in years, grace periods in days, following each registry's published policy:
-- gTLDs use the ICANN standard (add/renew/transfer 5, auto-renew 45, redemption 30,
-- pending delete 5); DENIC, SIDN and SWITCH register year by year with no add grace;
-- Nominet and EURid keep expired names suspended/quarantined instead of auto-renewing.
INSERT INTO repositories (id, name, roid_suffix, created_at, updated_at) VALUES
  ('verisign', 'Verisign', 'VRSN', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('pir', 'Public Interest Registry', 'LROR', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('identity-digital', 'Identity Digital', 'DONUTS', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('google', 'Google Registry', 'GOOGLE', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('nominet', 'Nominet UK', 'NOMINET', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('denic', 'DENIC eG', 'DENIC', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('sidn', 'SIDN', 'SIDN', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('eurid', 'EURid', 'EURID', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('switch', 'SWITCH', 'SWITCH', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('xyz', 'XYZ.COM LLC', 'CNIC', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
--> statement-breakpoint
INSERT INTO extensions (id, unicode_name, type, repository_id, period_min, period_max,
  grace_add, grace_renew, grace_auto_renew, grace_transfer, grace_redemption, grace_pending_delete,
  nameservers_min, nameservers_max, idn, dnssec, created_at, updated_at) VALUES
  ('com',   'com',   'generic',      'verisign',         1, 10, 5, 5, 45, 5, 30, 5, 0, 13, 1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('net',   'net',   'generic',      'verisign',         1, 10, 5, 5, 45, 5, 30, 5, 0, 13, 1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('org',   'org',   'generic',      'pir',              1, 10, 5, 5, 45, 5, 30, 5, 0, 13, 1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('info',  'info',  'generic',      'identity-digital', 1, 10, 5, 5, 45, 5, 30, 5, 0, 13, 1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('io',    'io',    'country-code', 'identity-digital', 1, 10, 5, 5, 45, 5, 30, 5, 0, 13, 0, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('dev',   'dev',   'generic',      'google',           1, 10, 5, 5, 45, 5, 30, 5, 0, 13, 0, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('app',   'app',   'generic',      'google',           1, 10, 5, 5, 45, 5, 30, 5, 0, 13, 0, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('uk',    'uk',    'country-code', 'nominet',          1, 10, 5, 0, 0, 0, 60, 5, 0, 10, 0, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('co.uk', 'co.uk', 'country-code', 'nominet',          1, 10, 5, 0, 0, 0, 60, 5, 0, 10, 0, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('de',    'de',    'country-code', 'denic',            1, 1,  0, 0, 0, 0, 30, 0, 2, 5,  1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('nl',    'nl',    'country-code', 'sidn',             1, 1,  0, 0, 0, 0, 40, 0, 2, 13, 0, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('eu',    'eu',    'country-code', 'eurid',            1, 10, 0, 0, 0, 0, 40, 0, 0, 9,  1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('ch',    'ch',    'country-code', 'switch',           1, 1,  0, 0, 0, 0, 40, 0, 0, 10, 1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
  ('xyz',   'xyz',   'generic',      'xyz',              1, 10, 5, 5, 45, 5, 30, 5, 0, 13, 1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
