// The typed client (README "Typed client"): `hc<AppType>` from hono/client, against the
// real Worker. A type error here means the exported app type no longer carries the routes.
import { exports } from "cloudflare:workers";
import { hc } from "hono/client";
import { describe, expect, it } from "vitest";
import type { AppType } from "../src/app";
import { CONTACT_ID, DOMAIN_ID } from "./helpers";
import { bearer } from "./tokens";

const client = hc<AppType>("http://api.test", {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => (exports as any).default.fetch(new Request(input, init)),
  headers: { authorization: bearer("write") },
});

describe("hc<AppType>", () => {
  it("creates a contact, registers a domain and lists domains with typed calls", async () => {
    const created = await client.v1.contacts.$post({
      json: { name: "Typed Client", email: "typed@example.org", address: { city: "London", country_code: "GB" } },
    });
    expect(created.status).toBe(201);
    if (created.status !== 201) throw new Error(await created.text());
    const contact = await created.json();
    // Typed: `contact.id` is a string, `contact.address.city` string | null.
    const id: string = contact.id;
    const city: string | null = contact.address.city;
    expect(id).toMatch(CONTACT_ID);
    expect(city).toBe("London");
    expect(contact).toMatchObject({ name: "Typed Client", email: "typed@example.org", privacy: false, status: ["ok"] });

    const registered = await client.v1.domains.$post({ json: { name: "typed-client.com", registrant: contact.id, period: 2 } });
    expect(registered.status).toBe(201);
    if (registered.status !== 201) throw new Error(await registered.text());
    const domain = await registered.json();
    expect(domain.id).toMatch(DOMAIN_ID);
    expect(domain).toMatchObject({ name: "typed-client.com", registrant: contact.id, extension: "com", repository: "verisign", status: ["inactive"] });
    expect(domain.auth_info).toEqual(expect.any(String));

    const listed = await client.v1.domains.$get({ query: { registrant: contact.id, limit: "10" } });
    expect(listed.status).toBe(200);
    if (listed.status !== 200) throw new Error(await listed.text());
    const page = await listed.json();
    expect(page.next_cursor).toBeNull();
    expect(page.data.map((d) => d.name)).toEqual(["typed-client.com"]);
    expect(page.data[0]).not.toHaveProperty("auth_info");
  });

  it("reads one contact by path parameter and sees problems typed by status", async () => {
    const missing = await client.v1.contacts[":contact"].$get({ param: { contact: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" } });
    expect(missing.status).toBe(404);
    if (missing.status === 404) {
      const problem = await missing.json();
      expect(problem).toMatchObject({ status: 404, code: "not_found" });
    }
  });
});
