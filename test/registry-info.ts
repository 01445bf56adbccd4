// A registry's `<domain:infData>` as the gateway hands it over (src/epp/types.ts): what the
// registry-message and settlement tests build their poll messages and info answers from.

/** The infData of `name`, ours (clID domain-api), `ok`, with no contacts or hosts: `fields` say what differs. */
export function domainInfData(name: string, roid: string, nameservers: readonly string[], fields: Record<string, unknown> = {}) {
  return {
    kind: "domain:infData",
    name,
    roid,
    statuses: [{ s: "ok" }],
    contacts: [],
    nameservers,
    hostAttrs: [],
    hosts: [],
    clID: "domain-api",
    ...fields,
  };
}
