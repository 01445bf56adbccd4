-- The registry is the authority (docs/registries.md, "The registry decides"): what this
-- registrar's copy keeps of what a connected registry says, beside the domains themselves.
--
-- registry_domains: one row per domain of a connected repository that the registry told us
-- about (an info answer, a poll message): its repository object id (ROID, RFC 5730 §2.8),
-- the registrar that sponsors it there when that is not us (`sponsor`, its clID: a domain
-- transferred away without our seeing the message, found by reconciliation), since when the
-- registry no longer has it for us (`missing_since`: marked, never silently deleted), and
-- when reconciliation last compared it. Goes with the domain (ON DELETE CASCADE).
CREATE TABLE `registry_domains` (
  `domain_id` text PRIMARY KEY NOT NULL REFERENCES `domains`(`id`) ON DELETE CASCADE,
  `repository_id` text NOT NULL REFERENCES `repositories`(`id`),
  `roid` text,
  `sponsor` text,
  `missing_since` text,
  `reconciled_at` text
);
--> statement-breakpoint
CREATE INDEX `registry_domains_repository_idx` ON `registry_domains` (`repository_id`, `domain_id`);
--> statement-breakpoint
-- registry_transfers: transfers between this registrar and another at a connected registry
-- (RFC 5731 §3.2.4), which replace the account-to-account transfer there. `out`: another
-- registrar asked for one of our domains (its poll message), the domain's account approves
-- or rejects through the API; `in`: one of our accounts asked for a domain another registrar
-- holds, which joins the account when the registry says it was approved. `account_id` is our
-- side (the losing account out, the gaining one in); `other_registrar` the other side's clID.
CREATE TABLE `registry_transfers` (
  `id` text PRIMARY KEY NOT NULL,
  `repository_id` text NOT NULL REFERENCES `repositories`(`id`),
  `name` text NOT NULL,
  `direction` text NOT NULL CHECK (`direction` IN ('in', 'out')),
  `domain_id` text REFERENCES `domains`(`id`) ON DELETE SET NULL,
  `account_id` text NOT NULL REFERENCES `accounts`(`id`) ON DELETE CASCADE,
  `other_registrar` text,
  `status` text NOT NULL CHECK (`status` IN ('pending', 'approved', 'rejected', 'cancelled', 'auto_approved')),
  `period` integer NOT NULL,
  `requested_at` text NOT NULL,
  `act_by` text,
  `acted_at` text,
  `version` integer NOT NULL DEFAULT 1
);
--> statement-breakpoint
CREATE INDEX `registry_transfers_domain_idx` ON `registry_transfers` (`domain_id`, `status`);
--> statement-breakpoint
CREATE INDEX `registry_transfers_name_idx` ON `registry_transfers` (`name`, `requested_at`);
--> statement-breakpoint
CREATE INDEX `registry_transfers_account_idx` ON `registry_transfers` (`account_id`);
--> statement-breakpoint
-- registry_messages: each poll message the gateway handed over, by the registry's message id,
-- so that one handed over twice (applied, then its ack lost) is applied once. Kept 30 days
-- (the reconciliation job forgets older ones).
CREATE TABLE `registry_messages` (
  `repository_id` text NOT NULL,
  `message_id` text NOT NULL,
  `kind` text NOT NULL,
  `received_at` text NOT NULL,
  `applied_at` text,
  PRIMARY KEY (`repository_id`, `message_id`)
);
--> statement-breakpoint
CREATE INDEX `registry_messages_received_idx` ON `registry_messages` (`received_at`);
--> statement-breakpoint
-- registry_reconciliations: where each repository's reconciliation pass stands, so that each
-- run takes the next bounded batch of domains (in id order) and a pass goes round them all.
CREATE TABLE `registry_reconciliations` (
  `repository_id` text PRIMARY KEY NOT NULL REFERENCES `repositories`(`id`),
  `after_domain_id` text,
  `pass_started_at` text,
  `last_run_at` text,
  `last_pass_ended_at` text
);
