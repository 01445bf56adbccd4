// An RRset never grows past what one DNS message can carry (RFC 1035 §4.2.2: 65 535
// octets over TCP, less the header and room for a signature): src/dns/rrset-rules.ts.
// About 4 060 A records at one short name fit; the next one is refused, by a record write
// and by an import alike.
import { describe, expect, it } from "vitest";
import { MAX_RRSET_WIRE_OCTETS, rrsetWireOctets } from "../src/dns/rrset-rules";
import { api, expectProblem } from "./helpers";

const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

function masterFile(origin: string, count: number): string {
  const lines = [`$ORIGIN ${origin}.`, "$TTL 300", "@ SOA ns1.example.net. h.example.net. 1 7200 900 1209600 300", "@ NS ns1.example.net."];
  for (let i = 0; i < count; i++) lines.push(`big A ${address(i)}`);
  return lines.join("\n");
}

/** How many A records fit at `big.<origin>`. */
function fitting(origin: string): number {
  let n = 0;
  while (rrsetWireOctets(`big.${origin}`, Array(n + 1).fill(4)) <= MAX_RRSET_WIRE_OCTETS) n++;
  return n;
}

describe("an RRset fits one DNS message", () => {
  it("an import whose RRset would not fit answers 422 naming the line that takes it past, and creates nothing", async () => {
    const origin = "rrset-too-big.example";
    const limit = fitting(origin);
    expect(limit).toBeGreaterThan(4000);
    const response = await api("POST", "/v1/zones", { body: masterFile(origin, limit + 1), headers: { "content-type": "text/dns" } });
    const problem = expectProblem(response, 422, "validation_failed");
    expect(JSON.stringify(problem.errors)).toContain("more than one DNS message carries");
    expect(JSON.stringify(problem.errors)).toContain(`line ${limit + 5}`);
    expectProblem(await api("GET", `/v1/zones/${origin}`), 404, "not_found");
  }, 120_000);

  it("a record that would take a full RRset past the limit answers 422 policy_violation; the RRset keeps what fits", async () => {
    const origin = "rrset-full.example";
    const limit = fitting(origin);
    const imported = await api("POST", "/v1/zones", { body: masterFile(origin, limit), headers: { "content-type": "text/dns" } });
    expect(imported.status, imported.text).toBe(201);
    const response = await api("POST", "/v1/records", { json: { zone: origin, name: "big", type: "A", content: "192.0.2.200" } });
    const problem = expectProblem(response, 422, "policy_violation");
    expect(problem.errors).toEqual([
      { field: "content", message: expect.stringMatching(/^the A RRset at big would take \d+ octets on the wire, more than one DNS message carries/) },
    ]);
    // Another type at the name, and another name, are not affected.
    expect((await api("POST", "/v1/records", { json: { zone: origin, name: "big", type: "AAAA", content: "2001:db8::1" } })).status).toBe(201);
    expect((await api("POST", "/v1/records", { json: { zone: origin, name: "small", type: "A", content: "192.0.2.200" } })).status).toBe(201);
  }, 120_000);
});
