import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dateSerialBase, initialSerial, nextSerial, serialGreaterThan, serialSqlExpression } from "../src/dns/serial";

const day = new Date("2026-11-22T09:30:00.000Z");
const MAX = 2 ** 32 - 1;

/** RFC 1982 §3.2 written out literally, to check the modular form against. */
function rfc1982GreaterThan(i1: number, i2: number): boolean {
  return (i1 < i2 && i2 - i1 > 2 ** 31) || (i1 > i2 && i1 - i2 < 2 ** 31);
}

describe("date-based serial", () => {
  it("is YYYYMMDD00 for the UTC date", () => {
    expect(dateSerialBase(day)).toBe(2026112200);
    expect(dateSerialBase(new Date("2026-01-05T23:59:59.999Z"))).toBe(2026010500);
    expect(dateSerialBase(new Date("2026-01-05T23:30:00-02:00"))).toBe(2026010600);
  });
  it("starts a new zone at today's first serial", () => {
    expect(initialSerial(day)).toBe(2026112200);
  });
});

describe("serialGreaterThan (RFC 1982 §3.2)", () => {
  it("orders nearby serials as integers", () => {
    expect(serialGreaterThan(2, 1)).toBe(true);
    expect(serialGreaterThan(1, 2)).toBe(false);
    expect(serialGreaterThan(5, 5)).toBe(false);
  });
  it("wraps: 0 is greater than 2^32 - 1", () => {
    expect(serialGreaterThan(0, MAX)).toBe(true);
    expect(serialGreaterThan(MAX, 0)).toBe(false);
    expect(serialGreaterThan(100, MAX - 100)).toBe(true);
  });
  it("leaves serials exactly 2^31 apart incomparable", () => {
    expect(serialGreaterThan(2 ** 31, 0)).toBe(false);
    expect(serialGreaterThan(0, 2 ** 31)).toBe(false);
    expect(serialGreaterThan(2 ** 31 - 1, 0)).toBe(true);
    expect(serialGreaterThan(2 ** 31 + 1, 0)).toBe(false);
  });
  it("agrees with the RFC's literal definition", () => {
    const samples = [0, 1, 2, 100, 2 ** 31 - 2, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2026112200, 4000000000, MAX - 1, MAX];
    for (const a of samples) for (const b of samples) expect([a, b, serialGreaterThan(a, b)]).toEqual([a, b, rfc1982GreaterThan(a, b)]);
  });
});

describe("nextSerial", () => {
  it("jumps to today's base when the serial is from an earlier day", () => {
    expect(nextSerial(2026112107, day)).toBe(2026112200);
    expect(nextSerial(1, day)).toBe(2026112200);
  });
  it("counts up within the day", () => {
    expect(nextSerial(2026112200, day)).toBe(2026112201);
    expect(nextSerial(2026112241, day)).toBe(2026112242);
  });
  it("keeps counting past nn = 99 rather than going back", () => {
    expect(nextSerial(2026112299, day)).toBe(2026112300);
  });
  it("keeps rising when the serial is ahead of the date", () => {
    expect(nextSerial(2030010100, day)).toBe(2030010101);
  });
  it("moves from 2^32 - 1 to today's base, which RFC 1982 ranks greater (the wrap)", () => {
    expect(nextSerial(MAX, day)).toBe(2026112200);
    expect(nextSerial(0, day)).toBe(2026112200);
  });
  it("adds one modulo 2^32 when the date is not greater", () => {
    // 2^31 + base is more than 2^31 - 1 ahead of base in serial arithmetic, so base is not greater.
    expect(nextSerial(2 ** 31 + 2026112200, day)).toBe(2 ** 31 + 2026112201);
    expect(nextSerial(4000000000, day)).toBe(4000000001);
  });
  it("always gives a serial greater than the current one", () => {
    for (const current of [0, 1, 2026112200, 2026112299, 2 ** 31, 2 ** 31 + 2026112200, 4000000000, MAX]) {
      expect(serialGreaterThan(nextSerial(current, day), current)).toBe(true);
    }
  });
});

describe("serialSqlExpression", () => {
  it("writes the expression for a column and today's base", () => {
    expect(serialSqlExpression("soa_serial", 2026112200)).toBe(
      "(CASE WHEN ((2026112200 - soa_serial) % 4294967296 + 4294967296) % 4294967296 BETWEEN 1 AND 2147483647 " +
        "THEN 2026112200 ELSE (soa_serial + 1) % 4294967296 END)",
    );
  });
  it("refuses anything but a plain column name or a 32-bit base", () => {
    expect(() => serialSqlExpression("serial; DROP TABLE zones", 1)).toThrow();
    expect(() => serialSqlExpression("zones.soa_serial", 2 ** 32)).toThrow();
    expect(serialSqlExpression("zones.soa_serial", 1)).toContain("zones.soa_serial + 1");
  });
  it("computes in SQLite (D1) exactly what nextSerial computes", async () => {
    const base = dateSerialBase(day);
    const currents = [0, 1, 2026112107, 2026112200, 2026112299, 2030010100, 2 ** 31, 2 ** 31 + base, 2 ** 31 + base + 1, 4000000000, MAX];
    const sql = `SELECT ${serialSqlExpression("s", base)} AS next FROM (SELECT ?1 AS s)`;
    for (const current of currents) {
      const row = await env.DB.prepare(sql).bind(current).first<{ next: number }>();
      expect([current, row?.next]).toEqual([current, nextSerial(current, day)]);
    }
  });
});
