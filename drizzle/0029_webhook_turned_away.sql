-- A webhook's `turned_away`: set when a delivery pass (a queue message's, the cron's) found
-- it held by another pass's lease and so left it alone; the holder, letting go, looks at
-- what is owed again only then (src/resources/webhooks/lease.ts). Without it, every pass
-- looked again after letting go, in case some other pass had been turned away: under a
-- steady stream of writes, three rounds a pass for the few events committed meanwhile,
-- which the next pass a second later delivers anyway.
-- Written by hand: migrations after 0014 are (drizzle/meta journals up to 0014).
ALTER TABLE `webhooks` ADD `turned_away` integer DEFAULT 0 NOT NULL;
