// The namespaces the codec speaks, and the prefixes it writes them with (a reader goes by
// the URI alone: any prefix, or none, is read the same).

export const NS = {
  /** RFC 5730 */
  epp: "urn:ietf:params:xml:ns:epp-1.0",
  /** RFC 5730, shared types */
  eppcom: "urn:ietf:params:xml:ns:eppcom-1.0",
  /** RFC 5731 */
  domain: "urn:ietf:params:xml:ns:domain-1.0",
  /** RFC 5732 */
  host: "urn:ietf:params:xml:ns:host-1.0",
  /** RFC 5733 */
  contact: "urn:ietf:params:xml:ns:contact-1.0",
  /** RFC 5910 */
  secDNS: "urn:ietf:params:xml:ns:secDNS-1.1",
  /** RFC 3915 */
  rgp: "urn:ietf:params:xml:ns:rgp-1.0",
  /** RFC 8748 */
  fee: "urn:ietf:params:xml:ns:epp:fee-1.0",
} as const;

/** The object mappings this service uses (a login's `<objURI>`s are these ∩ the greeting's). */
export const OBJECT_URIS: readonly string[] = [NS.domain, NS.host, NS.contact];

/** The extensions this service uses (a login's `<extURI>`s are these ∩ the greeting's). */
export const EXTENSION_URIS: readonly string[] = [NS.secDNS, NS.rgp, NS.fee];

/** The prefix each namespace is written with; EPP's own is the default namespace. */
export const PREFIXES: Readonly<Record<string, string>> = {
  [NS.epp]: "",
  [NS.domain]: "domain",
  [NS.host]: "host",
  [NS.contact]: "contact",
  [NS.secDNS]: "secDNS",
  [NS.rgp]: "rgp",
  [NS.fee]: "fee",
};
