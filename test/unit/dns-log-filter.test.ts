// The DNS backend's token travels in its URL path: every spelling of a path through /pdns/
// is kept out of the logs (scripts/lib/dns-log-filter.mjs), and the Worker recognises the
// same spellings to serve only the canonical one (src/http/dns-backend-path.ts).
import { describe, expect, it } from "vitest";
import { namesDnsBackendPath, redactDnsBackend, withoutDnsBackendPaths } from "../../scripts/lib/dns-log-filter.mjs";
import { dnsBackendPath, shownPath, throughDnsBackend } from "../../src/http/dns-backend-path";

const ID = "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9E";
const SECRET = "dnsSecret0123456789abcdefXYZ";
const TOKEN = `${ID}.${SECRET}`;

/** Every way of writing a path through /pdns/ that a client can send and a log can print. */
const SPELLINGS = [
  `/v1/pdns/${TOKEN}/lookup/www%2eexample%2ecom%2e/A`,
  `/v1//pdns/${TOKEN}/lookup/x/A`,
  `/v1/pdns//${TOKEN}/lookup/x/A`,
  `//v1/pdns/${TOKEN}/lookup/x/A`,
  `/v1/pdns/./${TOKEN}/lookup/x/A`,
  `/v1/pdns/%2e/${TOKEN}/lookup/x/A`,
  `/v1/./pdns/${TOKEN}/lookup/x/A`,
  `/v1/x/../pdns/${TOKEN}/lookup/x/A`,
  `/v1/%70dns/${TOKEN}/lookup/x/A`,
  `/v1/%2570dns/${TOKEN}/lookup/x/A`,
  `/v1%2fpdns%2f${TOKEN}/lookup/x/A`,
  `/v1/PDNS/${TOKEN}/lookup/x/A`,
  `/V1/PdNs/${TOKEN}/lookup/x/A`,
  `/v1\\pdns\\${TOKEN}/lookup/x/A`,
  `/v1/pdns/${TOKEN.replace("_", "%5F").replace(".", "%2E")}/getAllDomains`,
  `/api/v1/pdns/${TOKEN}/getAllDomains`,
];

describe("the log filter redacts any path through /pdns/, however written (scripts/lib/dns-log-filter.mjs)", () => {
  it("wrangler's request line of every spelling is dropped by npm start and holds no secret once redacted", () => {
    for (const path of SPELLINGS) {
      const line = `[wrangler:info] GET ${path} 404 Not Found (7ms)`;
      expect(namesDnsBackendPath(line), path).toBe(true);
      expect(withoutDnsBackendPaths(line), path).toBeNull();
      const redacted = redactDnsBackend(line);
      expect(redacted, path).not.toContain(SECRET);
      expect(redacted, path).not.toContain(SECRET.slice(0, 10));
      expect(redacted, path).toContain("/pdns/<dns token>");
      expect(redacted.endsWith(" 404 Not Found (7ms)"), redacted).toBe(true);
    }
  });

  it("PowerDNS's connector URL, quoted or not, in a full URL", () => {
    for (const path of SPELLINGS) {
      for (const line of [
        `Remote backend: url=http://127.0.0.1:8787${path}, timeout=2000`,
        `connecting to "http://127.0.0.1:8787${path}"`,
        `'https://api.example${path}'`,
      ]) {
        expect(redactDnsBackend(line), line).not.toContain(SECRET);
        expect(namesDnsBackendPath(line), line).toBe(true);
      }
    }
    expect(redactDnsBackend(`url=http://127.0.0.1:8787/v1//pdns/${TOKEN}/lookup/x/A, timeout=2000`)).toBe(
      "url=http://127.0.0.1:8787/v1//pdns/<dns token>, timeout=2000",
    );
  });

  it("a token anywhere, and the secrets it is given, are redacted too", () => {
    expect(redactDnsBackend(`token ${TOKEN} minted`)).toBe("token <dns token> minted");
    expect(namesDnsBackendPath(`token ${TOKEN} minted`)).toBe(true);
    expect(redactDnsBackend("the secret is hunter2-but-long", ["hunter2-but-long"])).toBe("the secret is <dns token>");
  });

  it("lines that name no DNS backend path pass unchanged", () => {
    for (const line of [
      "[wrangler:info] GET /v1/zones/pdns.example/records 200 OK (3ms)",
      "[wrangler:info] GET /v1/domains?q=pdns 200 OK (3ms)",
      "Reading /etc/powerdns/pdns.conf",
      "[wrangler:info] Ready on http://127.0.0.1:8787",
    ]) {
      expect(namesDnsBackendPath(line), line).toBe(false);
      expect(withoutDnsBackendPaths(line)).toBe(line);
      expect(redactDnsBackend(line)).toBe(line);
    }
  });
});

describe("the Worker serves the DNS backend at /v1/pdns/<token>/… only, written as is (src/http/dns-backend-path.ts)", () => {
  it("the canonical path gives the token", () => {
    expect(dnsBackendPath(`/v1/pdns/${TOKEN}/lookup/www%2eexample%2ecom%2e/A`)).toEqual({ token: TOKEN });
    expect(dnsBackendPath(`/v1/pdns/${TOKEN}`)).toEqual({ token: TOKEN });
    expect(dnsBackendPath("/v1/pdns/getAllDomains")).toEqual({ token: "getAllDomains" });
  });

  it("every other spelling is recognised and refused (no token)", () => {
    // Dot segments never reach the Worker (the URL parser removes them); the others do.
    for (const path of SPELLINGS.slice(1).filter((p) => !p.includes("/./") && !p.includes("%2e/") && !p.includes("/../"))) {
      if (path.startsWith("/api/")) continue;
      expect(dnsBackendPath(path), path).toEqual({ token: null });
      expect(shownPath(path), path).toBe("/v1/pdns/…");
    }
    expect(dnsBackendPath("/v1/pdns")).toEqual({ token: null });
    expect(dnsBackendPath(`/v1/pdns/${TOKEN}//lookup/x/A`)).toEqual({ token: null });
  });

  it("other paths are not the backend's", () => {
    for (const path of ["/v1/zones/pdns.example", "/v1/zones/pdns", "/v1/domains", "/v1/pdnsx/a", "/v1"]) {
      expect(throughDnsBackend(path), path).toBe(false);
      expect(dnsBackendPath(path), path).toBeNull();
      expect(shownPath(path)).toBe(path);
    }
  });
});
