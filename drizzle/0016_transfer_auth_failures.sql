-- Failed transfer requests (a wrong auth_info), counted per domain and per requesting
-- account across isolates and tokens (docs/safety.md § Transfers and auth_info). Keys are
-- `domain:<id>` and `account:<id>`; times are milliseconds since the epoch.
CREATE TABLE `transfer_auth_failures` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer NOT NULL,
	`last_failed_at` integer NOT NULL,
	`locked_until` integer NOT NULL,
	`last_request` text NOT NULL
);
