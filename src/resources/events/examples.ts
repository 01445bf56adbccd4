// The events' examples in the OpenAPI document: an update of the example world's domain
// (src/http/example-world.ts), an archive object of its account, and an archive run.
import type { z } from "@hono/zod-openapi";
import { ACCOUNT_ID, CREATED, DOMAIN_ID, OPERATOR_TOKEN_ID, UPDATED } from "../../http/example-world";
import { DOMAIN_LIST_ITEM_EXAMPLE } from "../domains/examples";
import type { EventArchiveSchema, EventSchema } from "./schemas";

export const EVENT_EXAMPLE = {
  id: "evt_01M8188PRAZ776Y7KHQ8XACA72",
  at: UPDATED,
  // The domain's sponsor: events are visible as their resource is.
  account: DOMAIN_LIST_ITEM_EXAMPLE.account,
  token: OPERATOR_TOKEN_ID,
  type: "domain",
  resource: DOMAIN_ID,
  operation: "update",
  // A domain as events record it: without its `auth_info` (src/db/events.ts).
  before: { ...DOMAIN_LIST_ITEM_EXAMPLE, status: ["ok"], auto_renew: true, updated_at: CREATED },
  after: DOMAIN_LIST_ITEM_EXAMPLE,
} satisfies z.output<typeof EventSchema>;

/** An archive object of the example account: one UTC day of its events, gzip'd NDJSON in R2. */
export const EVENT_ARCHIVE_EXAMPLE = {
  id: "arc_01M3W0B1N4Q8R2T6V9X3Z5C7E1",
  account: ACCOUNT_ID,
  day: "2026-10-01",
  first_event: "evt_01M3W0B1N4Q8R2T6V9X3Z5C7E1",
  last_event: "evt_01M3X7K2D9F5H8J3L6N0P4R7T2",
  count: 412,
  bytes: 48213,
  created_at: "2026-11-01T00:17:03.418Z",
} satisfies z.output<typeof EventArchiveSchema>;

/** The first lines of that object, after gunzip: events as GET /v1/events/{event} returns them. */
export const EVENT_ARCHIVE_LINES_EXAMPLE = `${JSON.stringify({ ...EVENT_EXAMPLE, id: "evt_01M3W0B1N4Q8R2T6V9X3Z5C7E1", at: "2026-10-01T07:12:44.301Z" })}\n…\n`;
