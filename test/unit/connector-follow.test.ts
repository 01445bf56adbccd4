// Our copy follows the registry (src/connector/follow.ts, docs/registries.md "Reconciliation"):
// what a <domain:info> makes of our stored domain, and the differences its event lists.
import { describe, expect, it } from "vitest";
import { domainViewOf, type FollowedFields, followRegistry, type OurContacts } from "../../src/connector/follow";

const OURS: FollowedFields = {
  statuses: ["clientTransferProhibited"],
  serverStatuses: [],
  expiresAt: "2028-01-01T00:00:00.000Z",
  nameservers: ["ns1.example.fr", "ns2.example.fr"],
  ds: [{ key_tag: 1, algorithm: 13, digest_type: 2, digest: "AB".repeat(32) }],
  registrantId: "con_a",
  adminId: null,
  techId: null,
  billingId: null,
  authInfo: "Ours-auth-1234",
  deleted: false,
};

/** Our contacts the registry's ids stand for: the registrant given, no other role named there. */
const ours = (registrant: string | null | undefined, roles: Partial<OurContacts> = {}): OurContacts => ({
  registrant,
  admin: null,
  tech: null,
  billing: null,
  ...roles,
});

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
    const { next, differences } = followRegistry(OURS, view(), ours("con_a"));
    expect(differences).toEqual([]);
    expect(next.nameservers).toBe(OURS.nameservers);
    expect(next.ds).toBe(OURS.ds);
  });

  it("client, lock and pending statuses are the registry's; ok and linked are computed, not kept", () => {
    const { next, differences } = followRegistry(
      OURS,
      view({ statuses: [{ s: "serverHold" }, { s: "pendingRenew" }, { s: "clientDeleteProhibited" }, { s: "linked" }] }),
      ours("con_a"),
    );
    expect(next.statuses).toEqual(["clientDeleteProhibited", "pendingRenew"]);
    expect(next.serverStatuses).toEqual(["serverHold"]);
    expect(differences).toEqual([{ field: "status", ours: ["clientTransferProhibited"], registry: ["clientDeleteProhibited", "pendingRenew", "serverHold"] }]);
  });

  it("the expiry, the name servers and the DS records become the registry's, each listed as it was and as it is", () => {
    const { next, differences } = followRegistry(OURS, view({ exDate: "2029-01-01T00:00:00.000Z", nameservers: ["ns9.example.fr"] }, []), ours("con_a"));
    expect(next).toMatchObject({ expiresAt: "2029-01-01T00:00:00.000Z", nameservers: ["ns9.example.fr"], ds: [] });
    expect(differences.map((d) => d.field)).toEqual(["expires_at", "nameservers", "ds"]);
  });

  it("a redemption period at the registry is pendingDelete here, and its end there undoes it", () => {
    const deleted = followRegistry(OURS, view({}, [SEC_DNS, { kind: "rgp:infData", rgpStatus: [{ s: "redemptionPeriod" }] }]), ours("con_a"));
    expect(deleted.next.deleted).toBe(true);
    expect(deleted.differences).toEqual([{ field: "pending_delete", ours: false, registry: true }]);
    expect(followRegistry({ ...OURS, deleted: true }, view(), ours("con_a")).next.deleted).toBe(false);
  });

  it("a registrant none of our contacts is there leaves the domain without one, and a second comparison finds nothing more", () => {
    const first = followRegistry(OURS, view({ registrant: "theirs1" }), ours(undefined));
    expect(first.next.registrantId).toBeNull();
    expect(first.differences).toEqual([{ field: "registrant", ours: "con_a", registry: "theirs1" }]);
    expect(followRegistry(first.next, view({ registrant: "theirs1" }), ours(undefined)).differences).toEqual([]);
  });

  it("a registrant that is another of our contacts is pointed at", () => {
    const { next, differences } = followRegistry(OURS, view({ registrant: "cb2" }), ours("con_b"));
    expect(next.registrantId).toBe("con_b");
    expect(differences).toEqual([{ field: "registrant", ours: "con_a", registry: "con_b" }]);
  });

  it("the admin, tech and billing contacts become the ones the registry names (each of ours it stands for), each listed as it was and as it is", () => {
    const registry = view({
      contacts: [
        { type: "admin", id: "cb2" },
        { type: "tech", id: "cb2" },
        { type: "billing", id: "cc3" },
      ],
    });
    expect(registry.contacts).toEqual({ admin: "cb2", tech: "cb2", billing: "cc3" });
    const { next, differences } = followRegistry(
      { ...OURS, adminId: "con_a", techId: "con_a" },
      registry,
      ours("con_a", { admin: "con_b", tech: "con_b", billing: "con_c" }),
    );
    expect(next).toMatchObject({ registrantId: "con_a", adminId: "con_b", techId: "con_b", billingId: "con_c" });
    expect(differences).toEqual([
      { field: "admin", ours: "con_a", registry: "con_b" },
      { field: "tech", ours: "con_a", registry: "con_b" },
      { field: "billing", ours: null, registry: "con_c" },
    ]);
  });

  it("a role the registry leaves empty is cleared here, and one it fills with no contact of ours leaves the domain without one, its id named", () => {
    const { next, differences } = followRegistry(
      { ...OURS, adminId: "con_a", techId: "con_a" },
      view({ contacts: [{ type: "tech", id: "theirs2" }] }),
      ours("con_a", { admin: null, tech: undefined }),
    );
    expect(next).toMatchObject({ adminId: null, techId: null, billingId: null });
    expect(differences).toEqual([
      { field: "admin", ours: "con_a", registry: null },
      { field: "tech", ours: "con_a", registry: "theirs2" },
    ]);
  });

  it("the auth_info becomes the one the registry's info shows its sponsor, its difference listed without either value; an info without one keeps ours", () => {
    const shown = followRegistry(OURS, view({ authInfo: "Registry-auth-99" }), ours("con_a"));
    expect(shown.next.authInfo).toBe("Registry-auth-99");
    expect(shown.differences).toEqual([{ field: "auth_info", ours: "not recorded", registry: "not recorded" }]);
    expect(JSON.stringify(shown.differences)).not.toContain("auth-");
    const hidden = followRegistry(OURS, view(), ours("con_a"));
    expect(hidden.next.authInfo).toBe(OURS.authInfo);
    expect(hidden.differences).toEqual([]);
  });
});
