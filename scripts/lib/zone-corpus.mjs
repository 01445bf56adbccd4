// The zone corpus (test/zones/*.zone) and the property test of API writes, as
// scripts/zone-check.mjs runs them against `npm start` and BIND's named-checkzone.
//
// Each corpus file starts with comment lines saying what it holds and what is expected:
//   ; <what the file shows>
//   ; bind: accept | reject        what named-checkzone answers (checked every run)
//   ; service: accept | refuse     what POST /v1/zones (text/dns) answers
//   ; documented: <phrase>         when BIND accepts and the service refuses: the phrase of
//                                  docs/dns.md that states the choice
//   ; zone: <name>                 the zone's name (default: <file name>.example)
//   ; warns: <text>                a warning the 201 answer must list
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { assert } from "./harness.mjs";

/** named-checkzone as issue 15 asks every export to pass it: the strict integrity checks of a primary zone. */
export const STRICT_ARGS = ["-k", "fail", "-M", "fail", "-S", "fail", "-n", "fail", "-i", "local"];

const SIGNER_TYPES = new Set(["RRSIG", "NSEC", "NSEC3", "NSEC3PARAM"]);

/**
 * A corpus file with what its header says (each header field as written, when present).
 * @typedef {{ file: string, path: string, bytes: Buffer, what: string, zone: string, bind?: string, service?: string, documented?: string, warns?: string }} CorpusEntry
 */

/**
 * The corpus files of `dir`, in name order, with their headers.
 * @param {string} dir
 * @returns {CorpusEntry[]}
 */
export function readCorpus(dir) {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".zone"))
    .sort()
    .map((file) => {
      const bytes = readFileSync(join(dir, file));
      /** @type {Record<string, string | undefined>} */
      const header = {};
      const lines = bytes.toString("utf8").split("\n");
      const what = (lines[0] ?? "").replace(/^;\s*/, "");
      for (const line of lines.slice(1)) {
        const match = /^;\s*(bind|service|documented|zone|warns):\s*(.*)$/.exec(line);
        if (!match) break;
        header[/** @type {string} */ (match[1])] = (match[2] ?? "").trim();
      }
      const base = file.replace(/\.zone$/, "");
      return { file, path: join(dir, file), bytes, what, zone: header.zone ?? `${base}.example`, ...header };
    });
}

/**
 * named-checkzone with `args` on `file` as zone `zone`; with `dumpFile`, its dump (-D) written there.
 * @param {string} checkzone
 * @param {string[]} args
 * @param {string} zone
 * @param {string} file
 * @param {string} [dumpFile]
 * @returns {{ status: number | null, output: string, command: string }}
 */
export function runCheckzone(checkzone, args, zone, file, dumpFile) {
  const all = [...args, ...(dumpFile ? ["-D", "-o", dumpFile] : []), zone, file];
  const result = spawnSync(checkzone, all, { encoding: "utf8", timeout: 60_000 });
  return { status: result.status, output: `${result.stdout ?? ""}${result.stderr ?? ""}`.trim(), command: `${checkzone} ${all.join(" ")}` };
}

/**
 * The guide's DNS chapter (docs/dns.md), where every deliberate difference from BIND is written down.
 * @param {string} root
 */
export function dnsChapter(root) {
  // Compared with white space collapsed: the page wraps its lines.
  return readFileSync(join(root, "docs", "dns.md"), "utf8").replace(/\s+/g, " ");
}

/**
 * A BIND dump (named-checkzone -D) as a set to compare zones by: the signer's records
 * dropped (the service leaves them out), names and hex compared without case (the service
 * lowers owner names; DNS names are case-insensitive), quoted strings kept exact.
 * @param {string} text
 * @returns {string[]}
 */
export function comparableDump(text) {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith(";"))
    .map((line) => line.split(/\s+/))
    .filter((fields) => !SIGNER_TYPES.has(fields[3] ?? ""))
    .map((fields) =>
      fields.join(" ").replace(/("(?:[^"\\]|\\.)*")|[^"]+/g, (part, /** @type {string | undefined} */ quoted) => (quoted ? part : part.toLowerCase())),
    )
    .sort();
}

// ---------------------------------------------------------------------------------------
// The property test: random writes through the API, then the export must pass BIND.

const NAMES = ["@", "www", "mail", "ns", "alias", "sub", "a.sub", "x", "*", "_sip._tcp", "legacy", "b.legacy"];

/**
 * One API write (writeArbitrary): a record's type and content ("{zone}" for the zone's name).
 * @typedef {{ type: string, content: string }} RecordData
 * @typedef {{ op: "create", name: string, data: RecordData } | { op: "delete", pick: number, name?: undefined, data?: undefined } | { op: "patch", pick: number, name: string | null, data: RecordData | null }} ApiWrite
 */

/**
 * One API write: what a careful client might send, valid or not (the API decides); "{zone}" stands for the zone's name.
 * @returns {fc.Arbitrary<ApiWrite>}
 */
export function writeArbitrary() {
  const zone = "{zone}";
  const name = fc.constantFrom(...NAMES);
  const inZone = fc.constantFrom("www", "mail", "ns", "alias", "sub", "a.sub", "x", "b.legacy", "nohost").map((n) => `${n}.${zone}.`);
  const target = fc.oneof(inZone, fc.constantFrom("mx.example.net.", "ns1.example.net."));
  const content = fc.oneof(
    fc.record({ type: fc.constant("A"), content: fc.constantFrom("192.0.2.1", "192.0.2.2") }),
    fc.record({ type: fc.constant("AAAA"), content: fc.constant("2001:db8::1") }),
    fc.record({ type: fc.constant("TXT"), content: fc.constantFrom('"hello"', "plain text") }),
    fc.record({ type: fc.constant("CNAME"), content: target }),
    fc.record({ type: fc.constant("DNAME"), content: fc.constantFrom("example.net.", `x.${zone}.`) }),
    fc.record({ type: fc.constant("NS"), content: target }),
    fc.record({ type: fc.constant("MX"), content: target.map((t) => `10 ${t}`) }),
    fc.record({ type: fc.constant("SRV"), content: target.map((t) => `0 5 5060 ${t}`) }),
    fc.record({ type: fc.constant("HTTPS"), content: fc.constantFrom("1 . alpn=h2", "0 _svc.example.net.", "1 _svc.example.net.") }),
    fc.record({ type: fc.constant("DS"), content: fc.constant("12345 13 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D") }),
    fc.record({ type: fc.constant("TYPE65280"), content: fc.constant("\\# 2 ABCD") }),
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ op: fc.constant("create"), name, data: content }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant("delete"), pick: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant("patch"), pick: fc.nat(), name: fc.option(name), data: fc.option(content) }) },
  );
}

/**
 * Applies `writes` to a new zone through the API, then exports it and has BIND check the
 * export. Returns why it failed, or null; `tally` counts the answers by status.
 * @param {{ request: import("./harness.mjs").HttpRequest, zone: string, writes: ApiWrite[], checkzone: string, dir: string, tally?: Record<number, number> }} options
 * @returns {Promise<string | null>}
 */
export async function writesThenCheck({ request, zone, writes, checkzone, dir, tally = {} }) {
  const created = await request("POST", "/v1/zones", { name: zone, nameservers: ["ns1.example.net", "ns2.example.net"] });
  if (created.status !== 201) return `POST /v1/zones ${zone}: ${created.status} ${created.text.slice(0, 200)}`;
  /** @type {string[]} */
  const ids = [];
  /** @type {string[]} */
  const log = [];
  for (const write of writes) {
    /** @type {import("./harness.mjs").HttpAnswer} */
    let res;
    const data = write.data && { ...write.data, content: write.data.content.replaceAll("{zone}", zone) };
    if (write.op === "create") {
      res = await request("POST", "/v1/records", { zone, name: write.name, ...data });
      if (res.status === 201) ids.push(res.json.id);
    } else if (ids.length === 0) {
      continue;
    } else if (write.op === "delete") {
      const id = /** @type {string} */ (ids.splice(write.pick % ids.length, 1)[0]);
      res = await request("DELETE", `/v1/records/${id}`);
      if (res.status !== 204) ids.push(id);
    } else {
      const id = ids[write.pick % ids.length];
      const patch = { ...(write.name === null ? {} : { name: write.name }), ...(data === null ? {} : data) };
      res = await request("PATCH", `/v1/records/${id}`, patch, { "content-type": "application/merge-patch+json" });
    }
    tally[res.status] = (tally[res.status] ?? 0) + 1;
    if (res.status >= 500) return `${write.op} answered ${res.status}: ${res.text.slice(0, 200)}`;
    log.push(`${res.status} ${JSON.stringify(write)}`);
  }
  const exported = await request("GET", `/v1/zones/${zone}`, undefined, { accept: "text/dns" });
  if (exported.status !== 200) return `export: ${exported.status}`;
  const file = join(dir, `${zone}.zone`);
  writeFileSync(file, exported.text);
  const result = runCheckzone(checkzone, STRICT_ARGS, zone, file);
  await request("DELETE", `/v1/zones/${zone}`);
  if (result.status === 0) return null;
  return `named-checkzone refused the export after these writes:\n${log.join("\n")}\nBIND: ${result.output}\nexport:\n${exported.text}`;
}

/**
 * What a corpus file's header must say: a BIND verdict and a service verdict that agree, and
 * the phrase of docs/dns.md for a file BIND accepts and the service refuses.
 * @param {CorpusEntry} entry
 * @param {string} dnsChapterText
 */
export function corpusExpectation(entry, dnsChapterText) {
  assert(entry.bind === "accept" || entry.bind === "reject", `${entry.file}: its "; bind:" line says ${entry.bind}`);
  assert(entry.service === "accept" || entry.service === "refuse", `${entry.file}: its "; service:" line says ${entry.service}`);
  assert(!(entry.bind === "reject" && entry.service === "accept"), `${entry.file}: a file BIND refuses must not be accepted`);
  if (entry.bind === "accept" && entry.service === "refuse") {
    assert(entry.documented, `${entry.file}: BIND accepts it and the service refuses it, so it must name the choice docs/dns.md states ("; documented:")`);
    assert(dnsChapterText.includes(entry.documented.replace(/\s+/g, " ")), `${entry.file}: docs/dns.md does not say "${entry.documented}"`);
  }
}
