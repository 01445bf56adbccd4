// The handlers of update-routes.ts: getTSIGKey for PowerDNS (transfers signed by a declared
// secondary's key), and the update gateway's one request per DNS UPDATE message.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { requestBytes } from "../../http/body";
import { ApiError } from "../../http/problem";
import { answerDnsUpdate } from "./dns-update";
import { parseQueryName } from "../../serving/names";
import type * as routes from "./update-routes";
import { DNS_MESSAGE_MEDIA_TYPE } from "./update-routes";
import { tsigKeyByName } from "../../serving/zone-access";

export const getTSIGKey: RouteHandler<typeof routes.getTSIGKey, AppEnv> = async (c) => {
  const name = parseQueryName(c.req.valid("param").name);
  const key = name && name.labels.length > 0 ? await tsigKeyByName(c, name.key) : null;
  return c.json({ result: key ?? (false as const) }, 200);
};

/** `DNS-Client` as the gateway writes it: an IPv4 or IPv6 address, `#`, a port. */
const CLIENT = /^[0-9A-Fa-f:.]{2,45}#[0-9]{1,5}$/;

/** Outcome text for a header (visible ASCII; anything else percent-encoded). */
function headerText(text: string): string {
  return text.slice(0, 600).replace(/[^\x20-\x7e]|%/gu, (char) => encodeURIComponent(char));
}

export const dnsUpdate: RouteHandler<typeof routes.dnsUpdate, AppEnv> = async (c) => {
  const client = c.req.header("dns-client");
  if (client !== undefined && !CLIENT.test(client)) {
    throw new ApiError("validation_failed", "DNS-Client is not an address and port (`192.0.2.1#53001`).", {
      errors: [{ field: "DNS-Client", message: `"${client.slice(0, 60)}" is not an address, \`#\` and a port` }],
    });
  }
  const answer = await answerDnsUpdate(c, requestBytes(c));
  if (!answer) {
    throw new ApiError("validation_failed", "The body is not a DNS request: it is shorter than a DNS header, or a response.", {
      errors: [{ field: "body", message: "a DNS message with QR 0, at least 12 octets" }],
    });
  }
  // One line per message in the Worker's log: who sent it and what became of it (no outcome holds a secret).
  console.log(JSON.stringify({ level: "info", service: "domain-api", dns_update: { client: client ?? null, outcome: answer.outcome.slice(0, 300) } }));
  return c.body(answer.message as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": DNS_MESSAGE_MEDIA_TYPE,
    "DNS-Update-Outcome": headerText(answer.outcome),
  }) as never;
};
