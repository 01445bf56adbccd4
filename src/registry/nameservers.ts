// A domain's name servers (RFC 5731 §1.1, RFC 5732 §1.1): host names, each listed once,
// as many as the extension allows. A name server under a domain managed here is a
// subordinate host, which needs glue addresses only a host creation can give, so it must
// exist as a host first; any other unknown name becomes an external host.
import type { FieldError } from "./field-error";
import { registrableDomainOf } from "./extensions";
import { normalizeHostName } from "./hosts";

/** The name servers normalised and unique; each bad one reported at `nameservers[i]`. */
export function nameserverNames(raw: readonly string[]): { names: string[]; errors: FieldError[] } {
  const names: string[] = [];
  const errors: FieldError[] = [];
  raw.forEach((input, index) => {
    const normalized = normalizeHostName(input);
    if (!normalized.ok) errors.push({ field: `nameservers[${index}]`, message: `"${input}" ${normalized.error}` });
    else if (names.includes(normalized.name)) errors.push({ field: `nameservers[${index}]`, message: `${normalized.name} is listed twice` });
    else names.push(normalized.name);
  });
  return { names, errors };
}

/** RFC 5731 §2.6 leaves the count to the registry: each extension has its bounds. */
export function nameserverCountErrors(count: number, extension: { id: string; nameserversMin: number; nameserversMax: number }): FieldError[] {
  const { nameserversMin: min, nameserversMax: max } = extension;
  if (count >= min && count <= max) return [];
  return [{ field: "nameservers", message: `.${extension.id} domains have ${min} to ${max} name servers; ${count} given` }];
}

/** Names of the only domains that could be superordinate to these name servers. */
export function superordinateCandidates(nameservers: readonly string[], extensions: ReadonlyMap<string, unknown>): string[] {
  const candidates = new Set<string>();
  for (const name of nameservers) {
    const domain = registrableDomainOf(name, extensions);
    if (domain) candidates.add(domain);
  }
  return [...candidates];
}

/**
 * Which name servers become new external host objects (`external`), given the hosts that
 * exist (`known`) and the domains managed here (the one being written included). An
 * unknown name under a managed domain is an error: create that host with its glue first.
 */
export function newNameserverHosts(
  nameservers: readonly string[],
  known: ReadonlySet<string>,
  managedDomains: ReadonlySet<string>,
  extensions: ReadonlyMap<string, unknown>,
): { external: string[]; errors: FieldError[] } {
  const external: string[] = [];
  const errors: FieldError[] = [];
  nameservers.forEach((name, index) => {
    if (known.has(name)) return;
    const superordinate = registrableDomainOf(name, extensions);
    if (superordinate && managedDomains.has(superordinate)) {
      errors.push({
        field: `nameservers[${index}]`,
        message: `${name} is under ${superordinate}, a domain managed here: create the host with its addresses first (POST /v1/hosts)`,
      });
    } else {
      external.push(name);
    }
  });
  return { external, errors };
}
