// SOA serials in the YYYYMMDDnn convention, compared with RFC 1982 serial-number
// arithmetic (SERIAL_BITS = 32), so a serial keeps "rising" for secondaries even when
// it wraps past 2^32 - 1 or was set ahead of today's date.

const SERIAL_SPACE = 2 ** 32;
const HALF_SPACE = 2 ** 31;

/** YYYYMMDD00 for the UTC date of `now`: the first serial of that day. */
export function dateSerialBase(now: Date): number {
  return (now.getUTCFullYear() * 10000 + (now.getUTCMonth() + 1) * 100 + now.getUTCDate()) * 100;
}

/** The serial of a new zone: today's first, YYYYMMDD00. */
export function initialSerial(now: Date): number {
  return dateSerialBase(now);
}

/**
 * RFC 1982 §3.2: a > b when (a < b and b - a > 2^31) or (a > b and a - b < 2^31);
 * equivalently, when (a - b) mod 2^32 lies in 1 … 2^31 - 1. Serials 2^31 apart are
 * incomparable: neither is greater.
 */
export function serialGreaterThan(a: number, b: number): boolean {
  const distance = (((a - b) % SERIAL_SPACE) + SERIAL_SPACE) % SERIAL_SPACE;
  return distance >= 1 && distance < HALF_SPACE;
}

/**
 * The serial after `current`: today's YYYYMMDD00 when that is greater (RFC 1982),
 * else current + 1, wrapping at 2^32 (RFC 1982 §3.1 addition, n = 1).
 */
export function nextSerial(current: number, now: Date): number {
  const base = dateSerialBase(now);
  return serialGreaterThan(base, current) ? base : (current + 1) % SERIAL_SPACE;
}

/**
 * A SQLite expression computing `nextSerial(<column>, today)` from the stored value,
 * so an UPDATE can bump the serial in the same batch as the change it records, with no
 * read-modify-write race:
 *
 *   UPDATE zones SET soa_serial = <expression> WHERE id = ?
 *
 * It is the same arithmetic as `nextSerial`, term by term: `((B - s) % 2^32 + 2^32) %
 * 2^32` is (B - s) mod 2^32 (SQLite's % keeps the dividend's sign, hence the + 2^32);
 * a distance in 1 … 2^31 - 1 means B > s in RFC 1982 terms, so the result is B; else
 * (s + 1) % 2^32. SQLite integers are 64-bit, so no intermediate overflows.
 * `todayBase` is `dateSerialBase(now)` computed by the caller (the Worker's clock, not
 * the database's), inlined as an integer literal.
 */
export function serialSqlExpression(column: string, todayBase: number): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(column)) {
    throw new Error(`serialSqlExpression: ${JSON.stringify(column)} is not a plain column name`);
  }
  if (!Number.isInteger(todayBase) || todayBase < 0 || todayBase >= SERIAL_SPACE) {
    throw new Error(`serialSqlExpression: ${todayBase} is not a 32-bit serial`);
  }
  return (
    `(CASE WHEN ((${todayBase} - ${column}) % ${SERIAL_SPACE} + ${SERIAL_SPACE}) % ${SERIAL_SPACE} ` +
    `BETWEEN 1 AND ${HALF_SPACE - 1} THEN ${todayBase} ELSE (${column} + 1) % ${SERIAL_SPACE} END)`
  );
}
