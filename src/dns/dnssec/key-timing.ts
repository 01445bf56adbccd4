// The waits of a key rollover, from the zone's own numbers (docs/dnssec-rollovers.md). The
// names are RFC 7583's (§3.2 and §3.3): every interval below is how long a change needs
// before no resolver can still hold what the change replaced, so that the next change is
// safe. All figures are seconds.

/** What the zone's side of a roll waits for: its TTLs and its servers. */
export interface ZoneTiming {
  /** TTLkey: the DNSKEY RRset's TTL (PowerDNS serves it with the SOA minimum). */
  dnskeyTtl: number;
  /**
   * TTLsig: the largest TTL of anything the zone serves signed, negative answers (the SOA
   * minimum, RFC 2308 §5) included. An RRSIG is cached as long as the RRset it covers.
   */
  maxZoneTtl: number;
  /** Dprp (DprpC): how long a change at the primary takes to reach every server of the tier. */
  propagationDelay: number;
  /**
   * Dsgn: how long after a key change the tier may still serve RRSIGs made under the keys
   * before it. 0 for online signing (PowerDNS signs every answer and every transfer with the
   * keys of the moment); a pre-signed zone re-signed incrementally would use its signature
   * validity minus its refresh, as BIND's sign delay does.
   */
  signingDelay: number;
}

/** What the parent's side of a roll waits for. */
export interface ParentTiming {
  /**
   * `managed`: a domain of this service, whose DS set the service changes at its repository
   * and reports as set (`dsSeen`); `external`: any other parent, which reads the zone's CDS
   * (RFC 7344) and whose DS set is observed.
   */
  kind: "managed" | "external";
  /** TTLds: the TTL of the DS RRset at the parent (per extension; 86 400 s unless it says). */
  dsTtl: number;
  /**
   * Dreg: how long the parent takes to publish a DS set after it was submitted (the builtin
   * registry: 0; an EPP registry: until it answers 1000, plus its publication delay).
   */
  registrationDelay: number;
  /** DprpP: how long a change at the parent takes to reach all of its servers (0 when unknown). */
  propagationDelay?: number;
  /** How long past Dreg a parent may lag before the roll reports `dnssec.rollover.stalled` (7 days). */
  stallAfter?: number;
  /** How often to look at a parent that is late (next_step_at while it lags; 3600 s). */
  pollInterval?: number;
}

/** Seven days: a parent this late is a problem for a person, not for a timer. */
export const DEFAULT_STALL_AFTER = 7 * 86_400;
/** An hour between looks at a parent that is late. */
export const DEFAULT_POLL_INTERVAL = 3600;
/** A day between looks at a parent that has not followed keys at rest (no roll waits for it). */
export const REST_POLL_INTERVAL = 86_400;

/** The intervals of RFC 7583 for one zone and its parent, in seconds. */
export interface KeyIntervals {
  /** RFC 7583 §3.2.1: Ipub = Dprp + TTLkey. A pre-published ZSK is in every cached DNSKEY RRset after it. */
  ipubZsk: number;
  /** RFC 7583 §3.2.1: Iret = Dsgn + Dprp + TTLsig. No cache holds an RRSIG of the retired ZSK after it. */
  iretZsk: number;
  /** RFC 7583 §3.3.1: IpubC = DprpC + TTLkey. A new KSK's DNSKEY is in every cached DNSKEY RRset after it. */
  ipubC: number;
  /** RFC 7583 §3.3.2: IpubP = DprpP + TTLds. Every cached DS RRset holds the new DS after it (counted from the DS being seen). */
  ipubP: number;
  /**
   * RFC 7583 §3.3.2: Iret = DprpC + TTLkey. After a double-DS swap, the old DS stays until no
   * cache holds a DNSKEY RRset signed only by the old KSK.
   */
  iretKsk: number;
  /**
   * A combined key retires as a KSK (RFC 7583 §3.3.2) and as a ZSK (§3.2.1) at once:
   * Iret = Dsgn + DprpC + max(TTLkey, TTLsig). No cache holds a DNSKEY RRset or an RRSIG of the
   * old key after it.
   */
  iretCsk: number;
  /**
   * RFC 6781 §4.1.4 ("new RRSIGs": wait until every cached RRset has the new algorithm's
   * signatures) and RFC 7583 §3.3.5 (the first key: every cached RRset signed before a DS
   * points at the key): Dsgn + Dprp + max(TTLkey, TTLsig).
   */
  ipubSig: number;
  /**
   * RFC 6781 §4.1.4 ("DNSKEY removal" to "RRSIGs removal"): the old algorithm's signatures
   * stay until no cache holds a DNSKEY RRset with its keys, Dprp + TTLkey, so a validator that
   * wants every algorithm of the DNSKEY RRset on every RRset is never left short.
   */
  iretAlgorithm: number;
}

/** TTLsig never below TTLkey: the DNSKEY RRset is itself a signed RRset of the zone. */
function ttlSig(zone: ZoneTiming): number {
  return Math.max(zone.maxZoneTtl, zone.dnskeyTtl);
}

export function keyIntervals(zone: ZoneTiming, parent: ParentTiming): KeyIntervals {
  const dprp = zone.propagationDelay;
  const dsgn = zone.signingDelay;
  const ttlKey = zone.dnskeyTtl;
  return {
    ipubZsk: dprp + ttlKey,
    iretZsk: dsgn + dprp + ttlSig(zone),
    ipubC: dprp + ttlKey,
    ipubP: (parent.propagationDelay ?? 0) + parent.dsTtl,
    iretKsk: dprp + ttlKey,
    iretCsk: dsgn + dprp + Math.max(ttlKey, ttlSig(zone)),
    ipubSig: dsgn + dprp + ttlSig(zone),
    iretAlgorithm: dprp + ttlKey,
  };
}

/**
 * What a roll of each kind runs through, start to end, when every run is on time and the
 * parent publishes each DS set exactly Dreg after it was submitted:
 *
 * - `zsk` (pre-publication, RFC 7583 §3.2.1): Ipub + Iret.
 * - `ksk` (double-DS, §3.3.2): Dreg + IpubP (the new DS in every cache), Iret (DprpC + TTLkey),
 *   Dreg (the parent drops the old DS).
 * - `csk` (double-DS for a key that also signs the zone, or a change between one combined key
 *   and a KSK with a ZSK): max(IpubC, Dreg + IpubP), Iret (as a KSK and a ZSK at once), Dreg.
 * - `algorithm` (RFC 6781 §4.1.4): new signatures, new DNSKEYs, new DS, old DNSKEYs out, old
 *   signatures out: (Dsgn + Dprp + TTLsig) + IpubC + Dreg + IpubP + (Dprp + TTLkey).
 * - `sign` (the first keys, RFC 7583 §3.3.5): Dsgn + Dprp + TTLsig before the DS goes up, + Dreg.
 * - `unsign`: Dreg (the DS goes) + IpubP (no cache holds it) before the keys go.
 */
export type RollDurationKind = "zsk" | "ksk" | "csk" | "algorithm" | "sign" | "unsign";

export function rollDuration(kind: RollDurationKind, zone: ZoneTiming, parent: ParentTiming): number {
  const i = keyIntervals(zone, parent);
  const dreg = parent.registrationDelay;
  switch (kind) {
    case "zsk":
      return i.ipubZsk + i.iretZsk;
    case "ksk":
      return dreg + i.ipubP + i.iretKsk + dreg;
    case "csk":
      return Math.max(i.ipubC, dreg + i.ipubP) + i.iretCsk + dreg;
    case "algorithm":
      return i.ipubSig + i.ipubC + dreg + i.ipubP + i.iretAlgorithm;
    case "sign":
      return i.ipubSig + dreg;
    case "unsign":
      return dreg + i.ipubP;
  }
}
