-- The auth_info a pending update asked for (docs/registries.md, "Pending states"). A PATCH
-- with `auth_info` that the registry answers 1001 keeps the domain's auth_info until the
-- update settles; the settlement takes the registry's `<domain:info>`, and a registry whose
-- info shows no authInfo (RFC 5731 §3.1.2: optional) would leave the value asked for unknown.
-- So it is kept here, beside what the registry says of the domain, as the domain's own
-- auth_info is kept (`domains.auth_info`: the account reads it back): applied when the
-- registry's panData approves the update (paResult 1) and its info shows none, dropped when
-- the update is refused or settles otherwise. Never in an event.
ALTER TABLE `registry_domains` ADD COLUMN `pending_auth_info` text;
