// Requests go through the real Worker (the app as deployed) in workerd, against the real
// D1 of this test file.
import { exports } from "cloudflare:workers";
import { expect } from "vitest";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function api<T = any>(
  method: string,
  path: string,
  options: { json?: unknown; body?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers = new Headers(options.headers);
  let body: string | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const response = await (exports as any).default.fetch(new Request(`http://api.test${path}`, { method, headers, body }));
  const text = await response.text();
  let parsed: unknown = undefined;
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
