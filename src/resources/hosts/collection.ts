// Hosts as the write routine sees them (src/http/mutate.ts), and the answers their
// operations share.
import type { Collection } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { type HostWithLinks, presentHost } from "../../db/hosts";
import { findHost } from "./queries";
import type { Host } from "./schemas";

export const hostCollection: Collection<HostWithLinks, Host> = {
  type: "host",
  path: "/v1/hosts",
  byName: true,
  find: findHost,
  present: presentHost,
  accountOf: (row) => row.accountId,
};

/** Host names are unique (RFC 5732 §3.2.1: the name identifies the object). */
export function hostExists(name: string, id?: string): ApiError {
  return new ApiError("already_exists", `The host ${name} already exists${id ? ` (${id})` : ""}.`);
}
