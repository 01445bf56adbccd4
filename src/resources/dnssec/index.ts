// DNSSEC for hosted zones (docs/dnssec.md): POST|GET|PATCH|DELETE /zones/{zone}/dnssec.
import { createRouter } from "../../http/router";
import { disableDnssec } from "./disable";
import { enableDnssec } from "./enable";
import { patchDnssec } from "./policy";
import { readDnssec } from "./read";
import * as routes from "./routes";

export const dnssecRouter = createRouter()
  .openapi(routes.enableDnssec, async (c) => c.json(await enableDnssec(c, c.req.valid("param").zone), 201))
  .openapi(routes.getDnssec, async (c) => c.json(await readDnssec(c, c.req.valid("param").zone), 200))
  .openapi(routes.updateDnssec, async (c) => c.json(await patchDnssec(c, c.req.valid("param").zone, c.req.valid("json")), 200))
  .openapi(routes.disableDnssec, async (c) => {
    await disableDnssec(c, c.req.valid("param").zone, c.req.valid("query").force === "true");
    return c.body(null, 204);
  });
