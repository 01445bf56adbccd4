// Generated master files of a given size and shape, for the import limits (scripts/import-e2e.mjs)
// and the memory benchmark (bench/memory.mjs).

const SOA_LINE = "@ 3600 IN SOA ns1.example.net. hostmaster.example.com. 2026010101 7200 900 1209600 300";

/**
 * Master files of `count` records in two shapes:
 * - typical: a name per record (A, AAAA and TXT, like bench/seed.mjs's big zone), ~22 bytes a line;
 * - dense: every record at one owner name, the shortest lines a file can have (a blank
 *   owner, no TTL or class, a TXT of a few characters: ~9 bytes a line), i.e. the most
 *   records a given number of bytes can carry, and the rule checks' worst case;
 * - long: a name per record and a TXT of two 250-character strings (~520 bytes a line):
 *   the most bytes per record, where the file's size rather than its records counts;
 * - full: a name per record and a TXT padded so that the file reaches both limits at once
 *   (`lineBytes` a line): the worst case the limits admit.
 * @param {"typical" | "dense" | "long" | "full"} shape
 * @param {string} origin
 * @param {number} count
 * @param {number} [lineBytes]
 * @returns {string}
 */
export function masterFileOf(shape, origin, count, lineBytes = 80) {
  const lines = [`$ORIGIN ${origin}.`, "$TTL 3600", SOA_LINE, "@ NS ns1.example.net.", "@ NS ns2.example.net."];
  if (shape === "full") {
    for (let i = 0; lines.length - 3 < count; i++) {
      const head = `f${i} TXT "`;
      lines.push(`${head}${`${i}-`.padEnd(Math.max(1, lineBytes - head.length - 2), "f")}"`);
    }
  } else if (shape === "long") {
    for (let i = 0; lines.length - 3 < count; i++) {
      const text = `${i}-`.padEnd(250, "k");
      lines.push(`t${i} TXT "${text}" "${text.replace(/k/g, "v")}"`);
    }
  } else if (shape === "dense") {
    lines.push(`www TXT ${(0).toString(36)}`);
    for (let i = 1; i < count - 2; i++) lines.push(` TXT ${i.toString(36)}`);
  } else {
    for (let i = 0; lines.length - 3 < count; i++) {
      const kind = i % 10;
      if (kind < 6) lines.push(`h${i} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      else if (kind < 8) lines.push(`h${i} AAAA 2001:db8::${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}`);
      else lines.push(`t${i} TXT "v=bench ${i}"`);
    }
  }
  return `${lines.join("\n")}\n`;
}
