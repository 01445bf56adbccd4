// LOC (RFC 1876): a location as latitude, longitude and altitude, with optional size
// and precisions. Presentation form (RFC 1876 §3):
//   d1 [m1 [s1]] {N|S} d2 [m2 [s2]] {E|W} alt[m] [siz[m] [hp[m] [vp[m]]]]
// read as BIND reads it (lib/dns/rdata/generic/loc_29.c) and written as BIND writes it:
// seconds with three decimals, metres with two, sizes as the power of ten they are stored
// as (size and precisions are one digit times a power of ten on the wire, so 15m reads back
// as 10m). Defaults: size 1m, horizontal precision 10000m, vertical precision 10m.
import { fail, ok, show, type Check } from "../result";
import { defineRdata } from "./descriptor";
import type { Token } from "./tokens";
import { concatWire, u32, u8 } from "./wire";

export interface Location {
  /** Size and precisions as stored: mantissa in the high nibble, power of ten (cm) in the low. */
  size: number;
  horizontalPrecision: number;
  verticalPrecision: number;
  /** Thousandths of an arc-second, offset by 2^31 (north and east are above). */
  latitude: number;
  longitude: number;
  /** Centimetres above a base 100 000 m below the WGS 84 ellipsoid. */
  altitude: number;
}

const EQUATOR = 2 ** 31;
const ALTITUDE_BASE = 10_000_000;
const DEFAULTS = { size: 0x12, horizontalPrecision: 0x16, verticalPrecision: 0x13 };
const SHAPE = "latitude, longitude, altitude and optional size and precisions";
const POWERS_OF_TEN = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000];

interface Cursor {
  tokens: Token[];
  at: number;
}

function plain(cursor: Cursor): string | null {
  const token = cursor.tokens[cursor.at];
  return token && !token.quoted ? token.raw : null;
}

function integer(cursor: Cursor, max: number, what: string): Check<number> {
  const raw = plain(cursor);
  if (raw === null || !/^[0-9]{1,10}$/.test(raw) || Number(raw) > max) return fail(`LOC ${what} must be an integer 0–${max}`);
  cursor.at++;
  return ok(Number(raw));
}

/** A coordinate: degrees, optional minutes and seconds, then the hemisphere letter. */
function coordinate(cursor: Cursor, hemispheres: "NS" | "EW", maxDegrees: number, what: string): Check<number> {
  const degrees = integer(cursor, maxDegrees, `${what} degrees`);
  if (!degrees.ok) return degrees;
  let minutes = 0;
  let thousandths = 0;
  const hemisphere = (): string | null => {
    const raw = plain(cursor);
    return raw !== null && raw.length === 1 && hemispheres.includes(raw) ? raw : null;
  };
  if (hemisphere() === null) {
    const m = integer(cursor, 59, `${what} minutes`);
    if (!m.ok) return m;
    minutes = m.value;
    if (hemisphere() === null) {
      const raw = plain(cursor);
      const seconds = raw === null ? null : /^([0-9]{1,2})(?:\.([0-9]{0,3}))?$/.exec(raw);
      if (!seconds || Number(seconds[1]) > 59) return fail(`LOC ${what} seconds must be 0–59.999, at most three decimals (RFC 1876 §3)`);
      thousandths = Number(seconds[1]) * 1000 + Number((seconds[2] ?? "").padEnd(3, "0"));
      cursor.at++;
    }
  }
  const letter = hemisphere();
  if (letter === null) return fail(`LOC ${what} needs ${hemispheres[0]} or ${hemispheres[1]} after its degrees, minutes and seconds (RFC 1876 §3)`);
  cursor.at++;
  if (degrees.value === maxDegrees && (minutes !== 0 || thousandths !== 0)) return fail(`LOC ${what} cannot be beyond ${maxDegrees} degrees`);
  const offset = (degrees.value * 3600 + minutes * 60) * 1000 + thousandths;
  return ok(letter === hemispheres[0] ? EQUATOR + offset : EQUATOR - offset);
}

/** Metres with at most two decimals and an optional "m", as centimetres; null when not that shape. */
function centimetres(raw: string): { metres: number; cm: number } | null {
  const match = /^([0-9]*)(?:\.([0-9]{0,2}))?m?$/.exec(raw);
  if (!match || (match[1] === "" && (match[2] ?? "") === "")) return null;
  const metres = Number(match[1] || "0");
  return { metres, cm: metres * 100 + Number((match[2] ?? "").padEnd(2, "0")) };
}

function altitude(cursor: Cursor): Check<number> {
  const raw = plain(cursor);
  const problem = "LOC altitude must be metres from -100000.00 to 42849672.95, at most two decimals, e.g. -24m or 10.5m (RFC 1876 §3)";
  if (raw === null) return fail(problem);
  const negative = raw.startsWith("-");
  const value = centimetres(negative ? raw.slice(1) : raw);
  if (value === null) return fail(problem);
  cursor.at++;
  if (negative) return value.cm <= ALTITUDE_BASE ? ok(ALTITUDE_BASE - value.cm) : fail(problem);
  return value.metres <= 42_849_672 && value.cm <= 2 ** 32 - 1 - ALTITUDE_BASE ? ok(ALTITUDE_BASE + value.cm) : fail(problem);
}

/** A size or precision as stored: the first digit of the centimetres and their power of ten. */
function precision(raw: string, what: string): Check<number> {
  const value = centimetres(raw);
  if (value === null || value.metres > 90_000_000) return fail(`LOC ${what} must be metres from 0 to 90000000, at most two decimals (RFC 1876 §3)`);
  // As BIND: whole metres keep only their first digit; below a metre, the centimetres.
  if (value.metres > 0) {
    let exponent = 0;
    while (exponent < 7 && value.metres >= POWERS_OF_TEN[exponent + 1]!) exponent++;
    return ok(((Math.floor(value.metres / POWERS_OF_TEN[exponent]!) << 4) | (exponent + 2)) & 0xff);
  }
  const cm = value.cm;
  return ok(cm >= 10 ? (Math.floor(cm / 10) << 4) | 1 : cm << 4);
}

function precisionText(stored: number): string {
  const mantissa = stored >> 4;
  const exponent = stored & 0x0f;
  return exponent > 1 ? `${mantissa * POWERS_OF_TEN[exponent - 2]!}m` : `0.${String(mantissa * POWERS_OF_TEN[exponent]!).padStart(2, "0")}m`;
}

function coordinateText(value: number, hemispheres: string): string {
  const north = value >= EQUATOR;
  let offset = north ? value - EQUATOR : EQUATOR - value;
  const thousandths = offset % 1000;
  offset = Math.floor(offset / 1000);
  const seconds = offset % 60;
  offset = Math.floor(offset / 60);
  const minutes = offset % 60;
  const degrees = Math.floor(offset / 60);
  return `${degrees} ${minutes} ${seconds}.${String(thousandths).padStart(3, "0")} ${north ? hemispheres[0] : hemispheres[1]}`;
}

function altitudeText(value: number): string {
  const below = value < ALTITUDE_BASE;
  const cm = below ? ALTITUDE_BASE - value : value - ALTITUDE_BASE;
  return `${below ? "-" : ""}${Math.floor(cm / 100)}.${String(cm % 100).padStart(2, "0")}m`;
}

/** A stored size or precision is valid when both nibbles are digits and 0 is the only value with mantissa 0. */
function validPrecision(stored: number): boolean {
  return stored === 0 || ((stored & 0x0f) <= 9 && stored >> 4 <= 9 && stored >> 4 !== 0);
}

export const LOC = defineRdata({
  type: "LOC",
  code: 29,
  shape: SHAPE,
  example: "52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m",
  tokens: { min: 5, max: 12 },
  parse(tokens) {
    const cursor: Cursor = { tokens, at: 0 };
    const latitude = coordinate(cursor, "NS", 90, "latitude");
    if (!latitude.ok) return latitude;
    const longitude = coordinate(cursor, "EW", 180, "longitude");
    if (!longitude.ok) return longitude;
    const height = altitude(cursor);
    if (!height.ok) return height;
    const sizes = [DEFAULTS.size, DEFAULTS.horizontalPrecision, DEFAULTS.verticalPrecision];
    const what = ["size", "horizontal precision", "vertical precision"];
    for (let i = 0; cursor.at < tokens.length; i++) {
      const raw = plain(cursor);
      if (i >= 3) return fail(`LOC has more than ${SHAPE}: unexpected ${show(tokens[cursor.at]!.raw)}`);
      const stored = raw === null ? fail(`LOC ${what[i]} must be metres, not a quoted string`) : precision(raw, what[i]!);
      if (!stored.ok) return stored;
      sizes[i] = stored.value;
      cursor.at++;
    }
    const [size, horizontalPrecision, verticalPrecision] = sizes as [number, number, number];
    return ok<Location>({ size, horizontalPrecision, verticalPrecision, latitude: latitude.value, longitude: longitude.value, altitude: height.value });
  },
  text: (f) =>
    `${coordinateText(f.latitude, "NS")} ${coordinateText(f.longitude, "EW")} ${altitudeText(f.altitude)} ` +
    `${precisionText(f.size)} ${precisionText(f.horizontalPrecision)} ${precisionText(f.verticalPrecision)}`,
  wire: (f) => concatWire(u8(0), u8(f.size), u8(f.horizontalPrecision), u8(f.verticalPrecision), u32(f.latitude), u32(f.longitude), u32(f.altitude)),
  names: () => [],
  fromWire(r) {
    // RFC 1876 §2: version 0 is the only format defined.
    if (r.u8() !== 0) r.fail("LOC version must be 0 (RFC 1876 §2)");
    const sizes = [r.u8(), r.u8(), r.u8()];
    if (!sizes.every(validPrecision)) r.fail("LOC size and precisions must each be a digit times a power of ten up to 9 (RFC 1876 §2)");
    const [latitude, longitude, height] = [r.u32(), r.u32(), r.u32()];
    if (Math.abs(latitude - EQUATOR) > 90 * 3_600_000) r.fail("LOC latitude is beyond 90 degrees");
    if (Math.abs(longitude - EQUATOR) > 180 * 3_600_000) r.fail("LOC longitude is beyond 180 degrees");
    if (r.failure !== null) return "";
    return `${coordinateText(latitude, "NS")} ${coordinateText(longitude, "EW")} ${altitudeText(height)} ${sizes.map(precisionText).join(" ")}`;
  },
});
