// Which extension a domain name is registered under (docs/model.md#domains): the longest catalog
// extension that is a suffix of the name, with exactly one label in front of it.
import { idna2008LabelProblem } from "../dns/idna2008";
import { isIdnName, toUnicodeName } from "../dns/name";
import type { FieldError } from "./field-error";

export interface ExtensionMatch<E> {
  extension: E;
  /** The registrable label in front of the extension (`example` in `example.co.uk`). */
  label: string;
}

/** `unsupported`: no catalog extension is a suffix of the name; `not_registrable`: one is, but the name is not one label under it. */
export type RegistrableResult<E> = { ok: true; match: ExtensionMatch<E> } | { ok: false; error: string; kind: "unsupported" | "not_registrable" };

/**
 * `example.co.uk` → `co.uk` (longest match wins over `uk`); `www.example.com` is not
 * registrable (a domain is one label under its extension); `example.invalid` has none.
 */
export function matchRegistrableName<E extends { id: string }>(name: string, extensions: ReadonlyMap<string, E>): RegistrableResult<E> {
  // `co.uk` is an extension of its own, so it is not a name registrable under `uk`.
  if (extensions.has(name)) {
    return { ok: false, kind: "not_registrable", error: `is an extension itself, not a registrable name: register a name under it, such as example.${name}` };
  }
  const labels = name.split(".");
  for (let i = 1; i < labels.length; i++) {
    const suffix = labels.slice(i).join(".");
    const extension = extensions.get(suffix);
    if (!extension) continue;
    if (i > 1) {
      return {
        ok: false,
        kind: "not_registrable",
        error: `is not a registrable name: a domain is exactly one label under .${suffix} (did you mean ${labels.slice(i - 1).join(".")}?)`,
      };
    }
    const label = labels[0]!;
    // IDNA2008 for what is registered (UTS #46 lets more through): RFC 5891–5893.
    const idna = label.startsWith("xn--") ? idna2008LabelProblem(toUnicodeName(label)) : null;
    if (idna) return { ok: false, kind: "not_registrable", error: `is not a registrable name: ${idna}` };
    return { ok: true, match: { extension, label } };
  }
  return {
    ok: false,
    kind: "unsupported",
    error: `is under no extension offered here (.${labels.slice(1).join(".") || name} is not one; GET /v1/extensions lists those that are)`,
  };
}

/**
 * The registrable domain a name falls under (`ns1.example.co.uk` → `example.co.uk`), or
 * null when no catalog extension is a suffix of it. A name that is itself registrable is
 * its own registrable domain. Since every domain is one label under its extension, this
 * is the only domain here that can be superordinate to a host of that name.
 */
export function registrableDomainOf(name: string, extensions: ReadonlyMap<string, unknown>): string | null {
  const labels = name.split(".");
  for (let i = 1; i < labels.length; i++) {
    if (extensions.has(labels.slice(i).join("."))) return labels.slice(i - 1).join(".");
  }
  return null;
}

/** An extension that does not take internationalised names refuses a name with an A-label (RFC 5890). */
export function idnErrors(name: string, extension: { id: string; idn: boolean }): FieldError[] {
  if (extension.idn || !isIdnName(name)) return [];
  return [{ field: "name", message: `.${extension.id} does not register internationalised (IDN) names` }];
}

/** Why a name cannot be registered, as an availability check says it (docs/lifecycle.md#availability-and-prices). */
export type Unavailability = "registered" | "reserved" | "invalid" | "unsupported_extension";

/**
 * Whether a name can be registered, in the order a registration would refuse it: a name
 * that is not a domain name, or not one label under an extension, or an IDN under an
 * extension without IDNs, is `invalid`; a name under no extension `unsupported_extension`;
 * then a name held by any account (`registered`: whoever holds it, in redemption too) and
 * one its registry keeps (`reserved`). Null: available.
 */
export function unavailability(
  match: RegistrableResult<{ id: string; idn: boolean }> | null,
  name: string,
  facts: { registered: boolean; reserved: boolean },
): Unavailability | null {
  if (match === null) return "invalid";
  if (!match.ok) return match.kind === "unsupported" ? "unsupported_extension" : "invalid";
  if (idnErrors(name, match.match.extension).length > 0) return "invalid";
  if (facts.registered) return "registered";
  if (facts.reserved) return "reserved";
  return null;
}
