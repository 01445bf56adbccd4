// The one function of `node:crypto` that src/dns uses, as the Workers runtime provides it
// with the nodejs_compat flag (wrangler.toml); the project has no @types/node.
declare module "node:crypto" {
  interface Hash {
    update(data: Uint8Array): Hash;
    digest(): Uint8Array;
  }
  /** A synchronous hash ("sha1", "sha256", "sha384"): DS digests are computed where a zone is presented, which is synchronous. */
  export function createHash(algorithm: string): Hash;
}
