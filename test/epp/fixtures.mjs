// The EPP fixtures (test/epp/fixtures/*.xml: RFC examples and registries' answers, each
// naming its source in its first comment), read for the unit tests that run in Node.
import { readdirSync, readFileSync } from "node:fs";

const DIR = new URL("./fixtures/", import.meta.url);

/** The fixture's text. */
export function fixture(name) {
  return readFileSync(new URL(name, DIR), "utf8");
}

/** Every fixture's file name, sorted. */
export function fixtureNames() {
  return readdirSync(DIR)
    .filter((name) => name.endsWith(".xml"))
    .sort();
}

/** The codec's own modules (src/epp/*.ts): their names and text. */
export function eppSources() {
  const dir = new URL("../../src/epp/", import.meta.url);
  return readdirSync(dir)
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => ({ name, text: readFileSync(new URL(name, dir), "utf8") }));
}
