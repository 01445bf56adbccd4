// ZONEMD (RFC 8976 §2): the zone's serial, a scheme, a hash algorithm and the digest of
// the zone. Its length is fixed for SHA-384 and SHA-512 and at least 12 octets otherwise
// (RFC 8976 §2.2.4). The service keeps it as data; a zone changed after it was computed
// no longer matches it.
import { fail, ok } from "../result";
import { defineRdata } from "./descriptor";
import { hexField, uintField } from "./fields";
import { concatWire, hexOctets, hexText, u32, u8 } from "./wire";

// RFC 8976 §5.3: hash algorithms 1 SHA-384 (48 octets), 2 SHA-512 (64 octets).
const DIGEST_OCTETS: Record<number, number> = { 1: 48, 2: 64 };

export const ZONEMD = defineRdata({
  type: "ZONEMD",
  code: 63,
  shape: "serial, scheme, hash algorithm and digest",
  example: "2018031900 1 1 C68090D90A7AED716BC459F9340E3D7C1370D4D24B7E2FC3A1DDC0B9A87153B9A9713B3C9AE5CC27777F98B8E730044C",
  tokens: { min: 4, max: Number.POSITIVE_INFINITY },
  parse(tokens) {
    const serial = uintField(tokens[0], 4294967295, "ZONEMD serial");
    if (!serial.ok) return serial;
    const scheme = uintField(tokens[1], 255, "ZONEMD scheme");
    if (!scheme.ok) return scheme;
    if (scheme.value === 0) return fail("ZONEMD scheme 0 is reserved (RFC 8976 §5.2)");
    const algorithm = uintField(tokens[2], 255, "ZONEMD hash algorithm");
    if (!algorithm.ok) return algorithm;
    if (algorithm.value === 0) return fail("ZONEMD hash algorithm 0 is reserved (RFC 8976 §5.3)");
    const digest = hexField(tokens.slice(3), "ZONEMD digest");
    if (!digest.ok) return digest;
    const octets = digest.value.length / 2;
    const want = DIGEST_OCTETS[algorithm.value];
    if (want !== undefined && octets !== want) return fail(`ZONEMD digest for hash algorithm ${algorithm.value} must be ${want} octets, not ${octets}`);
    if (octets < 12) return fail(`ZONEMD digest must be at least 12 octets, not ${octets} (RFC 8976 §2.2.4)`);
    return ok({ serial: serial.value, scheme: scheme.value, algorithm: algorithm.value, digest: digest.value });
  },
  text: ({ serial, scheme, algorithm, digest }) => `${serial} ${scheme} ${algorithm} ${digest}`,
  wire: ({ serial, scheme, algorithm, digest }) => concatWire(u32(serial), u8(scheme), u8(algorithm), hexOctets(digest)),
  names: () => [],
  fromWire: (r) => `${r.u32()} ${r.u8()} ${r.u8()} ${hexText(r.rest())}`,
});
