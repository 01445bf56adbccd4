// Base64 (RFC 4648 §4) between text and octets: DNS presentation (DNSKEY, CERT, TSIG),
// sealed keys and webhook secrets all use it.

/** Base64 (RFC 4648 §4) as octets (the caller has checked the alphabet and padding). */
export function base64Octets(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Octets as base64 (RFC 4648 §4), with padding, as BIND prints them. */
export function base64Text(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(binary);
}
