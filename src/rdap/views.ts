// RDAP views (RFC 9083) of the API's own JSON representations: pure functions from the
// presented domain, host and contact to the domain, nameserver and entity objects. They
// pick the fields they show, so nothing else (`auth_info`) can leak into RDAP.
import type {
  JCardPropertyValue,
  RdapDomainResponse,
  RdapEntity,
  RdapEntityResponse,
  RdapError,
  RdapEvent,
  RdapLink,
  RdapNameserver,
  RdapNameserverResponse,
  RdapRedacted,
} from "./schemas";
import { RDAP_MEDIA_TYPE } from "./schemas";

export interface ContactView {
  id: string;
  name: string;
  organization: string | null;
  email: string;
  phone: string | null;
  fax: string | null;
  address: { street: string[]; city: string | null; state: string | null; postal_code: string | null; country_code: string | null };
  privacy: boolean;
  status: readonly string[];
  created_at: string;
  updated_at: string;
}

export interface HostView {
  id: string;
  name: string;
  unicode_name: string;
  addresses: readonly string[];
  status: readonly string[];
  created_at: string;
  updated_at: string;
}

export interface DomainView {
  id: string;
  name: string;
  unicode_name: string;
  status: readonly string[];
  registrant: string | null;
  contacts: { admin: string | null; tech: string | null; billing: string | null };
  nameservers: readonly string[];
  expires_at: string;
  /** DS data for the parent zone (RFC 5910), shown as RFC 9083 §5.3 secureDNS. */
  ds?: readonly { key_tag: number; algorithm: number; digest_type: number; digest: string }[];
  /** What a connected repository's registry says of the domain: its ROID, and its sponsor there when not this service. */
  registry?: { roid: string | null; registrar: string | null } | null;
  created_at: string;
  updated_at: string;
}

/**
 * A name server of the domain whose host object the viewer cannot see (another account's
 * host): only its name, which the domain's own representation shows too.
 */
export interface NameserverNameView {
  name: string;
  unicode_name: string;
}

/** Where links point: the API's base URL, e.g. `https://api.example/v1`. */
export interface RdapContext {
  baseUrl: string;
}

const LEVEL_0 = "rdap_level_0";
const REDACTED = "redacted";

// RFC 8056 §2: EPP statuses in RDAP wording. The rest follow the same rule
// (clientTransferProhibited → "client transfer prohibited").
const STATUS_WORDING: Record<string, string> = { ok: "active", linked: "associated", inactive: "inactive" };

export function rdapStatus(eppStatus: string): string {
  return STATUS_WORDING[eppStatus] ?? eppStatus.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}

function selfLink(href: string): RdapLink[] {
  return [{ value: href, rel: "self", href, type: RDAP_MEDIA_TYPE }];
}

function lifecycleEvents(object: { created_at: string; updated_at: string }, expiresAt?: string): RdapEvent[] {
  const events: RdapEvent[] = [{ eventAction: "registration", eventDate: object.created_at }];
  if (expiresAt !== undefined) events.push({ eventAction: "expiration", eventDate: expiresAt });
  events.push({ eventAction: "last changed", eventDate: object.updated_at });
  return events;
}

export function rdapNameserver(host: HostView, context: RdapContext): RdapNameserver {
  return {
    objectClassName: "nameserver",
    handle: host.id,
    ldhName: host.name,
    unicodeName: host.unicode_name,
    ipAddresses: { v4: host.addresses.filter((a) => !a.includes(":")), v6: host.addresses.filter((a) => a.includes(":")) },
    status: host.status.map(rdapStatus),
    events: lifecycleEvents(host),
    links: selfLink(`${context.baseUrl}/hosts/${host.name}`),
  };
}

// RFC 9537 redacted names registered for gTLD registration data; other fields get a
// description instead of a type.
const REGISTERED_REDACTION_NAMES = new Set([
  "Registrant Name",
  "Registrant Organization",
  "Registrant Street",
  "Registrant City",
  "Registrant Postal Code",
  "Registrant Phone",
  "Registrant Fax",
  "Registrant Email",
  "Tech Name",
  "Tech Phone",
  "Tech Email",
]);

const ROLE_LABELS: Record<string, string> = { registrant: "Registrant", administrative: "Admin", technical: "Tech", billing: "Billing" };

const PRIVACY_REASON = { description: "The contact asked for its data to be withheld (privacy)." };

/** One redacted field, by removal (`prePath`) or by empty value (`postPath`). */
function redaction(label: string, field: string, method: "removal" | "emptyValue", path: string): RdapRedacted {
  const name = `${label} ${field}`;
  return {
    name: REGISTERED_REDACTION_NAMES.has(name) ? { type: name } : { description: name },
    ...(method === "removal" ? { prePath: path } : { postPath: path }),
    pathLang: "jsonpath",
    method,
    reason: PRIVACY_REASON,
  };
}

function streetValue(street: readonly string[]): string | string[] {
  return street.length === 1 ? street[0]! : street.length === 0 ? "" : [...street];
}

/**
 * The contact's jCard (RFC 7095), and what redaction took out of it. A private contact
 * (RFC 9537) keeps `fn` with an empty value (vCard requires it) and its address with the
 * street, city and postal code emptied (region and country stay, as in RFC 9537 §5);
 * organization, email and telephone numbers are removed.
 */
function contactCard(contact: ContactView, label: string, at: string): { vcardArray: RdapEntity["vcardArray"]; redacted: RdapRedacted[] } {
  const hide = contact.privacy;
  const redacted: RdapRedacted[] = [];
  const property = (name: string) => `${at}.vcardArray[1][?(@[0]=='${name}')]`;
  const props: JCardPropertyValue[] = [["version", {}, "text", "4.0"]];

  props.push(["fn", {}, "text", hide ? "" : contact.name]);
  if (hide) redacted.push(redaction(label, "Name", "emptyValue", `${property("fn")}[3]`));
  if (contact.organization !== null) {
    if (hide) redacted.push(redaction(label, "Organization", "removal", property("org")));
    else props.push(["org", {}, "text", contact.organization]);
  }
  if (hide) redacted.push(redaction(label, "Email", "removal", property("email")));
  else props.push(["email", {}, "text", contact.email]);
  for (const [number, type, field] of [
    [contact.phone, "voice", "Phone"],
    [contact.fax, "fax", "Fax"],
  ] as const) {
    if (number === null) continue;
    if (hide) redacted.push(redaction(label, field, "removal", `${at}.vcardArray[1][?(@[0]=='tel' && @[1].type=='${type}')]`));
    else props.push(["tel", { type }, "uri", `tel:${number}`]);
  }

  const { street, city, state, postal_code, country_code } = contact.address;
  if (street.length > 0 || city !== null || state !== null || postal_code !== null || country_code !== null) {
    const adr = property("adr");
    const emptied = (value: string | null, index: number, field: string): string => {
      if (!hide || value === null) return value ?? "";
      redacted.push(redaction(label, field, "emptyValue", `${adr}[3][${index}]`));
      return "";
    };
    let streetPart = streetValue(street);
    if (hide && street.length > 0) {
      redacted.push(redaction(label, "Street", "emptyValue", `${adr}[3][2]`));
      streetPart = "";
    }
    // ADR components (RFC 6350 §6.3.1): PO box, extended, street, locality, region, code, country.
    props.push([
      "adr",
      country_code ? { cc: country_code } : {},
      "text",
      ["", "", streetPart, emptied(city, 3, "City"), state ?? "", emptied(postal_code, 5, "Postal Code"), country_code ?? ""],
    ]);
  }
  return { vcardArray: ["vcard", props], redacted };
}

function entity(contact: ContactView, roles: string[] | undefined, context: RdapContext, at: string): { entity: RdapEntity; redacted: RdapRedacted[] } {
  const label = roles?.[0] ? ROLE_LABELS[roles[0]]! : "Contact";
  const { vcardArray, redacted } = contactCard(contact, label, at);
  return {
    entity: {
      objectClassName: "entity",
      handle: contact.id,
      vcardArray,
      ...(roles ? { roles } : {}),
      status: contact.status.map(rdapStatus),
      events: lifecycleEvents(contact),
      links: selfLink(`${context.baseUrl}/contacts/${contact.id}`),
    },
    redacted,
  };
}

/** The sponsoring account as an entity (RFC 9083 §5.1): its id as the handle, its name as the vCard's fn. */
function registrarEntity(sponsor: { id: string; name: string }, context: RdapContext): RdapEntity {
  return {
    objectClassName: "entity",
    handle: sponsor.id,
    vcardArray: [
      "vcard",
      [
        ["version", {}, "text", "4.0"],
        ["fn", {}, "text", sponsor.name],
        ["kind", {}, "text", "org"],
      ],
    ],
    roles: ["registrar"],
    status: ["active"],
    events: [],
    links: selfLink(`${context.baseUrl}/accounts/${sponsor.id}`),
  };
}

/** Another registrar that sponsors the domain at a connected registry: its EPP clID as the handle and the vCard's fn. */
function otherRegistrarEntity(clID: string): RdapEntity {
  return {
    objectClassName: "entity",
    handle: clID,
    vcardArray: [
      "vcard",
      [
        ["version", {}, "text", "4.0"],
        ["fn", {}, "text", clID],
        ["kind", {}, "text", "org"],
      ],
    ],
    roles: ["registrar"],
    status: ["active"],
    events: [],
    links: [],
  };
}

function conformance(redacted: readonly RdapRedacted[]) {
  return redacted.length > 0 ? { rdapConformance: [LEVEL_0, REDACTED], redacted: [...redacted] } : { rdapConformance: [LEVEL_0] };
}

export function rdapEntityResponse(contact: ContactView, context: RdapContext): RdapEntityResponse {
  const { entity: view, redacted } = entity(contact, undefined, context, "$");
  return { ...view, ...conformance(redacted) };
}

export function rdapNameserverResponse(host: HostView, context: RdapContext): RdapNameserverResponse {
  return { ...rdapNameserver(host, context), rdapConformance: [LEVEL_0] };
}

/**
 * The domain object (RFC 9083 §5.3). `roidSuffix` is the repository's (RFC 5730 §2.8 ROID
 * form `id-SUFFIX`); `hosts` and `contacts` are the objects the domain names.
 */
export function rdapDomainResponse(
  domain: DomainView,
  linked: {
    roidSuffix: string;
    /** The hosts of the domain's name servers: the host objects the viewer sees, the names of the others. */
    hosts: readonly (HostView | NameserverNameView)[];
    contacts: readonly ContactView[];
    lastTransferAt?: string | null;
    /** The sponsoring account (EPP clID), shown as the registrar entity. */
    sponsor?: { id: string; name: string } | null;
    /** False while the domain is on hold (RFC 5731 §2.3): its name servers and DS are not published. */
    delegationPublished?: boolean;
  },
  context: RdapContext,
): RdapDomainResponse {
  const published = linked.delegationPublished ?? true;
  const hostsByName = new Map(linked.hosts.map((h) => [h.name, h]));
  const nameservers = (published ? domain.nameservers : []).flatMap((name) => {
    const host = hostsByName.get(name);
    if (!host) return [];
    // RFC 9083 §5.2 requires no member but objectClassName; the name is what the domain itself shows.
    return "id" in host ? [rdapNameserver(host, context)] : [{ objectClassName: "nameserver" as const, ldhName: host.name, unicodeName: host.unicode_name }];
  });

  // One entity per contact, with every role it holds here (RFC 9083 §10.2.4 role names).
  const roles = new Map<string, string[]>();
  for (const [role, id] of [
    ["registrant", domain.registrant],
    ["administrative", domain.contacts.admin],
    ["technical", domain.contacts.tech],
    ["billing", domain.contacts.billing],
  ] as const) {
    if (id !== null) roles.set(id, [...(roles.get(id) ?? []), role]);
  }
  const contactsById = new Map(linked.contacts.map((c) => [c.id, c]));
  const entities: RdapEntity[] = [];
  const redacted: RdapRedacted[] = [];
  for (const [id, contactRoles] of roles) {
    const contact = contactsById.get(id);
    if (!contact) continue;
    const view = entity(contact, contactRoles, context, `$.entities[?(@.handle=='${id}')]`);
    entities.push(view.entity);
    redacted.push(...view.redacted);
  }

  // RFC 9083 §10.2.4 role "registrar": the account that sponsors the domain here, or, when a
  // connected registry names another registrar as its sponsor, that registrar (its clID).
  const otherRegistrar = domain.registry?.registrar ?? null;
  if (otherRegistrar !== null) entities.push(otherRegistrarEntity(otherRegistrar));
  else if (linked.sponsor) entities.push(registrarEntity(linked.sponsor, context));

  return {
    objectClassName: "domain",
    // The registry's own ROID (RFC 5730 §2.8) when a connected registry gave one; else ours in its form.
    handle: domain.registry?.roid ?? `${domain.id}-${linked.roidSuffix}`,
    ldhName: domain.name,
    unicodeName: domain.unicode_name,
    status: domain.status.map(rdapStatus),
    // RFC 9083 §10.2.3 eventAction "transfer": the last completed transfer between sponsors.
    events: linked.lastTransferAt
      ? [...lifecycleEvents(domain, domain.expires_at), { eventAction: "transfer", eventDate: linked.lastTransferAt }]
      : lifecycleEvents(domain, domain.expires_at),
    nameservers,
    // RFC 9083 §5.3: the delegation is signed when the parent holds DS data for it.
    secureDNS: {
      delegationSigned: published && (domain.ds ?? []).length > 0,
      dsData: (published ? (domain.ds ?? []) : []).map((d) => ({ keyTag: d.key_tag, algorithm: d.algorithm, digestType: d.digest_type, digest: d.digest })),
    },
    entities,
    links: selfLink(`${context.baseUrl}/domains/${domain.name}`),
    ...(published
      ? {}
      : {
          remarks: [
            {
              title: "Delegation not published",
              description: ["The domain is on hold (RFC 5731 §2.3): the registry publishes neither its name servers nor its DS until the hold is lifted."],
            },
          ],
        }),
    ...conformance(redacted),
  };
}

/** RFC 9083 §6: an error in RDAP form, from the problem the API would have answered. */
export function rdapError(problem: { status: number; title: string; detail: string }): RdapError {
  return { rdapConformance: [LEVEL_0], errorCode: problem.status, title: problem.title, description: [problem.detail] };
}
