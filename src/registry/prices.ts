// What registering, renewing, transferring and restoring a name costs (docs/lifecycle.md#availability-and-prices as
// docs/lifecycle.md tells it): the catalog gives one year of each operation per extension,
// and per premium name; the price of a period is derived here. Amounts are decimal strings
// ("12.00") and are computed in whole cents, never in floating point. Premium prices must
// be confirmed by the client, as the EPP fee extension (RFC 8748 §3.8) has a client
// acknowledge the fee of a premium name before the registry charges it.
import type { FieldError } from "./field-error";

/** One year of each operation, as the catalog stores it (drizzle/0021). */
export interface YearlyPrices {
  currency: string;
  register: string;
  renew: string;
  /** A transfer adds one year (ICANN transfer policy); this is its price. */
  transfer: string;
  /** The RFC 3915 restore fee. */
  restore: string;
}

/** The prices an extension or a premium name shows: every period it allows. */
export interface PriceTable {
  currency: string;
  register: Record<string, string>;
  renew: Record<string, string>;
  transfer: Record<string, string>;
  restore: string;
}

/** What one operation costs. */
export interface Price {
  currency: string;
  amount: string;
}

export type PricedOperation = "register" | "renew" | "transfer" | "restore";

/** An amount as the API writes and reads it: whole units and at most two decimals. */
export const AMOUNT_PATTERN = /^[0-9]{1,9}(\.[0-9]{1,2})?$/;

/** "12.5" → 1250 cents; null when it is not an amount. */
export function toCents(amount: string): number | null {
  if (!AMOUNT_PATTERN.test(amount)) return null;
  const [units, decimals = ""] = amount.split(".");
  return Number(units) * 100 + Number(decimals.padEnd(2, "0"));
}

/** 1250 → "12.50". */
export function fromCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

function cents(amount: string): number {
  const value = toCents(amount);
  if (value === null) throw new Error(`the catalog holds a price that is not an amount: ${JSON.stringify(amount)}`);
  return value;
}

/**
 * The price of `years` of an operation: registering n years is the first year at the
 * registration price and n-1 renewals; a transfer's first year is the transfer price and
 * any further years are renewals; renewing n years is n renewals; a restore is its fee
 * (the renewal a restore of an expired domain includes is not charged apart).
 */
export function priceOf(yearly: YearlyPrices, operation: PricedOperation, years: number): Price {
  const renew = cents(yearly.renew);
  const more = Math.max(0, years - 1) * renew;
  const amount =
    operation === "restore"
      ? cents(yearly.restore)
      : operation === "renew"
        ? years * renew
        : cents(operation === "register" ? yearly.register : yearly.transfer) + more;
  return { currency: yearly.currency, amount: fromCents(amount) };
}

/** Every period from `min` to `max` years, keyed by the number of years as a string. */
export function priceTable(yearly: YearlyPrices, periods: { min: number; max: number }): PriceTable {
  const each = (operation: "register" | "renew" | "transfer") => {
    const table: Record<string, string> = {};
    for (let years = periods.min; years <= periods.max; years++) table[String(years)] = priceOf(yearly, operation, years).amount;
    return table;
  };
  return { currency: yearly.currency, register: each("register"), renew: each("renew"), transfer: each("transfer"), restore: fromCents(cents(yearly.restore)) };
}

/** How the catalog treats one name: the prices that apply, and whether they are the name's own. */
export interface NamePricing {
  premium: boolean;
  reserved: boolean;
  yearly: YearlyPrices;
}

/**
 * The pricing of a registrable name under an extension: a premium name's own prices, or the
 * extension's; a reserved name cannot be registered at all.
 */
export function namePricing(
  name: string,
  extension: { prices: YearlyPrices },
  listed: ReadonlyMap<string, { kind: "premium" | "reserved"; prices: YearlyPrices | null }>,
): NamePricing {
  const entry = listed.get(name);
  if (entry?.kind === "premium" && entry.prices) return { premium: true, reserved: false, yearly: entry.prices };
  return { premium: false, reserved: entry?.kind === "reserved", yearly: extension.prices };
}

/** Why a reserved name cannot be registered. */
export function reservedNameErrors(name: string, pricing: NamePricing): FieldError[] {
  return pricing.reserved ? [{ field: "name", message: `${name} is reserved by its registry and cannot be registered` }] : [];
}

const VERBS: Record<PricedOperation, string> = { register: "registering", renew: "renewing", transfer: "transferring", restore: "restoring" };

/**
 * Whether the client confirmed the price it will be charged (RFC 8748 §3.8: the fee of a
 * premium name must be acknowledged, else the registry refuses the command). A premium
 * operation needs `price`, equal to the charge; an ordinary one may leave it out, and when
 * it gives one, that too must be the charge (a client that expected another price learns
 * so before it pays). Amounts compare as numbers of cents ("2500" is "2500.00").
 */
export function priceConfirmationErrors(
  charged: Price,
  confirmed: string | undefined,
  about: { name: string; operation: PricedOperation; years: number; premium: boolean },
): FieldError[] {
  if (confirmed === undefined ? !about.premium : toCents(confirmed) === toCents(charged.amount)) return [];
  const what = `${VERBS[about.operation]} ${about.name}${about.operation === "restore" ? "" : ` for ${about.years} year${about.years === 1 ? "" : "s"}`}`;
  const premium = about.premium ? "a premium price: " : "";
  const message =
    confirmed === undefined
      ? `is required: ${what} costs ${premium}${charged.amount} ${charged.currency}; confirm it with "price": "${charged.amount}" (RFC 8748)`
      : `"${confirmed}" is not the price: ${what} costs ${premium}${charged.amount} ${charged.currency}`;
  return [{ field: "price", message }];
}
