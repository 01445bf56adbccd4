// The registry's answers as ours (contract section 21; docs/registries.md, "The
// answers"): each result code through resultCode() (src/epp/result-codes.ts), a refusal
// as its problem with the registry's own words (its msg and each extValue's reason) in
// `detail`. Pure: no HTTP, no database.
import { resultCode } from "../epp/result-codes";
import type { EppResponse, ResData } from "../epp/types";
import { ApiError } from "../http/problem";
import { GATEWAY_RETRY_AFTER_SECONDS } from "./gateway";

/** What a command that the registry accepted became: done now, or pending at the registry (1001). */
export type Accepted = { outcome: "done"; svTRID: string } | { outcome: "pending"; svTRID: string };

/** The registry's words: its code, its message and every extValue's reason. */
export function registryWords(response: EppResponse): string {
  const result = response.results[0];
  const reasons = response.results.flatMap((r) => r.extValues.map((v) => v.reason)).filter((r) => r.trim() !== "");
  const msg = result?.msg?.trim() || resultCode(response.code).message;
  return `${response.code} ${msg}${reasons.length > 0 ? ` (${reasons.join("; ")})` : ""}`;
}

/** The problem a refusal (or a failure) is; null when the registry accepted the command. */
export function registryProblem(response: EppResponse, what: string): ApiError | null {
  const entry = resultCode(response.code);
  const words = `the registry answered ${registryWords(response)}`;
  switch (entry.answer.outcome) {
    case "done":
    case "pending":
      return null;
    case "refused":
      if (entry.answer.problem === "registry_unavailable")
        return new ApiError("registry_unavailable", `${what}: ${words}; nothing was changed.`, {
          headers: { "Retry-After": String(GATEWAY_RETRY_AFTER_SECONDS) },
        });
      return new ApiError(entry.answer.problem, `${what}: ${words}.`);
    case "retry":
      return new ApiError("registry_unavailable", `${what}: ${words}; nothing was changed. Try again in ${GATEWAY_RETRY_AFTER_SECONDS} s.`, {
        headers: { "Retry-After": String(GATEWAY_RETRY_AFTER_SECONDS) },
      });
  }
}

/** The command's outcome, or its problem thrown. */
export function accepted(response: EppResponse, what: string): Accepted {
  const problem = registryProblem(response, what);
  if (problem) throw problem;
  return { outcome: resultCode(response.code).answer.outcome === "pending" ? "pending" : "done", svTRID: response.trID.svTRID };
}

/** The resData of one kind in an answer. */
export function resDataOf<K extends ResData["kind"]>(response: EppResponse, kind: K): Extract<ResData, { kind: K }> | undefined {
  return response.resData.find((data): data is Extract<ResData, { kind: K }> => data.kind === kind);
}

/** An EPP dateTime as the API writes times (ISO 8601 in UTC, milliseconds); null when it is not one. */
export function apiTime(dateTime: string | undefined): string | null {
  if (!dateTime) return null;
  const time = Date.parse(dateTime);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
