// The approval of a transfer between two of our accounts at a connected registry
// (docs/registries.md, "Transfers between our accounts"): the one <domain:update> that leaves
// the registry naming the gaining account's copies of the contacts with a new auth_info, built
// from what the registry's <domain:info> shows; and how the gateway tells, after that update's
// answer was lost, whether it took effect (src/epp/outcome.ts). End to end:
// scripts/registry-authority-e2e.mjs.
import { describe, expect, it } from "vitest";
import { contactsAndAuthInfoUpdate } from "../../src/connector/commands";
import { outcomeFromQuery } from "../../src/epp/outcome";
import type { DomainInfo, EppResponse } from "../../src/epp/types";

const LOSING = {
  registrant: "closing0000001",
  contacts: [
    { type: "admin" as const, id: "closing0000001" },
    { type: "tech" as const, id: "closing0000001" },
  ],
};
const COPIES = { registrant: "ccopy000000001", admin: "ccopy000000001", tech: "ccopy000000001", billing: null };

function infoAnswer(fields: Partial<DomainInfo>): EppResponse {
  const info: DomainInfo = {
    name: "moved.eu",
    roid: "1-EU",
    statuses: [{ s: "ok" }],
    contacts: [],
    nameservers: [],
    hostAttrs: [],
    hosts: [],
    clID: "domain-api",
    ...fields,
  } as DomainInfo;
  return {
    code: 1000,
    results: [{ code: 1000, msg: "ok", values: [], extValues: [] }],
    resData: [{ kind: "domain:infData", ...info }],
    extensions: [],
    trID: { svTRID: "LR-1" },
  } as EppResponse;
}

describe("the approval's <domain:update> leaves the registry naming exactly the copies, with the new auth_info", () => {
  it("from the losing account's contacts: chg registrant, add the copies, rem what the registry held, chg authInfo", () => {
    expect(contactsAndAuthInfoUpdate("moved.eu", LOSING, COPIES, "New-secret-1")).toEqual({
      kind: "domain:update",
      name: "moved.eu",
      add: {
        contacts: [
          { type: "admin", id: "ccopy000000001" },
          { type: "tech", id: "ccopy000000001" },
        ],
      },
      rem: {
        contacts: [
          { type: "admin", id: "closing0000001" },
          { type: "tech", id: "closing0000001" },
        ],
      },
      chg: { registrant: "ccopy000000001", authInfo: "New-secret-1" },
    });
  });

  it("built from what the registry holds: after an earlier attempt took effect, only the auth_info is sent (nothing removed that is gone)", () => {
    const held = {
      registrant: "ccopy000000001",
      contacts: [
        { type: "admin" as const, id: "ccopy000000001" },
        { type: "tech" as const, id: "ccopy000000001" },
      ],
    };
    expect(contactsAndAuthInfoUpdate("moved.eu", held, COPIES, "New-secret-2")).toEqual({
      kind: "domain:update",
      name: "moved.eu",
      chg: { authInfo: "New-secret-2" },
    });
  });

  it("a role the domain leaves empty here is removed at the registry; a domain without a registrant here keeps the registry's", () => {
    const held = { registrant: "closing0000001", contacts: [{ type: "billing" as const, id: "cother00000001" }] };
    expect(contactsAndAuthInfoUpdate("moved.eu", held, { registrant: null, admin: null, tech: null, billing: null }, "New-secret-3")).toEqual({
      kind: "domain:update",
      name: "moved.eu",
      rem: { contacts: [{ type: "billing", id: "cother00000001" }] },
      chg: { authInfo: "New-secret-3" },
    });
  });
});

describe("an update's lost answer is told by the registry's <domain:info>, its new auth_info included when the info shows it", () => {
  const update = contactsAndAuthInfoUpdate("moved.eu", LOSING, COPIES, "New-secret-1");
  const applied = {
    registrant: "ccopy000000001",
    contacts: [
      { type: "admin" as const, id: "ccopy000000001" },
      { type: "tech" as const, id: "ccopy000000001" },
    ],
  };

  it("applied when the contacts and the auth_info are the update's; not applied when none are", () => {
    expect(outcomeFromQuery(update, infoAnswer({ ...applied, authInfo: "New-secret-1" }), "domain-api")).toBe("applied");
    expect(outcomeFromQuery(update, infoAnswer({ ...LOSING, authInfo: "Old-secret-1" }), "domain-api")).toBe("not_applied");
  });

  it("unknown when the info shows no auth_info (a registry need not show it), or shows some changes and not others", () => {
    expect(outcomeFromQuery(update, infoAnswer(applied), "domain-api")).toBe("unknown");
    expect(outcomeFromQuery(update, infoAnswer({ ...applied, authInfo: "Old-secret-1" }), "domain-api")).toBe("unknown");
  });

  it("an update of the auth_info alone: applied or not by the info's authInfo, unknown without one", () => {
    const alone = { kind: "domain:update" as const, name: "moved.eu", chg: { authInfo: "New-secret-9" } };
    expect(outcomeFromQuery(alone, infoAnswer({ authInfo: "New-secret-9" }), "domain-api")).toBe("applied");
    expect(outcomeFromQuery(alone, infoAnswer({ authInfo: "Old-secret-9" }), "domain-api")).toBe("not_applied");
    expect(outcomeFromQuery(alone, infoAnswer({}), "domain-api")).toBe("unknown");
  });
});
