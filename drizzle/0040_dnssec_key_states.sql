-- DNSSEC key lifecycle (docs/dnssec-rollovers.md, src/dns/dnssec/rollover.ts): each key's
-- role, RFC 7583 state and timeline, and where its DS stands at the parent; each zone's
-- signing policy, the roll running (one at a time) and when its next step is due, which the
-- scheduled run finds by index (only zones with a step due are read).
ALTER TABLE `zone_keys` ADD `role` text NOT NULL DEFAULT 'csk' CHECK (`role` IN ('ksk', 'zsk', 'csk'));--> statement-breakpoint
ALTER TABLE `zone_keys` ADD `state` text NOT NULL DEFAULT 'active' CHECK (`state` IN ('pre-published', 'published', 'ready', 'active', 'retired', 'post-active', 'removed'));--> statement-breakpoint
ALTER TABLE `zone_keys` ADD `pre_published_at` text;--> statement-breakpoint
ALTER TABLE `zone_keys` ADD `published_at` text;--> statement-breakpoint
ALTER TABLE `zone_keys` ADD `ready_at` text;--> statement-breakpoint
ALTER TABLE `zone_keys` ADD `active_at` text;--> statement-breakpoint
ALTER TABLE `zone_keys` ADD `retired_at` text;--> statement-breakpoint
ALTER TABLE `zone_keys` ADD `removed_at` text;--> statement-breakpoint
ALTER TABLE `zone_keys` ADD `ds_state` text NOT NULL DEFAULT 'absent' CHECK (`ds_state` IN ('absent', 'submitted', 'seen', 'withdrawn'));--> statement-breakpoint
ALTER TABLE `zone_keys` ADD `ds_since` text;--> statement-breakpoint
ALTER TABLE `zone_keys` ADD `next_step_at` text;--> statement-breakpoint
-- JSON SigningPolicy; null: the default (one combined key, algorithm 13, not rolled).
ALTER TABLE `zones` ADD `dnssec_policy` text;--> statement-breakpoint
-- JSON SigningProcess ({kind, started_at, stalled_at}); null: the keys are at rest.
ALTER TABLE `zones` ADD `dnssec_rollover` text;--> statement-breakpoint
-- The earliest moment the zone's keys may have a step to take (StepResult.next_step_at).
ALTER TABLE `zones` ADD `dnssec_next_step_at` text;--> statement-breakpoint
CREATE INDEX `zones_dnssec_due_idx` ON `zones` (`dnssec_next_step_at`) WHERE `dnssec_next_step_at` IS NOT NULL;--> statement-breakpoint
-- Every key made before the lifecycle is one combined key, active since it was made (it
-- was published and signing at once: RFC 7583 §3.3.5 with nothing to wait for now).
UPDATE `zone_keys` SET `published_at` = `created_at`, `ready_at` = `created_at`, `active_at` = `created_at`;--> statement-breakpoint
-- Its DS is `seen` where the domain of the zone's name that the zone's account sponsors
-- here publishes a DS of it (one-click DNSSEC set it, at a parent that is immediate), and
-- `absent` otherwise (nothing known of another parent: a roll will wait for it to show).
UPDATE `zone_keys` SET `ds_state` = 'seen', `ds_since` = `created_at`
WHERE EXISTS (
	SELECT 1 FROM `zones` z
	JOIN `domains` d ON d.`name` = z.`name` AND d.`account_id` = z.`account_id`
	JOIN json_each(d.`ds`) ds
	WHERE z.`id` = `zone_keys`.`zone_id`
		AND json_extract(ds.`value`, '$.key_tag') = `zone_keys`.`key_tag`
		AND json_extract(ds.`value`, '$.algorithm') = `zone_keys`.`algorithm`
);
