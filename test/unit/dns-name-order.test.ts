import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareNamesCanonically, ownerOrder, reversedLabels } from "../../src/dns/name-order";

describe("canonical name order (RFC 4034 §6.1)", () => {
  it("sorts the RFC's own example", () => {
    const names = [
      "z.example",
      "zABC.a.EXAMPLE",
      "a.example",
      "*.z.example",
      "example",
      "yljkjljk.a.example",
      "Z.a.example",
      "\\200.z.example",
      "\\001.z.example",
    ];
    expect([...names].sort(compareNamesCanonically)).toEqual([
      "example",
      "a.example",
      "yljkjljk.a.example",
      "Z.a.example",
      "zABC.a.EXAMPLE",
      "z.example",
      "*.z.example",
      "\\001.z.example",
      "\\200.z.example",
    ]);
  });
  it("puts the apex (@ or the empty name) first among relative names", () => {
    expect(["b", "a.b", "@", "_x"].sort(compareNamesCanonically)).toEqual(["@", "_x", "b", "a.b"]);
    expect(reversedLabels("www.example.com.")).toEqual(["com", "example", "www"]);
    expect(reversedLabels("")).toEqual([]);
  });
});

describe("records.owner_order: an owner's labels reversed, space-joined (ownerOrder)", () => {
  it("writes the apex as the empty key and other owners rightmost label first", () => {
    expect(ownerOrder("@")).toBe("");
    expect(ownerOrder("www")).toBe("www");
    expect(ownerOrder("leaf.ent")).toBe("ent leaf");
    expect(ownerOrder("*.x.y")).toBe("y x *");
  });

  // Stored owners are lowercase LDH labels, `_` and `*`: all sort after the space.
  const label = fc.stringMatching(/^[a-z0-9_*-]{1,6}$/);
  const owner = fc.oneof(
    fc.constant("@"),
    fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join(".")),
  );

  it("orders keys as text exactly as names order canonically (RFC 4034 §6.1)", () => {
    fc.assert(
      fc.property(owner, owner, (a, b) => {
        const text = ownerOrder(a) < ownerOrder(b) ? -1 : ownerOrder(a) > ownerOrder(b) ? 1 : 0;
        expect(text).toBe(Math.sign(compareNamesCanonically(a, b)));
      }),
      { numRuns: 2000 },
    );
  });

  it("puts exactly the names below a name in the key range (its key + ' ', its key + '!')", () => {
    fc.assert(
      fc.property(owner, owner, (above, name) => {
        const key = ownerOrder(above);
        const inRange = ownerOrder(name) > `${key} ` && ownerOrder(name) < `${key}!`;
        const below = above === "@" ? name !== "@" : name.endsWith(`.${above}`);
        if (above !== "@") expect(inRange).toBe(below);
      }),
      { numRuns: 2000 },
    );
  });
});
