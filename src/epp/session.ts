// What a session logs in with (RFC 5730 §2.9.1.1): the object and extension URIs the
// greeting offers that this service uses, and nothing else (a server refuses a login that
// names a service it does not offer, 2307 / 2103).
import { EXTENSION_URIS, OBJECT_URIS } from "./namespaces";
import type { Greeting, LoginCommand } from "./types";

export interface LoginServices {
  /** Offered and used, in the order this service lists them. */
  objURIs: string[];
  extURIs: string[];
  /** Used but not offered: the commands of a missing object cannot go to this registry; a missing extension's parts are left out. */
  missingObjects: string[];
  missingExtensions: string[];
}

/** The services to log in with: what the greeting offers ∩ what is used (OBJECT_URIS, EXTENSION_URIS unless told). */
export function loginServices(greeting: Greeting, used: { objects?: readonly string[]; extensions?: readonly string[] } = {}): LoginServices {
  const objects = used.objects ?? OBJECT_URIS;
  const extensions = used.extensions ?? EXTENSION_URIS;
  const offeredObjects = new Set(greeting.objURIs);
  const offeredExtensions = new Set(greeting.extURIs);
  return {
    objURIs: objects.filter((uri) => offeredObjects.has(uri)),
    extURIs: extensions.filter((uri) => offeredExtensions.has(uri)),
    missingObjects: objects.filter((uri) => !offeredObjects.has(uri)),
    missingExtensions: extensions.filter((uri) => !offeredExtensions.has(uri)),
  };
}

/**
 * The login for a greeting: version 1.0 and English (both required of every server by
 * RFC 5730 §2.4's schema and text), with loginServices' URIs. Null when the greeting
 * offers none of the objects used, or no version 1.0, or no English: nothing could be
 * done on such a session.
 */
export function loginFor(greeting: Greeting, credentials: { clientId: string; password: string; newPassword?: string }): LoginCommand | null {
  const services = loginServices(greeting);
  if (services.objURIs.length === 0 || !greeting.versions.includes("1.0") || !greeting.langs.some((lang) => lang.toLowerCase() === "en")) return null;
  const login: LoginCommand = {
    kind: "login",
    clientId: credentials.clientId,
    password: credentials.password,
    version: "1.0",
    lang: "en",
    objURIs: services.objURIs,
    extURIs: services.extURIs,
  };
  if (credentials.newPassword !== undefined) login.newPassword = credentials.newPassword;
  return login;
}
