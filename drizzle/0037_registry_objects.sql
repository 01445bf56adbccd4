-- The ids a connected registry holds our contacts and hosts by (docs/registries.md, "What
-- goes to the registry"): one row per (repository, object) that a create at that registry
-- made, written in the same batch as the domain (or host, or contact) write that needed it,
-- so that a row exists exactly when the registry holds the object from this service. A
-- contact's registry id is its 3–16 character clIDType id (src/epp/ids.ts), a host's its
-- name. No foreign key to the object: contacts and hosts are two tables, and the object's
-- delete removes its rows in its own batch.
CREATE TABLE `registry_objects` (
  `repository_id` text NOT NULL REFERENCES `repositories`(`id`),
  `object_type` text NOT NULL CHECK (`object_type` IN ('contact', 'host')),
  `object_id` text NOT NULL,
  `registry_id` text NOT NULL,
  `roid` text,
  `created_at` text NOT NULL,
  PRIMARY KEY (`repository_id`, `object_type`, `object_id`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `registry_objects_registry_id_unique` ON `registry_objects` (`repository_id`, `object_type`, `registry_id`);
--> statement-breakpoint
CREATE INDEX `registry_objects_object_idx` ON `registry_objects` (`object_id`);
