// Requests go through the real Worker (the app as deployed) in workerd, against the real
// D1 of this test file.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import worker from "../src/index";
import { bearer } from "./tokens";

/**
 * Hands the request to the Worker's fetch handler, with the bindings and an execution
 * context as the runtime gives them, and waits for its waitUntil work. Not through
 * `exports.default.fetch` (SELF): under @cloudflare/vitest-pool-workers 0.15 every request
 * that way costs more than the one before it in the same runtime (measured here: 21 ms
 * each for the first 250, over 1 s each by the thousandth; workers-sdk issue 15446), which
 * made the larger test files take minutes.
 */
async function handle(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/**
 * Requests authenticate with the test write token unless they say otherwise: pass an
 * `authorization` header of your own, or `auth: false` to send none.
 */
function withAuth(headers: Headers, auth: boolean | undefined): Headers {
  if (auth !== false && !headers.has("authorization")) headers.set("authorization", bearer("write"));
  return headers;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function api<T = any>(
  method: string,
  path: string,
  options: { json?: unknown; body?: string; headers?: Record<string, string>; auth?: boolean } = {},
): Promise<ApiResponse<T>> {
  const headers = withAuth(new Headers(options.headers), options.auth);
  let body: string | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const response = await handle(new Request(`http://api.test${path}`, { method, headers, body }));
  // A binary answer (an archive object, application/gzip) is read whole, not as text.
  const text = response.headers.get("content-type") === "application/gzip" ? `(${(await response.arrayBuffer()).byteLength} bytes)` : await response.text();
  let parsed: unknown;
  if (text && /json/.test(response.headers.get("content-type") ?? "")) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** Asserts a problem+json answer with the given status and code; returns its body. */
export function expectProblem(response: ApiResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
  expect(response.body).toMatchObject({ status, code, type: `/v1/problems/${code}`, request_id: expect.any(String) });
  expect(response.body.detail).toEqual(expect.any(String));
  return response.body;
}

export const adaAddress = { street: ["12 Example Row"], city: "London", postal_code: "N1 9GU", country_code: "GB" };

export async function createContact(overrides: Record<string, unknown> = {}) {
  const response = await api("POST", "/v1/contacts", {
    json: { name: "Ada Lovelace", email: "ada@example.org", address: adaAddress, ...overrides },
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/**
 * Like `api`, but sends the body exactly as given: a `Uint8Array` body goes out with no
 * Content-Type at all (a string body would get `text/plain` from the Request constructor).
 */
export async function apiRaw<T = any>(
  method: string,
  path: string,
  options: { body?: BodyInit; headers?: Record<string, string>; auth?: boolean } = {},
): Promise<ApiResponse<T>> {
  const request = new Request(`http://api.test${path}`, { method, headers: withAuth(new Headers(options.headers), options.auth), body: options.body ?? null });
  const response = await handle(request);
  const text = await response.text();
  let parsed: unknown;
  if (text && /json/.test(response.headers.get("content-type") ?? "")) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** The methods of an `Allow` header, sorted, so tests do not depend on their order. */
export function allowedMethods(response: ApiResponse): string[] {
  return (response.headers.get("allow") ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean)
    .sort();
}

export const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** `con_` and a ULID: 26 Crockford base-32 characters (no I, L, O, U). */
export const CONTACT_ID = /^con_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Follows `next_cursor` from `path` to the last page; returns every page's body and Link. */
export async function allPages(path: string): Promise<{ pages: { data: any[]; next_cursor: string | null; link: string | null }[]; items: any[] }> {
  const pages: { data: any[]; next_cursor: string | null; link: string | null }[] = [];
  let url: string | null = path;
  while (url) {
    const response: ApiResponse = await api("GET", url);
    expect(response.status, response.text).toBe(200);
    pages.push({ ...response.body, link: response.headers.get("link") });
    const cursor: string | null = response.body.next_cursor;
    url = cursor ? `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}` : null;
    if (pages.length > 1000) throw new Error("pagination does not end");
  }
  return { pages, items: pages.flatMap((p) => p.data) };
}

/** A well-formed contact id that no contact has. */
export const UNKNOWN_CONTACT = "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B";
export const DOMAIN_ID = /^dom_[0-9A-HJKMNP-TV-Z]{26}$/;
export const HOST_ID = /^hst_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Registers a domain (expects 201) and returns it as it reads afterwards (without the answer's `price`). */
export async function createDomain(name: string, fields: Record<string, unknown> = {}) {
  const response = await api("POST", "/v1/domains", { json: { name, ...fields } });
  expect(response.status, response.text).toBe(201);
  expect(response.body.price).toMatchObject({ currency: "USD", amount: expect.stringMatching(/^\d+\.\d\d$/) });
  return withoutPrice(response.body);
}

/** Creates a host (expects 201) and returns it. */
export async function createHost(name: string, addresses?: string[]) {
  const response = await api("POST", "/v1/hosts", { json: addresses === undefined ? { name } : { name, addresses } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** The `field` of every error of a problem, sorted. */
export function errorFields(problem: { errors?: { field: string }[] }): string[] {
  return (problem.errors ?? []).map((e) => e.field).sort();
}

/** The `errors[]` entry for `field` (fails when there is none). */
export function errorFor(problem: { errors?: { field: string; message: string }[] }, field: string): { field: string; message: string } {
  const error = (problem.errors ?? []).find((e) => e.field === field);
  expect(error, `no error for ${field} in ${JSON.stringify(problem.errors)}`).toBeDefined();
  return error!;
}

/** The names of a list response's items, in order. */
export function namesOf(response: ApiResponse): string[] {
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((item: { name: string }) => item.name);
}

/** The ids of a list response's items, in order. */
export function idsOf(response: ApiResponse): string[] {
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((item: { id: string }) => item.id);
}

/** `expires_at` as registries compute it: `from` plus whole calendar years, in UTC. */
export function plusYears(from: string, years: number): string {
  const date = new Date(from);
  const result = new Date(date.getTime());
  result.setUTCFullYear(date.getUTCFullYear() + years);
  if (result.getUTCMonth() !== date.getUTCMonth()) result.setUTCDate(0);
  return result.toISOString();
}

export const ZONE_ID = /^zon_[0-9A-HJKMNP-TV-Z]{26}$/;
export const RECORD_ID = /^rec_[0-9A-HJKMNP-TV-Z]{26}$/;
/** RFC 4027's media type of master files, as the zone export answers it. */
export const MASTER_FILE_TYPE = "text/dns; charset=utf-8";

/** Creates a zone (expects 201) and returns it. */
export async function createZone(name: string, fields: Record<string, unknown> = {}) {
  const response = await api("POST", "/v1/zones", { json: { name, ...fields } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Creates a record in `zone` (id or name; expects 201) and returns it. */
export async function createRecord(zone: string, fields: Record<string, unknown>) {
  const response = await api("POST", "/v1/records", { json: { zone, ...fields } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** The zone as it reads now (expects 200). */
export async function readZone(zone: string) {
  const response = await api("GET", `/v1/zones/${encodeURIComponent(zone)}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Every record of a zone as `name ttl type content`, sorted: a comparable picture of its data. */
export async function recordLines(zone: string): Promise<string[]> {
  const { items } = await allPages(`/v1/zones/${encodeURIComponent(zone)}/records?limit=200`);
  return items.map((r: { name: string; ttl: number; type: string; content: string }) => `${r.name} ${r.ttl} ${r.type} ${r.content}`).sort();
}

/** GET /v1/zones/{zone} as a master file (`Accept: text/dns`). */
export function exportZone(zone: string): Promise<ApiResponse> {
  return api("GET", `/v1/zones/${encodeURIComponent(zone)}`, { headers: { accept: "text/dns" } });
}

/** POST /v1/zones with a master file (`Content-Type: text/dns`), optionally `?name=`. */
export function importZone(text: string, name?: string): Promise<ApiResponse> {
  const query = name === undefined ? "" : `?name=${encodeURIComponent(name)}`;
  return api("POST", `/v1/zones${query}`, { body: text, headers: { "content-type": "text/dns" } });
}

/**
 * Adds a `dns` token (the PowerDNS connector's credential, sent in the path) to the test
 * D1 with the SHA-256 of `secret`, as the token script stores it; returns the connector's
 * base path, `/v1/pdns/<id>.<secret>`.
 */
export async function addDnsToken(id: string, name: string, secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)));
  const hash = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  await env.DB.prepare("INSERT INTO api_tokens (id, name, scope, secret_hash, created_at) VALUES (?, ?, 'dns', ?, '2026-01-01T00:00:00.000Z')")
    .bind(id, name, hash)
    .run();
  return `/v1/pdns/${id}.${secret}`;
}

/** A customer account with a write token: its id and Authorization header. */
export async function customerAccount(name: string): Promise<{ id: string; auth: string }> {
  const account = await api("POST", "/v1/accounts", { json: { name } });
  expect(account.status, account.text).toBe(201);
  const token = await api("POST", "/v1/tokens", { json: { name: `${name}-token`, scope: "write", account: account.body.id } });
  expect(token.status, token.text).toBe(201);
  return { id: account.body.id as string, auth: `Bearer ${token.body.secret}` };
}

/** A register, renew or restore answer as the domain reads afterwards: without what the operation cost. */
export function withoutPrice<T extends Record<string, unknown>>(body: T): Omit<T, "price"> {
  const { price: _price, ...domain } = body;
  return domain;
}
