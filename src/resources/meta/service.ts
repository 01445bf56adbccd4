// The service's name and version, and the documents that describe it: the index (links to
// every collection) and the problem types.
import { PROBLEMS, problemTypeUri, type ProblemCode } from "../../http/problem";

export const SERVICE_NAME = "domain-api";
export const SERVICE_VERSION = "1.0.0";

const COLLECTIONS = ["contacts", "domains", "hosts", "zones", "records", "events", "extensions", "repositories", "accounts", "tokens"] as const;

export function describeProblem(code: ProblemCode) {
  const { status, title, about } = PROBLEMS[code];
  return { type: problemTypeUri(code), code, status, title, description: about };
}

// The three documents never change while the Worker runs: built once, they are both the
// answers and the OpenAPI examples of these operations.
export const SERVICE_INDEX = {
  name: SERVICE_NAME,
  version: SERVICE_VERSION,
  links: {
    ...Object.fromEntries(COLLECTIONS.map((name) => [name, `/v1/${name}`])),
    me: "/v1/me",
    sweep: "/v1/lifecycle/sweep",
    problems: "/v1/problems",
    openapi: "/v1/openapi.json",
    docs: "/v1/docs",
  },
};
export const PROBLEM_TYPES = { data: (Object.keys(PROBLEMS) as ProblemCode[]).map(describeProblem) };
