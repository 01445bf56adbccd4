import { it } from "vitest";
import { parseMasterFile } from "../src/dns/master-file";
import { createLexer, readEntry } from "../src/dns/master-file/lexer";
import { canonicalRdataTokens } from "../src/dns/rdata";
import { parseIPv4 } from "../src/dns/ip";

function time(label: string, f: () => unknown) {
  const t = Date.now();
  f();
  console.log(label, Date.now() - t);
}
it("bench", () => {
  const a: string[] = ["$ORIGIN example.com.", "$TTL 3600"];
  for (let i = 0; i < 100000; i++) a.push(`host-${i} 3600 IN A 192.0.2.${i % 250}`);
  const textA = a.join("\n");
  const mx: string[] = ["$ORIGIN example.com.", "$TTL 3600"];
  for (let i = 0; i < 100000; i++) mx.push(`mx-${i} IN MX 10 mail-${i}.example.net.`);
  const textMx = mx.join("\n");
  for (let round = 0; round < 2; round++) {
    time("A parse", () => parseMasterFile(textA));
    time("A lex", () => { const l = createLexer(textA); while (readEntry(l)); });
    time("A rdata", () => { for (let i = 0; i < 100000; i++) canonicalRdataTokens("A", [{ raw: `192.0.2.${i % 250}`, quoted: false }], "example.com"); });
    time("A ip", () => { for (let i = 0; i < 100000; i++) parseIPv4(`192.0.2.${i % 250}`); });
    time("MX parse", () => parseMasterFile(textMx));
    time("MX rdata", () => { for (let i = 0; i < 100000; i++) canonicalRdataTokens("MX", [{ raw: "10", quoted: false }, { raw: `mail-${i}.example.net.`, quoted: false }], "example.com"); });
  }
});
