// xmllint --schema, for the EPP tests that run in Node (test/unit/epp-*.test.ts): a message
// validated against schemas/epp/all.xsd (RFC 5730–5733, 5910, 3915, 8748 together). Plain
// JavaScript beside its types (xmllint.d.mts), as node:child_process has no types in this
// project. The message goes through a temporary file: xmllint, like BIND's tools, cannot
// read /dev/stdin when Node gives it a pipe.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SCHEMA = new URL("../../schemas/epp/all.xsd", import.meta.url).pathname;

/** Validates each message; returns xmllint's verdict for each, in order. One xmllint run for all. */
export function validateEpp(messages) {
  const dir = mkdtempSync(join(tmpdir(), "epp-xmllint-"));
  try {
    const files = messages.map((message, i) => {
      const file = join(dir, `message-${i}.xml`);
      writeFileSync(file, message);
      return file;
    });
    const run = spawnSync("xmllint", ["--noout", "--nonet", "--schema", SCHEMA, ...files], { encoding: "utf8", timeout: 60_000 });
    if (run.error) throw run.error;
    const lines = `${run.stdout}${run.stderr}`.split("\n");
    return files.map((file) => {
      const own = lines.filter((line) => line.startsWith(file));
      const valid = own.some((line) => line === `${file} validates`);
      return { valid, output: own.map((line) => line.replace(file, "message")).join("\n") };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
