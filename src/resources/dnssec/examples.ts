// The DNSSEC examples in the OpenAPI document: the example world's zone signed
// (docs/dnssec.md), with RFC 6605 §6.1's public key as the example key, and unsigned.
import { CREATED } from "../../http/example-world";

export const DNSSEC_STATE_EXAMPLE = {
  enabled: true,
  denial: "nsec",
  keys: [
    {
      id: "key_01JD0000000000000000000000",
      key_tag: 55648,
      algorithm: 13,
      flags: 257,
      active: true,
      role: "csk",
      state: "active",
      ds_state: "seen",
      next_step_at: null,
      dnskey: "257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==",
      ds: [
        "55648 13 2 5CF0895FFC0F5544C1260E1F35ED9B80A648D87B8AA335312B552EC003D1D830",
        "55648 13 4 4A73889EA34599AF1FE38084DEB3E601C800A17E0483F59BF9314841462197CEBD188E14CB1797EEFF7D62DDC7E134EC",
      ],
      created_at: CREATED,
    },
  ],
  policy: { algorithm: 13, ksk_lifetime_days: 365, zsk_lifetime_days: null, single_key: true },
  rollover: null,
  next_step_at: "2027-11-22T09:30:00.000Z",
  awaiting_parent: null,
};

/** A zone that is not signed, with the default policy. */
export const DNSSEC_OFF_EXAMPLE = {
  enabled: false,
  keys: [] as never[],
  policy: { algorithm: 13, ksk_lifetime_days: null, zsk_lifetime_days: null, single_key: true },
  rollover: null,
  next_step_at: null,
  awaiting_parent: null,
};

/** A yearly roll of the combined key. */
export const DNSSEC_POLICY_PATCH_EXAMPLE = { policy: { ksk_lifetime_days: 365 } };

/** The zone leaving DNSSEC through a parent not managed here (RFC 8078): its DS withdrawn, the delete published, the key still signing. */
export const DNSSEC_UNSIGNING_EXAMPLE = {
  ...DNSSEC_STATE_EXAMPLE,
  keys: [{ ...DNSSEC_STATE_EXAMPLE.keys[0]!, ds_state: "withdrawn", next_step_at: null }],
  policy: { algorithm: 13, ksk_lifetime_days: null, zsk_lifetime_days: null, single_key: true },
  rollover: { kind: "unsign", started_at: "2027-03-01T09:30:00.000Z", stalled_at: null },
  next_step_at: "2027-03-01T10:30:00.000Z",
  awaiting_parent: { since: "2027-03-01T09:30:00.000Z", expected_at: "2027-03-01T09:30:00.000Z", stalls_at: "2027-03-08T09:30:00.000Z" },
};
