// Webhook signatures against the Standard Webhooks reference library (npm standardwebhooks):
// what src/delivery/signing.ts sends, Webhook.verify accepts, with one secret or,
// during a rotation, with either of two; and the secrets' form and sealing.
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newSigningSecret, openSecret, sealSecret } from "../../src/delivery/secrets";
import { signedHeaders } from "../../src/delivery/signing";
import type { Env } from "../../src/env";

const body = JSON.stringify({ id: "evt_01M8188PRAZ776Y7KHQ8XACA72", type: "domain", operation: "update", note: "ünïcødé" });

describe("deliveries are signed per Standard Webhooks", () => {
  it("a new secret is whsec_ and the base64 of 32 random bytes", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(atob(secret.slice(6))).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it("Webhook.verify accepts the headers and body sent, and refuses an altered body", async () => {
    const secret = newSigningSecret();
    const headers = await signedHeaders([secret], "evt_01M8188PRAZ776Y7KHQ8XACA72", body, new Date());
    expect(headers["webhook-id"]).toBe("evt_01M8188PRAZ776Y7KHQ8XACA72");
    expect(headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace("update", "delete"), headers)).toThrow("No matching signature");
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow("No matching signature");
  });

  it("the signature is the library's own for the same id, time and body", async () => {
    const secret = newSigningSecret();
    const at = new Date("2026-11-25T12:00:00.000Z");
    const headers = await signedHeaders([secret], "png_01M8188QB2C4D6E8F0G1H3J5K6", body, at);
    expect(headers["webhook-signature"]).toBe(new Webhook(secret).sign("png_01M8188QB2C4D6E8F0G1H3J5K6", at, body));
    expect(headers["webhook-timestamp"]).toBe(String(at.getTime() / 1000));
  });

  it("during a rotation two signatures are sent, space-separated, and either secret verifies", async () => {
    const [next, previous] = [newSigningSecret(), newSigningSecret()];
    const headers = await signedHeaders([next, previous], "evt_01M8188PRAZ776Y7KHQ8XACA72", body, new Date());
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(next).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });
});

describe("secrets are kept sealed, bound to their webhook", () => {
  const env = { WEBHOOK_SECRET_KEY: "unit-webhook-key-0123456789abcdef0123" } as Env;

  it("a sealed secret opens under the same key and webhook id only", async () => {
    const secret = newSigningSecret();
    const sealed = await sealSecret(env, false, "whk_A", secret);
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(secret.slice(6));
    expect(await openSecret(env, false, "whk_A", sealed)).toBe(secret);
    expect(await openSecret(env, false, "whk_B", sealed)).toBeNull();
    expect(await openSecret({ WEBHOOK_SECRET_KEY: "another-key-0123456789abcdef0123456789" } as Env, false, "whk_A", sealed)).toBeNull();
  });

  it("without WEBHOOK_SECRET_KEY only a loopback deployment's webhook is sealed (with the development key); elsewhere it is 503 not_configured", async () => {
    const none = {} as Env;
    const sealed = await sealSecret(none, true, "whk_L", "whsec_AAAA");
    expect(await openSecret(none, true, "whk_L", sealed)).toBe("whsec_AAAA");
    expect(await openSecret(none, false, "whk_L", sealed)).toBeNull();
    await expect(sealSecret(none, false, "whk_D", "whsec_AAAA")).rejects.toMatchObject({ code: "not_configured" });
  });
});
