// A transform whose answer never came (a timeout, a reset after it was sent) is never sent
// again blindly (docs/registries.md, "Unknown outcomes"): the gateway asks the registry
// (outcomeQuery in result-codes.ts, an <info> or a transfer query) and this decides, from that answer,
// whether the command took effect. What cannot be told for sure is "unknown", and the
// API answers 503 rather than guess.
import type { DomainInfo, EppCommand, EppResponse, ResData, StatusValue } from "./types";

export type Outcome = "applied" | "not_applied" | "unknown";

const OBJECT_MISSING = 2303;

function infoOf<K extends "domain:infData" | "host:infData" | "contact:infData">(response: EppResponse, kind: K): Extract<ResData, { kind: K }> | undefined {
  return response.resData.find((data): data is Extract<ResData, { kind: K }> => data.kind === kind);
}

const hasStatus = (statuses: StatusValue[], s: string) => statuses.some((status) => status.s === s);
const dayOf = (dateTime: string | undefined) => dateTime?.slice(0, 10);

/** The date `years` after a YYYY-MM-DD date (a renewal's new expiry, as the registry computes it). */
export function addYearsToDate(date: string, years: number): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString().slice(0, 10);
}

/** Whether every change of an update is visible in the info, none of them, or a mix (unknown). */
function updateOutcome(changes: boolean[]): Outcome {
  if (changes.length === 0) return "unknown";
  if (changes.every(Boolean)) return "applied";
  if (changes.every((c) => !c)) return "not_applied";
  return "unknown";
}

function domainUpdateChanges(command: Extract<EppCommand, { kind: "domain:update" }>, info: DomainInfo): boolean[] {
  const ns = new Set(info.nameservers.map((n) => n.toLowerCase()));
  return [
    ...(command.add?.nameservers ?? []).map((n) => ns.has(n.toLowerCase())),
    ...(command.rem?.nameservers ?? []).map((n) => !ns.has(n.toLowerCase())),
    ...(command.add?.statuses ?? []).map((s) => hasStatus(info.statuses, s.s)),
    ...(command.rem?.statuses ?? []).map((s) => !hasStatus(info.statuses, s.s)),
    ...(command.add?.contacts ?? []).map((c) => info.contacts.some((x) => x.type === c.type && x.id === c.id)),
    ...(command.rem?.contacts ?? []).map((c) => !info.contacts.some((x) => x.type === c.type && x.id === c.id)),
    ...(command.chg?.registrant !== undefined ? [(info.registrant ?? "") === command.chg.registrant] : []),
  ];
}

/**
 * Did `command`, sent by `clientId`, take effect? `answer` is the registry's answer to
 * outcomeQuery(command), asked after the command's own answer was lost.
 */
export function outcomeFromQuery(command: EppCommand, answer: EppResponse, clientId: string): Outcome {
  const missing = answer.code === OBJECT_MISSING;
  switch (command.kind) {
    case "domain:create": {
      if (missing) return "not_applied";
      const info = infoOf(answer, "domain:infData");
      if (!info) return "unknown";
      return info.clID === clientId ? "applied" : "not_applied";
    }
    case "host:create":
    case "contact:create": {
      if (missing) return "not_applied";
      const info = command.kind === "host:create" ? infoOf(answer, "host:infData") : infoOf(answer, "contact:infData");
      if (!info) return "unknown";
      return info.clID === clientId ? "applied" : "not_applied";
    }
    case "domain:delete": {
      if (missing) return "applied";
      const info = infoOf(answer, "domain:infData");
      if (!info) return "unknown";
      return hasStatus(info.statuses, "pendingDelete") ? "applied" : "not_applied";
    }
    case "host:delete":
    case "contact:delete":
      if (missing) return "applied";
      return answer.code === 1000 ? "not_applied" : "unknown";
    case "domain:renew": {
      const info = infoOf(answer, "domain:infData");
      if (!info) return "unknown";
      const years = command.period ? (command.period.unit === "y" ? command.period.value : command.period.value / 12) : 1;
      const exDate = dayOf(info.exDate);
      if (exDate === addYearsToDate(command.curExpDate, years)) return "applied";
      if (exDate === command.curExpDate) return "not_applied";
      return "unknown";
    }
    case "domain:update": {
      const info = infoOf(answer, "domain:infData");
      if (!info || command.restore || command.ds) return "unknown";
      const changes = domainUpdateChanges(command, info);
      // A new authInfo is seen only where the registry shows its sponsor the domain's (RFC 5731 §3.1.2: it may not).
      if (command.chg?.authInfo !== undefined) {
        if (info.authInfo === undefined) return "unknown";
        changes.push(info.authInfo === command.chg.authInfo);
      }
      return updateOutcome(changes);
    }
    case "host:update": {
      if (command.newName !== undefined) {
        if (missing) return "not_applied";
        const info = infoOf(answer, "host:infData");
        return info && info.clID === clientId ? "applied" : "unknown";
      }
      const info = infoOf(answer, "host:infData");
      if (!info) return "unknown";
      const addresses = new Set(info.addresses.map((a) => a.address.toLowerCase()));
      return updateOutcome([
        ...(command.add?.addresses ?? []).map((a) => addresses.has(a.toLowerCase())),
        ...(command.rem?.addresses ?? []).map((a) => !addresses.has(a.toLowerCase())),
        ...(command.add?.statuses ?? []).map((s) => hasStatus(info.statuses, s.s)),
        ...(command.rem?.statuses ?? []).map((s) => !hasStatus(info.statuses, s.s)),
      ]);
    }
    case "contact:update": {
      const info = infoOf(answer, "contact:infData");
      if (!info) return "unknown";
      return updateOutcome([
        ...(command.chg?.email !== undefined ? [info.email === command.chg.email] : []),
        ...(command.add?.statuses ?? []).map((s) => hasStatus(info.statuses, s.s)),
        ...(command.rem?.statuses ?? []).map((s) => !hasStatus(info.statuses, s.s)),
      ]);
    }
    case "domain:transfer":
    case "contact:transfer": {
      const data = answer.resData.find((d) => d.kind === "domain:trnData" || d.kind === "contact:trnData");
      if (!data || (data.kind !== "domain:trnData" && data.kind !== "contact:trnData")) return command.op === "request" && missing ? "not_applied" : "unknown";
      const expected = { request: "pending", approve: "clientApproved", reject: "clientRejected", cancel: "clientCancelled", query: null }[command.op];
      if (expected === null) return "unknown";
      if (command.op === "request") return data.trStatus === "pending" && data.reID === clientId ? "applied" : "not_applied";
      return data.trStatus === expected ? "applied" : data.trStatus === "pending" ? "not_applied" : "unknown";
    }
    default:
      return "unknown";
  }
}

/**
 * The answer a command would have had, made from what the registry showed when asked: a
 * create's creData from the info (1001 when the object is still pending), with the info
 * beside it, a renew's new expiry. Only for commands outcomeFromQuery found applied.
 */
export function recoveredResponse(command: EppCommand, answer: EppResponse): EppResponse {
  const info = infoOf(answer, "domain:infData");
  const pending = info ? info.statuses.some((s) => s.s.startsWith("pending")) : false;
  const base = {
    ...answer,
    code: pending ? 1001 : 1000,
    results: [{ code: pending ? 1001 : 1000, msg: "Recovered: the command took effect", values: [], extValues: [] }],
    extensions: [],
  };
  // A create answered from the registry's info carries that info too: its ROID, which <domain:creData> has no
  // room for (RFC 5731 §3.2.1), goes into the create's own write (docs/registries.md, "The registry decides").
  if (command.kind === "domain:create" && info)
    return {
      ...base,
      resData: [{ kind: "domain:creData", name: info.name, crDate: info.crDate ?? "", ...(info.exDate ? { exDate: info.exDate } : {}) }, info],
    };
  if (command.kind === "domain:renew" && info)
    return { ...base, resData: [{ kind: "domain:renData", name: info.name, ...(info.exDate ? { exDate: info.exDate } : {}) }] };
  if (command.kind === "host:create") {
    const host = infoOf(answer, "host:infData");
    if (host) return { ...base, resData: [{ kind: "host:creData", name: host.name, crDate: host.crDate }] };
  }
  if (command.kind === "contact:create") {
    const contact = infoOf(answer, "contact:infData");
    if (contact) return { ...base, resData: [{ kind: "contact:creData", id: contact.id, crDate: contact.crDate }] };
  }
  return { ...base, resData: answer.resData.filter((d) => d.kind === "domain:trnData" || d.kind === "contact:trnData") };
}
