// Types for receiver.mjs, which runs in Node (the unit project).
export interface ReceivedRequest {
  method: string;
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answers this long after the request has been read. */
  delayMs?: number;
}
export interface Receiver {
  /** http://127.0.0.1:<port>/hook */
  url: string;
  port: number;
  /** Every request received, in the order received. */
  requests: ReceivedRequest[];
  close(): Promise<void>;
}
export function startReceiver(answer?: (request: ReceivedRequest, index: number) => Reply): Promise<Receiver>;
