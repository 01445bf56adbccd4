// One registry's sessions (docs/registries.md, "The gateway"): a small pool of EPP
// sessions, each taking one command at a time; reconnection with exponential backoff; a
// <hello> on idle sessions before the server's idle limit; the registry's message queue
// read continuously and each message handed over before it is acked; and the rule for a
// command whose answer was lost: ask the registry, never send it again blindly.
import { outcomeFromQuery, recoveredResponse } from "../epp/outcome";
import { closesSession, commandRetry, outcomeQuery } from "../epp/result-codes";
import { EppInputError } from "../epp/values";
import type { EppCommand, EppResponse, Greeting } from "../epp/types";
import type { ConnectorConfig } from "./config";
import { MessageLedger, messageIdOf, sha256Hex } from "./message-ledger";
import { EppSession, LoginRefused, SessionFailure } from "./session";

export interface PoolOptions {
  connectTimeoutMs: number;
  /** The whole time a command may take in the gateway, retries and asking included: under the Worker's 10 s. */
  commandBudgetMs: number;
  /** A <hello> on a session idle this long (registries close sessions idle for about 10 minutes). */
  keepAliveMs: number;
  /** How often the message queue is asked when it was last found empty. */
  pollIntervalMs: number;
  backoffMinMs: number;
  backoffMaxMs: number;
  /** Failed hand-overs of one poll message before it is set aside (kept in stateDir) and acked: never looped on. */
  messageAttempts: number;
  /** The longest wait between two hand-overs of a poll message the API did not take (the first is min(5 s, pollIntervalMs), doubling). */
  messageRetryMaxMs: number;
  /** The gateway's state directory (set-aside poll messages); null: a message the API never takes is only backed off, never acked. */
  stateDir: string | null;
}

export const DEFAULT_POOL_OPTIONS: PoolOptions = {
  connectTimeoutMs: 5_000,
  commandBudgetMs: 8_000,
  keepAliveMs: 240_000,
  pollIntervalMs: 30_000,
  backoffMinMs: 1_000,
  backoffMaxMs: 60_000,
  messageAttempts: 8,
  messageRetryMaxMs: 300_000,
  stateDir: null,
};

export type ConnectorState = "connecting" | "up" | "down";

export type GatewayAnswer =
  | { outcome: "answered"; response: EppResponse; recovered?: boolean; retried?: boolean }
  | { outcome: "unavailable"; retry_after: number; reason: string };

/** A poll message handed to the API: ok once it was applied or kept there (then it is acked); else why not. */
/**
 * Hands one poll message to the API. `replayed`: handed over from a set-aside record, after
 * the messages behind it in the queue: its own state may be older than what the API applied
 * since, so the API asks the registry instead of following it (docs/decisions.md).
 */
export type MessageHandler = (repository: string, message: EppResponse, hand?: { replayed: boolean }) => Promise<{ ok: true } | { ok: false; reason: string }>;

class Unavailable extends Error {}

export class RegistryPool {
  state: ConnectorState = "connecting";
  since = new Date().toISOString();
  lastError: string | null = null;
  greeting: Greeting | null = null;
  #sessions: EppSession[] = [];
  #opening = 0;
  #waiters: ((session: EppSession | null) => void)[] = [];
  #backoffMs: number;
  #retryTimer: NodeJS.Timeout | undefined;
  #ticker: NodeJS.Timeout | undefined;
  #pollTimer: NodeJS.Timeout | undefined;
  #polling = false;
  /** No poll before this (a message at the head of the queue waits out its backoff). */
  #pollNotBefore = 0;
  #stopped = false;
  readonly messages: MessageLedger;

  constructor(
    readonly repository: string,
    readonly config: ConnectorConfig,
    readonly options: PoolOptions = DEFAULT_POOL_OPTIONS,
    readonly onMessage: MessageHandler | null = null,
  ) {
    this.#backoffMs = options.backoffMinMs;
    this.messages = new MessageLedger(repository, {
      attempts: options.messageAttempts,
      retryMinMs: Math.min(5_000, options.pollIntervalMs),
      retryMaxMs: options.messageRetryMaxMs,
      stateDir: onMessage ? options.stateDir : null,
    });
  }

  get size(): number {
    return this.config.sessions ?? 2;
  }

  start(): void {
    this.#fill();
    this.#ticker = setInterval(() => this.#keepAlive(), Math.min(30_000, this.options.keepAliveMs / 2));
    this.#ticker.unref();
    if (this.onMessage) this.#schedulePoll(0);
  }

  status() {
    return {
      state: this.state,
      since: this.since,
      // The login this gateway holds there (no secret: the registry names it as clID in every answer about our objects).
      client_id: this.config.client_id,
      last_error: this.lastError,
      objects: this.greeting?.objURIs ?? [],
      extensions: this.greeting?.extURIs ?? [],
      sessions: { open: this.#sessions.length, configured: this.size },
      // Poll messages the API did not take: those waiting out their backoff, those set aside (acked, kept here).
      messages: this.messages.status(),
    };
  }

  #setState(state: ConnectorState, error?: string): void {
    if (error !== undefined) this.lastError = error;
    if (state === this.state) return;
    this.state = state;
    this.since = new Date().toISOString();
  }

  #fill(): void {
    if (this.#stopped) return;
    while (this.#sessions.length + this.#opening < this.size) void this.#open();
  }

  async #open(): Promise<void> {
    this.#opening += 1;
    try {
      const session = await EppSession.open(this.config, { connectTimeoutMs: this.options.connectTimeoutMs, commandTimeoutMs: this.options.commandBudgetMs });
      if (this.#stopped) {
        session.close();
        return;
      }
      this.greeting = session.greeting;
      this.#sessions.push(session);
      this.#backoffMs = this.options.backoffMinMs;
      this.#setState("up");
      session.onClose(() => {
        this.#sessions = this.#sessions.filter((s) => s !== session);
        if (this.#sessions.length === 0 && !this.#stopped) this.#setState("connecting");
        this.#scheduleFill();
      });
      this.#release(session);
    } catch (error) {
      const message = error instanceof LoginRefused || error instanceof SessionFailure ? error.message : `connecting: ${(error as Error).message}`;
      if (this.#sessions.length === 0) this.#setState("down", message);
      else this.lastError = message;
      // Nobody waits for a session that will not come: waiters give up now, not at their deadline.
      if (this.#sessions.length === 0) for (const waiter of this.#waiters.splice(0)) waiter(null);
      this.#scheduleFill();
    } finally {
      this.#opening -= 1;
    }
  }

  /** Opens the missing sessions after the backoff (doubling to its maximum, with jitter). */
  #scheduleFill(): void {
    if (this.#stopped || this.#retryTimer) return;
    const delay = this.#backoffMs * (0.75 + Math.random() * 0.5);
    this.#backoffMs = Math.min(this.options.backoffMaxMs, this.#backoffMs * 2);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#fill();
    }, delay);
    this.#retryTimer.unref();
  }

  /** Seconds a client should wait before trying again, as Retry-After. */
  retryAfter(): number {
    return this.state === "up" ? 1 : Math.max(1, Math.min(30, Math.ceil(this.#backoffMs / 1000)));
  }

  #release(session: EppSession): void {
    session.busy = false;
    if (session.closed) return;
    const waiter = this.#waiters.shift();
    if (waiter) {
      session.busy = true;
      waiter(session);
    }
  }

  #acquire(deadline: number): Promise<EppSession> {
    const free = this.#sessions.find((s) => !s.busy && !s.closed);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    if (this.#sessions.length === 0 && this.state === "down") return Promise.reject(new Unavailable(`the registry is down: ${this.lastError ?? "no session"}`));
    return new Promise((resolve, reject) => {
      const waiter = (session: EppSession | null) => {
        clearTimeout(timer);
        if (session) resolve(session);
        else reject(new Unavailable(`the registry is down: ${this.lastError ?? "no session"}`));
      };
      const timer = setTimeout(
        () => {
          this.#waiters = this.#waiters.filter((w) => w !== waiter);
          reject(new Unavailable("no session of the registry was free in time"));
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#waiters.push(waiter);
    });
  }

  /** One command on one session, within the deadline. */
  async #once(command: EppCommand, clTRID: string, deadline: number): Promise<EppResponse> {
    const session = await this.#acquire(deadline);
    try {
      const response = await session.command(command, clTRID, Math.max(1, deadline - Date.now()));
      if (response.msgQ && response.msgQ.count > 0 && this.onMessage && !this.#polling) this.#schedulePoll(0);
      if (closesSession(response.code)) session.close();
      return response;
    } finally {
      this.#release(session);
    }
  }

  /**
   * Sends a command and answers within the budget. A command the registry says failed
   * without effect (2400, 25xx) or that was not sent is tried once more on a fresh session;
   * a query whose answer was lost likewise; a transform whose answer was lost is never
   * sent again blindly: the registry is asked whether it took effect (same clTRID).
   */
  async run(command: EppCommand, clTRID: string): Promise<GatewayAnswer> {
    const deadline = Date.now() + this.options.commandBudgetMs;
    const unavailable = (reason: string): GatewayAnswer => ({ outcome: "unavailable", retry_after: this.retryAfter(), reason });
    let retried = false;
    for (;;) {
      try {
        const response = await this.#once(command, clTRID, deadline);
        const failedWithoutEffect = response.code === 2400 || closesSession(response.code);
        if (failedWithoutEffect && !retried && Date.now() < deadline) {
          retried = true;
          continue;
        }
        if (failedWithoutEffect) return unavailable(`the registry answered ${response.code} ${response.results[0]?.msg ?? ""}`.trim());
        if (command.kind === "domain:create" && response.code === 2302) return this.#ownAlready(command, clTRID, deadline, response);
        return { outcome: "answered", response, ...(retried ? { retried } : {}) };
      } catch (error) {
        // A value the schemas forbid: nothing was sent, and sending it again would not help.
        if (error instanceof EppInputError) throw error;
        if (error instanceof Unavailable) return unavailable(error.message);
        const failure = error instanceof SessionFailure ? error : new SessionFailure(String(error), true);
        if ((!failure.sent || commandRetry(command) === "safe") && !retried && Date.now() < deadline) {
          retried = true;
          continue;
        }
        if (!failure.sent || commandRetry(command) === "safe") return unavailable(failure.message);
        return this.#recover(command, clTRID, deadline, failure.message);
      }
    }
  }

  /**
   * A create answered 2302 (the name exists): when the registry shows us as its sponsor, it
   * is our own create whose answer was lost before (an Idempotency-Key retry after a 503,
   * a Worker stopped before its D1 write): answered for as the create's (`recovered`), so
   * the retry records the domain instead of refusing it as another's. The Worker only sends
   * a create for a name D1 does not hold, and D1's unique name settles two at once.
   */
  async #ownAlready(command: EppCommand, clTRID: string, deadline: number, refusal: EppResponse): Promise<GatewayAnswer> {
    const query = outcomeQuery(command);
    if (!query) return { outcome: "answered", response: refusal };
    try {
      const answer = await this.#once(query, clTRID, deadline);
      if (outcomeFromQuery(command, answer, this.config.client_id) === "applied")
        return { outcome: "answered", response: recoveredResponse(command, answer), recovered: true };
    } catch {
      // Not asked: the refusal stands as the registry gave it.
    }
    return { outcome: "answered", response: refusal };
  }

  /** The answer of a transform was lost: ask, then answer for it or send it once more. */
  async #recover(command: EppCommand, clTRID: string, deadline: number, why: string): Promise<GatewayAnswer> {
    const unavailable = (reason: string): GatewayAnswer => ({ outcome: "unavailable", retry_after: this.retryAfter(), reason });
    const query = outcomeQuery(command);
    if (!query) return unavailable(`${why}; the outcome is unknown`);
    let answer: EppResponse;
    try {
      answer = await this.#once(query, clTRID, deadline);
    } catch (error) {
      return unavailable(`${why}; asking the registry whether it took effect failed too: ${(error as Error).message}`);
    }
    const outcome = outcomeFromQuery(command, answer, this.config.client_id);
    if (outcome === "applied") return { outcome: "answered", response: recoveredResponse(command, answer), recovered: true };
    if (outcome === "unknown") return unavailable(`${why}; the registry's answer does not tell whether the command took effect`);
    try {
      const response = await this.#once(command, clTRID, deadline);
      return { outcome: "answered", response, retried: true };
    } catch (error) {
      return unavailable(`${why}; sent again after the registry showed it had not taken effect, and that failed too: ${(error as Error).message}`);
    }
  }

  #keepAlive(): void {
    const now = Date.now();
    for (const session of this.#sessions) {
      if (session.busy || now - session.lastUsed < this.options.keepAliveMs) continue;
      session.busy = true;
      session
        .hello(this.options.connectTimeoutMs)
        .catch(() => session.close())
        .finally(() => this.#release(session));
    }
  }

  #schedulePoll(delayMs: number): void {
    if (this.#stopped || !this.onMessage) return;
    clearTimeout(this.#pollTimer);
    this.#pollTimer = setTimeout(() => void this.#poll(), Math.max(delayMs, this.#pollNotBefore - Date.now()));
    this.#pollTimer.unref();
  }

  /** One `<poll op="req">` on one session: its frame as received and the codec's reading; null when the registry could not be asked. */
  async #pollRequest(): Promise<{ xml: string; response: EppResponse | null; reason: string | null } | null> {
    const deadline = Date.now() + this.options.commandBudgetMs;
    let session: EppSession;
    try {
      session = await this.#acquire(deadline);
    } catch {
      return null;
    }
    try {
      const { xml, parsed } = await session.commandFrame({ kind: "poll", op: "req" }, `poll-${Date.now().toString(36)}`, Math.max(1, deadline - Date.now()));
      if (!parsed.ok) return { xml, response: null, reason: `${parsed.error.code}: ${parsed.error.message}` };
      if (closesSession(parsed.value.code)) session.close();
      return { xml, response: parsed.value, reason: null };
    } catch {
      return null;
    } finally {
      this.#release(session);
    }
  }

  /**
   * Reads the message queue until it is empty: each message handed over, then acked. None is
   * looped on: a message that comes back (its hand-over or its ack failed) waits out an
   * exponential backoff, and after `messageAttempts` failed hand-overs it is set aside (kept
   * in the state directory, raw XML and all) and acked, so the queue behind it moves on.
   * Set-aside messages are handed over again from their records first, less and less often.
   */
  async #poll(): Promise<void> {
    if (this.#polling || this.#stopped || !this.onMessage) return;
    this.#polling = true;
    let next = this.options.pollIntervalMs;
    const backOff = (ms: number) => {
      next = ms;
      this.#pollNotBefore = Date.now() + ms;
    };
    try {
      await this.#replaySetAside();
      for (let i = 0; i < 100 && this.state === "up" && !this.#stopped; i++) {
        const read = await this.#pollRequest();
        if (!read) break;
        let message = read.response;
        if (message && (message.code !== 1301 || !message.msgQ)) break;
        if (!message) {
          // An answer the codec cannot read: its id read from the raw XML, handed over as `unreadable` (the API keeps it whole).
          const found = messageIdOf(read.xml);
          if (found.code !== null && found.code !== 1301) {
            // Not a message (an empty queue, a refusal) that did not read: nothing to hand over or ack; asked again later.
            console.error(`registry ${this.repository}: a poll answer (${found.code}) that does not read (${read.reason}); asked again later`);
            break;
          }
          if (found.id === null) {
            backOff(this.#unreadableWithoutId(read.xml, read.reason ?? "unreadable"));
            break;
          }
          message = unreadableMessage(found.id, found.count, read.xml, read.reason ?? "unreadable");
        }
        const id = message.msgQ!.id;
        const wait = this.messages.waitMs(id);
        if (wait > 0) {
          backOff(wait);
          break;
        }
        const handed = await this.onMessage(this.repository, message).catch((error: Error) => ({ ok: false as const, reason: error.message }));
        if (!handed.ok) {
          const verdict = this.messages.handOverFailed(id, handed.reason);
          if (!verdict.setAside) {
            const bound = this.messages.dir === null ? "no state directory: never set aside" : `set aside after ${this.options.messageAttempts}`;
            console.error(
              `registry ${this.repository}: poll message ${id} not taken by the API (${handed.reason}); hand-over ${verdict.attempts} (${bound}), the next in ${seconds(verdict.delayMs)}; kept at the registry`,
            );
            backOff(verdict.delayMs);
            break;
          }
          let file: string;
          try {
            file = this.messages.setAside(id, read.xml, message);
          } catch (error) {
            // Not kept: not acked either (nothing acked is lost); tried again after the longest wait.
            console.error(`registry ${this.repository}: POLL MESSAGE ${id} COULD NOT BE SET ASIDE (${(error as Error).message}); kept at the registry`);
            backOff(this.options.messageRetryMaxMs);
            break;
          }
          console.error(
            `registry ${this.repository}: POLL MESSAGE ${id} SET ASIDE after ${verdict.attempts} failed hand-overs (last: ${handed.reason}): kept in ${file} (its raw XML) and acked; handed over again from there until the API takes it`,
          );
        }
        const ack = await this.run({ kind: "poll", op: "ack", msgID: id }, `ack-${Date.now().toString(36)}`);
        if (ack.outcome !== "answered" || ack.response.code !== 1000) {
          const delay = this.messages.ackFailed(id);
          const why = ack.outcome === "answered" ? `${ack.response.code} ${ack.response.results[0]?.msg ?? ""}`.trim() : ack.reason;
          console.error(`registry ${this.repository}: the ack of poll message ${id} failed (${why}); asked again in ${seconds(delay)}`);
          backOff(delay);
          break;
        }
        this.messages.done(id);
      }
    } catch (error) {
      // A bug or the state directory failing under us: logged, never an unhandled rejection; the queue waits out the longest wait.
      console.error(`registry ${this.repository}: reading the message queue failed: ${(error as Error).message}`);
      backOff(this.options.messageRetryMaxMs);
    } finally {
      this.#polling = false;
      this.#schedulePoll(this.state === "up" ? next : 1_000);
    }
  }

  /** Set-aside messages due for another hand-over, oldest first: removed once the API takes one. */
  async #replaySetAside(): Promise<void> {
    for (const { file, record } of this.messages.due()) {
      if (this.#stopped || !record.message || !this.onMessage) return;
      const handed = await this.onMessage(this.repository, record.message, { replayed: true }).catch((error: Error) => ({
        ok: false as const,
        reason: error.message,
      }));
      if (handed.ok) {
        try {
          this.messages.replayed(file);
        } catch (error) {
          console.error(`registry ${this.repository}: could not remove the record of set-aside poll message ${record.message_id}: ${(error as Error).message}`);
        }
        console.error(`registry ${this.repository}: set-aside poll message ${record.message_id} taken by the API from the gateway's record; record removed`);
      } else {
        const updated = this.messages.replayFailed(file, handed.reason);
        console.error(
          `registry ${this.repository}: SET-ASIDE POLL MESSAGE ${record.message_id} still not taken by the API (${handed.reason}); handed over again at ${updated?.next_replay_at}`,
        );
      }
    }
  }

  /** An answer whose message id cannot be read either: it cannot be acked. Kept once in the state directory for an operator; the queue waits. */
  #unreadableWithoutId(xml: string, reason: string): number {
    const id = `unreadable-${sha256Hex(xml).slice(0, 24)}`;
    const verdict = this.messages.handOverFailed(id, reason);
    if (verdict.setAside && !this.messages.isSetAside(id)) {
      try {
        const file = this.messages.setAside(id, xml, null);
        console.error(
          `registry ${this.repository}: A POLL ANSWER WITH NO READABLE MESSAGE ID (${reason}) blocks the queue: kept in ${file}; it cannot be acked`,
        );
      } catch (error) {
        console.error(`registry ${this.repository}: a poll answer with no readable message id (${reason}) could not be kept: ${(error as Error).message}`);
      }
    } else console.error(`registry ${this.repository}: a poll answer with no readable message id (${reason}); asked again later`);
    return verdict.setAside ? this.options.messageRetryMaxMs : verdict.delayMs;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#ticker);
    clearTimeout(this.#pollTimer);
    for (const waiter of this.#waiters.splice(0)) waiter(null);
    await Promise.all(this.#sessions.map((s) => s.logout(2_000)));
  }
}

/**
 * A poll message the codec could not read, as handed to the API: its id (read from the raw
 * XML) and one `unreadable` part holding the XML whole and why it did not read, which the API
 * keeps as a `registry_message` event (a kind it does not act on).
 */
function unreadableMessage(id: string, count: number | null, xml: string, reason: string): EppResponse {
  return {
    code: 1301,
    results: [{ code: 1301, msg: "Command completed successfully; ack to dequeue", values: [], extValues: [] }],
    msgQ: { count: count ?? 1, id },
    resData: [{ kind: "unreadable", reason: reason.slice(0, 1000), xml } as unknown as EppResponse["resData"][number]],
    extensions: [],
    trID: { svTRID: "unreadable" },
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
