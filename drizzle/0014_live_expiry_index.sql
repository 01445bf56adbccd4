-- The sweep's expiry step (src/resources/lifecycle/sweep.ts, contract §12) asks for the
-- domains not deleted whose expires_at has come. domains_expires_idx holds every domain,
-- and a domain deleted after its expiry (in redemption, then pendingDelete: weeks) would be
-- read by every run; this partial index holds only the domains not deleted, so a run reads
-- the rows that are due and nothing else, however many domains there are. Written by hand
-- (drizzle-kit does not generate it): a partial index that the query's `deleted_at IS NULL`
-- selects.
CREATE INDEX IF NOT EXISTS `domains_live_expires_idx` ON `domains` (`expires_at`, `id`) WHERE `deleted_at` IS NULL;
