// A zone's signing policy (contract §22, docs/dnssec-rollovers.md): the algorithm, whether one
// combined key signs everything, and how long keys live. The default is BIND's default
// policy: one combined signing key (CSK), ECDSA P-256 with SHA-256, never rolled.
import { type ParentTiming, rollDuration, type ZoneTiming } from "./key-timing";

/**
 * The algorithms a zone may be signed with: those RFC 8624 §3.1 says to sign with (8
 * RSASHA256, 13 ECDSAP256SHA256, 15 ED25519) and 14 (ECDSAP384SHA384, "MAY"), the ones
 * validators are required or recommended to validate.
 */
export const SIGNING_ALGORITHMS = [8, 13, 14, 15] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

export interface SigningPolicy {
  algorithm: SigningAlgorithm;
  /** Days a KSK (or the combined key) signs before it is rolled; null: never rolled. */
  ksk_lifetime_days: number | null;
  /** Days a ZSK signs before it is rolled; null: never rolled. Only with `single_key: false`. */
  zsk_lifetime_days: number | null;
  /** One combined key signs everything (true), or a KSK signs the DNSKEY RRset and a ZSK the rest. */
  single_key: boolean;
}

export const DEFAULT_SIGNING_POLICY: SigningPolicy = { algorithm: 13, ksk_lifetime_days: null, zsk_lifetime_days: null, single_key: true };

/** Ten years: a longer lifetime is "never" said another way, and `null` says that. */
export const MAX_LIFETIME_DAYS = 3650;

export function isSigningAlgorithm(n: unknown): n is SigningAlgorithm {
  return typeof n === "number" && (SIGNING_ALGORITHMS as readonly number[]).includes(n);
}

/** A policy as a request may write it, before it is known to be one. */
export interface SigningPolicyInput {
  algorithm: number;
  ksk_lifetime_days: number | null;
  zsk_lifetime_days: number | null;
  single_key: boolean;
}

/** A field a policy rule refuses (the shape of `FieldError` in src/registry, which src/dns may not import). */
export interface PolicyFieldError {
  field: string;
  message: string;
}

/**
 * What is wrong with `policy` for a zone with these timings, as field errors under
 * `policy.`: an algorithm the service does not sign with, a lifetime that is not a whole
 * number of days from 1 to 3650, a ZSK lifetime for a zone without a ZSK, or a lifetime
 * shorter than the roll it starts (the next roll would be due before this one ended).
 */
export function signingPolicyErrors(policy: SigningPolicyInput, zone: ZoneTiming, parent: ParentTiming): PolicyFieldError[] {
  const errors: PolicyFieldError[] = [];
  if (!isSigningAlgorithm(policy.algorithm)) {
    errors.push({
      field: "policy.algorithm",
      message: `must be one of ${SIGNING_ALGORITHMS.join(", ")} (RSASHA256, ECDSAP256SHA256, ECDSAP384SHA384, ED25519: RFC 8624 §3.1)`,
    });
  }
  const lifetime = (field: "ksk_lifetime_days" | "zsk_lifetime_days", roll: "ksk" | "csk" | "zsk") => {
    const days = policy[field];
    if (days === null) return;
    if (!Number.isInteger(days) || days < 1 || days > MAX_LIFETIME_DAYS) {
      errors.push({
        field: `policy.${field}`,
        message: `must be a whole number of days from 1 to ${MAX_LIFETIME_DAYS}, or null for a key that is never rolled`,
      });
      return;
    }
    const needed = rollDuration(roll, zone, parent);
    if (days * 86_400 < needed) {
      errors.push({
        field: `policy.${field}`,
        message: `must be at least ${Math.ceil(needed / 86_400)} days: a ${roll.toUpperCase()} roll of this zone takes ${needed} s (its TTLs and its parent's)`,
      });
    }
  };
  lifetime("ksk_lifetime_days", policy.single_key ? "csk" : "ksk");
  if (policy.single_key && policy.zsk_lifetime_days !== null) {
    errors.push({
      field: "policy.zsk_lifetime_days",
      message: "must be null with single_key: one combined key has no ZSK (ksk_lifetime_days is its lifetime)",
    });
  } else {
    lifetime("zsk_lifetime_days", "zsk");
  }
  return errors;
}
