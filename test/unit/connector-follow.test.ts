// Our copy follows the registry (src/connector/follow.ts, docs/registries.md "Reconciliation"):
// what a <domain:info> makes of our stored domain, and the differences its event lists.
import { describe, expect, it } from "vitest";
import { domainViewOf, type FollowedFields, followRegistry } from "../../src/connector/follow";

const OURS: FollowedFields = {
  statuses: ["clientTransferProhibited"],
  serverStatuses: [],
  expiresAt: "2028-01-01T00:00:00.000Z",
  nameservers: ["ns1.example.fr", "ns2.example.fr"],
  ds: [{ key_tag: 1, algorithm: 13, digest_type: 2, digest: "AB".repeat(32) }],
  registrantId: "con_a",
  deleted: false,
};

const SEC_DNS = { kind: "secDNS:infData", dsData: [{ keyTag: 1, alg: 13, digestType: 2, digest: "ab".repeat(32) }], keyData: [] };
const view = (info: Record<string, unknown> = {}, extensions: unknown[] = [SEC_DNS]) =>
  domainViewOf(
    {
      name: "Example.COM",
      roid: "1-VRSN",
      statuses: [{ s: "clientTransferProhibited" }],
      registrant: "ca1",
      contacts: [],
      nameservers: ["NS2.example.fr", "ns1.example.fr"],
      hostAttrs: [],
      hosts: [],
      clID: "domain-api",
      exDate: "2028-01-01T00:00:00.0Z",
      ...info,
    } as never,
    extensions as never,
  );

describe("a domain follows its registry's <domain:info>", () => {
  it("nothing differs when the registry holds what we do: names, DS digests and statuses compare as sets, in any case, our order kept", () => {
    const { next, differences } = followRegistry(OURS, view(), "con_a");
    expect(differences).toEqual([]);
    expect(next.nameservers).toBe(OURS.nameservers);
    expect(next.ds).toBe(OURS.ds);
  });

  it("client, lock and pending statuses are the registry's; ok and linked are computed, not kept", () => {
    const { next, differences } = followRegistry(
      OURS,
      view({ statuses: [{ s: "serverHold" }, { s: "pendingRenew" }, { s: "clientDeleteProhibited" }, { s: "linked" }] }),
      "con_a",
    );
    expect(next.statuses).toEqual(["clientDeleteProhibited", "pendingRenew"]);
    expect(next.serverStatuses).toEqual(["serverHold"]);
    expect(differences).toEqual([{ field: "status", ours: ["clientTransferProhibited"], registry: ["clientDeleteProhibited", "pendingRenew", "serverHold"] }]);
  });

  it("the expiry, the name servers and the DS records become the registry's, each listed as it was and as it is", () => {
    const { next, differences } = followRegistry(OURS, view({ exDate: "2029-01-01T00:00:00.000Z", nameservers: ["ns9.example.fr"] }, []), "con_a");
    expect(next).toMatchObject({ expiresAt: "2029-01-01T00:00:00.000Z", nameservers: ["ns9.example.fr"], ds: [] });
    expect(differences.map((d) => d.field)).toEqual(["expires_at", "nameservers", "ds"]);
  });

  it("a redemption period at the registry is pendingDelete here, and its end there undoes it", () => {
    const deleted = followRegistry(OURS, view({}, [SEC_DNS, { kind: "rgp:infData", rgpStatus: [{ s: "redemptionPeriod" }] }]), "con_a");
    expect(deleted.next.deleted).toBe(true);
    expect(deleted.differences).toEqual([{ field: "pending_delete", ours: false, registry: true }]);
    expect(followRegistry({ ...OURS, deleted: true }, view(), "con_a").next.deleted).toBe(false);
  });

  it("a registrant none of our contacts is there leaves the domain without one, and a second comparison finds nothing more", () => {
    const first = followRegistry(OURS, view({ registrant: "theirs1" }), undefined);
    expect(first.next.registrantId).toBeNull();
    expect(first.differences).toEqual([{ field: "registrant", ours: "con_a", registry: "theirs1" }]);
    expect(followRegistry(first.next, view({ registrant: "theirs1" }), undefined).differences).toEqual([]);
  });

  it("a registrant that is another of our contacts is pointed at", () => {
    const { next, differences } = followRegistry(OURS, view({ registrant: "cb2" }), "con_b");
    expect(next.registrantId).toBe("con_b");
    expect(differences).toEqual([{ field: "registrant", ours: "con_a", registry: "con_b" }]);
  });
});
