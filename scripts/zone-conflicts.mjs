#!/usr/bin/env node
// `npm run zone-conflicts`: the zones that break the ownership rules (docs/accounts.md,
// "Names are owned"), for the operator to decide about: zones made before the rules
// existed, and zones a transfer left with the losing account. The DNS backend serves none
// of them; the service changes none of them by itself. Each line names the zone, its
// account, the rule and the name that blocks it (this listing is the operator's, so it may
// name other accounts' objects). It reads the view drizzle/0015 made
// (zone_ownership_conflicts), in the local D1 that `npm start` serves or, with --remote,
// the deployed one.
//
//   npm run zone-conflicts [-- --account acc_…] [--remote] [--persist-to DIR]
//
// Exit status 0 whatever it finds; 2 for bad arguments.
import { parseArgs } from "node:util";
import { cliDatabase } from "./lib/cli-database.mjs";
import { localStateDir } from "./lib/local-d1.mjs";

const USAGE = "usage: npm run zone-conflicts [-- --account acc_…] [--remote] [--persist-to DIR]";

// What each rule means, and what an operator may do about it.
const RULES = {
  reserved_name: "a customer's zone at or above an extension, or at a top-level name",
  in_domain: "at or inside a domain another account registered here (blocked by that domain)",
  inside_zone: "made inside another account's zone that was there first",
  above_zone: "made above another account's zone that was there first",
};

function fail(message) {
  console.error(`[zone-conflicts] ${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: { remote: { type: "boolean", default: false }, account: { type: "string" }, "persist-to": { type: "string" } },
  }));
} catch (error) {
  fail(error.message);
}
// Account ids go into a SQL literal: `acc_` and a ULID.
if (values.account !== undefined && !/^acc_[0-9A-HJKMNP-TV-Z]{26}$/.test(values.account)) fail("--account must be an account id (acc_ and 26 characters)");
if (values.remote && values["persist-to"]) fail("--persist-to is for the local database only");

process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

const db = await cliDatabase({ label: "zone-conflicts", remote: values.remote, persistTo: values.remote ? null : localStateDir(values["persist-to"] ?? null) });
try {
  const where = values.account ? ` WHERE c.account_id = '${values.account}'` : "";
  const rows = await db.execute(
    `SELECT c.zone_id, c.zone, c.account_id, c.rule, c.other_account_id, c.other_name FROM zone_ownership_conflicts c${where} ORDER BY c.zone, c.rule, c.other_name`,
  );
  if (rows.length === 0) {
    console.log("No zone breaks the ownership rules: every zone is served.");
  } else {
    const zones = new Set(rows.map((row) => row.zone_id)).size;
    console.log(`${zones} zone${zones === 1 ? "" : "s"} break${zones === 1 ? "s" : ""} the ownership rules and ${zones === 1 ? "is" : "are"} not served:`);
    for (const row of rows) {
      const blocker = row.other_name ? `: ${row.other_name} (${row.other_account_id})` : "";
      console.log(`${row.zone_id}  ${row.zone}  ${row.account_id}  ${row.rule}  ${RULES[row.rule] ?? ""}${blocker}`);
    }
    console.log("Delete the zone (DELETE /v1/zones/{zone}), or what blocks it; docs/accounts.md says what each rule means.");
  }
} finally {
  await db.close();
}
