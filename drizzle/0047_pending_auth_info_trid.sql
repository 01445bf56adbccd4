-- Which command the kept auth_info belongs to (docs/registries.md, "Pending states"). A
-- renew is allowed while an update is pending: were the renew's panData (paResult 1) applied
-- first, the info no longer shows pendingUpdate, and an auth_info the registry refused would
-- be applied as approved. So the update's clTRID is kept beside the value (0046), and only
-- the panData whose `paTRID.clTRID` names that update applies or drops it; a panData for
-- another command does neither. A value kept before this column names no command, and
-- could never be told apart: it is dropped, our copy keeping its auth_info as a refusal would.
ALTER TABLE `registry_domains` ADD COLUMN `pending_auth_info_trid` text;
--> statement-breakpoint
UPDATE `registry_domains` SET `pending_auth_info` = NULL WHERE `pending_auth_info` IS NOT NULL;
