// The local registry's schema check (docs/registries.md, "The local registry"): every frame
// validated against schemas/epp/all.xsd by libxml2, the library xmllint is, compiled to
// WebAssembly (libxml2-wasm) and run in the registry's own process. The XSD set is parsed
// once; a frame then costs a parse and a validation, about 0.1 ms, where an xmllint
// process per frame cost 4 ms on an idle machine and 10–30 ms on a loaded one, more than
// the rest of the registry's work together.
//
// xmllint itself stays the judge of the tests: a registry started to keep its frames
// (`keepFrames`) hands every frame it received, with the verdict it gave, and every answer
// it sent to `xmllintVerdicts`, one `xmllint --schema` run for all of them, and the tests
// require the same verdict (test/unit/local-registry-fixture.ts, scripts/registry-e2e.mjs).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { ParseOption, XmlBufferInputProvider, XmlDocument, type XmlLibError, xmlRegisterInputProvider, XsdValidator } from "libxml2-wasm";

/** How many lines of a complaint a 2001's reason carries (as the registry said with xmllint). */
const COMPLAINT_LINES = 3;

/** The sets loaded in this process, by path: a process that starts several registries (the tests) parses each once. */
const loaded = new Map<string, FrameSchema>();

/** The schema set as one validator: `problem(frame)` is null when the frame validates, else the complaint. */
export class FrameSchema {
  private constructor(readonly validator: XsdValidator) {}

  /** The set at `path`, parsed on first use. */
  static of(path: string): FrameSchema {
    const file = resolve(path);
    let schema = loaded.get(file);
    if (!schema) {
      schema = FrameSchema.load(file);
      loaded.set(file, schema);
    }
    return schema;
  }

  /**
   * Reads the XSD at `path` and the files beside it (the set it imports). Only those files
   * are offered to libxml2: a frame's DOCTYPE or entity naming any other file, or a URL,
   * finds nothing (and frames are parsed with XML_PARSE_NONET, as `xmllint --nonet`).
   */
  static load(path: string): FrameSchema {
    const file = resolve(path);
    const dir = dirname(file);
    const files: Record<string, Uint8Array> = {};
    for (const name of readdirSync(dir)) if (name.endsWith(".xsd")) files[join(dir, name)] = readFileSync(join(dir, name));
    xmlRegisterInputProvider(new XmlBufferInputProvider(files));
    const doc = XmlDocument.fromBuffer(files[file] ?? readFileSync(file), { url: file, option: ParseOption.XML_PARSE_NONET });
    try {
      return new FrameSchema(XsdValidator.fromDoc(doc));
    } finally {
      doc.dispose();
    }
  }

  /** Null when the message validates against the set; else libxml2's complaint, `line N: …` (its first lines). */
  problem(xml: Uint8Array | string): string | null {
    let doc: XmlDocument;
    try {
      doc = XmlDocument.fromBuffer(typeof xml === "string" ? new TextEncoder().encode(xml) : xml, { option: ParseOption.XML_PARSE_NONET });
    } catch (error) {
      return complaint(error);
    }
    try {
      this.validator.validate(doc);
      return null;
    } catch (error) {
      return complaint(error);
    } finally {
      doc.dispose();
    }
  }
}

function complaint(error: unknown): string {
  const details = (error as Partial<XmlLibError>).details;
  if (!Array.isArray(details) || details.length === 0) return (error as Error).message?.trim() || "the message does not validate";
  return details
    .slice(0, COMPLAINT_LINES)
    .map((d) => `${d.line ? `line ${d.line}: ` : ""}${d.message.trim()}`)
    .join(" | ");
}

/** xmllint's verdict on one message: valid, and its lines about the message (errors name it "message"). */
export interface XmllintVerdict {
  valid: boolean;
  output: string;
}

/** Files per xmllint run: a command line of a few hundred paths is far inside the kernel's limit. */
const FILES_PER_RUN = 500;

/**
 * `xmllint --noout --nonet --schema SCHEMA f1 f2 …` on every message, in runs of 500
 * files (one run for a test file's frames): each message's verdict, in order. Throws when
 * xmllint cannot be run or says nothing of a message.
 */
export function xmllintVerdicts(schema: string, messages: readonly (Uint8Array | string)[]): XmllintVerdict[] {
  const dir = mkdtempSync(join(tmpdir(), "epp-xmllint-"));
  try {
    const verdicts: XmllintVerdict[] = [];
    for (let start = 0; start < messages.length; start += FILES_PER_RUN) {
      const files = messages.slice(start, start + FILES_PER_RUN).map((message, i) => {
        const file = join(dir, `message-${start + i}.xml`);
        writeFileSync(file, message);
        return file;
      });
      const run = spawnSync("xmllint", ["--noout", "--nonet", "--schema", schema, ...files], { encoding: "utf8", timeout: 120_000, maxBuffer: 64 << 20 });
      if (run.error) throw new Error(`xmllint could not run: ${run.error.message}`);
      const lines = `${run.stdout}${run.stderr}`.split("\n");
      for (const file of files) {
        const own = lines.filter((line) => line.startsWith(`${file}:`) || line.startsWith(`${file} `));
        const valid = own.includes(`${file} validates`);
        if (!valid && !own.some((line) => line.endsWith("fails to validate") || line.startsWith(`${file}:`)))
          throw new Error(`xmllint said nothing of ${file}: ${lines.slice(0, 5).join(" | ")}`);
        verdicts.push({ valid, output: own.map((line) => line.replaceAll(file, "message")).join("\n") });
      }
    }
    return verdicts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
