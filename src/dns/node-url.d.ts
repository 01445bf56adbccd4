// The two functions of `node:url` that src/dns uses, as the Workers runtime provides them
// with the nodejs_compat flag (wrangler.toml); the project has no @types/node.
declare module "node:url" {
  /** The A-label form of a domain (UTS #46 ToASCII, as the URL parser does it); "" when invalid. */
  export function domainToASCII(domain: string): string;
  /** The U-label form of a domain (UTS #46 ToUnicode); "" when invalid. */
  export function domainToUnicode(domain: string): string;
}
