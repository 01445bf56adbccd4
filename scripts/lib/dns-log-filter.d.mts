// Types for dns-log-filter.mjs, which runs in Node without a build step (scripts/start.mjs, scripts/dns.mjs).
export function namesDnsBackendPath(line: string): boolean;
export function redactDnsBackend(line: string, secrets?: readonly string[]): string;
export function forwardLines(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, transform: (line: string) => string | null): Promise<void>;
export function withoutDnsBackendPaths(line: string): string | null;
