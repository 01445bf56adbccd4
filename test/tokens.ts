// Tokens the test D1 holds (test/apply-migrations.ts): the secrets are here so that
// requests can present them; the database has only their SHA-256 hashes.
export const TEST_TOKENS = {
  write: {
    id: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
    name: "test-write",
    scope: "write",
    secret: "test-write-secret-0123456789abcdef",
    secretHash: "7a178b64703bef847112e08813dda1891b3d07dc5587e1460531efbfe0e70be6",
    revoked: false,
  },
  read: {
    id: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9C",
    name: "test-read",
    scope: "read",
    secret: "test-read-secret-0123456789abcdef",
    secretHash: "0e82c131d7ead77b7fb71934744cdb43f29a90e84b8adea1be0662d1731f4b7b",
    revoked: false,
  },
  revoked: {
    id: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9D",
    name: "test-revoked",
    scope: "write",
    secret: "test-revoked-secret-0123456789abcd",
    secretHash: "db7b5526b507c8058f4d95852ce2f175a543199b2f7365512cee828a2dc435a9",
    revoked: true,
  },
} as const;

export function bearer(token: keyof typeof TEST_TOKENS): string {
  return `Bearer ${TEST_TOKENS[token].id}.${TEST_TOKENS[token].secret}`;
}

/**
 * Stores the test tokens (hashed, as in production) in `db`. Only the columns every schema
 * since migration 0004 has, so a migration test can write them before the later migrations.
 */
export async function insertTestTokens(db: D1Database): Promise<void> {
  await db.batch(
    Object.values(TEST_TOKENS).map((token) =>
      db
        .prepare("INSERT OR IGNORE INTO api_tokens (id, name, scope, secret_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(token.id, token.name, token.scope, token.secretHash, "2026-01-01T00:00:00.000Z", token.revoked ? "2026-01-02T00:00:00.000Z" : null),
    ),
  );
}
