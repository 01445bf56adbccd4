import { it } from "vitest";
import { parseMasterFile } from "../src/dns/master-file";
import { createLexer, readEntry } from "../src/dns/master-file/lexer";
import { normalizeName } from "../src/dns/name";
import { canonicalRdataTokens } from "../src/dns/rdata";

it("bench", () => {
  const lines: string[] = ["$ORIGIN example.com.", "$TTL 3600"];
  for (let i = 0; i < 100000; i++) lines.push(`host-${i} 3600 IN TXT "${"v".repeat(60)}" ; padding to make the file about ten mebibytes`);
  const text = lines.join("\n");
  const mixed: string[] = ["$ORIGIN example.com.", "$TTL 3600"];
  for (let i = 0; i < 100000; i++) mixed.push(i % 2 ? `host-${i} 3600 IN A 192.0.2.${i % 250}` : `mx-${i} IN MX 10 mail-${i}.example.net.`);
  const text2 = mixed.join("\n");
  for (let round = 0; round < 3; round++) {
    let t = Date.now();
    parseMasterFile(text);
    const full = Date.now() - t;
    t = Date.now();
    const lx = createLexer(text);
    let n = 0;
    while (readEntry(lx)) n++;
    const lex = Date.now() - t;
    t = Date.now();
    for (let i = 0; i < 100000; i++) normalizeName(`host-${i}.example.com`, { underscore: true, wildcard: true });
    const names = Date.now() - t;
    t = Date.now();
    for (let i = 0; i < 100000; i++) canonicalRdataTokens("TXT", [{ raw: "v".repeat(60), quoted: true }], "example.com");
    const txt = Date.now() - t;
    t = Date.now();
    parseMasterFile(text2);
    const mixedMs = Date.now() - t;
    console.log({ full, lex, names, txt, mixedMs, n, size: text.length });
  }
});
