// One EPP session (RFC 5730 §2, RFC 5734): TLS to the registry (its CA, and our client
// certificate when the registry asks for one), the greeting, <login> with the objects and
// extensions the greeting offers and the service uses, then commands strictly one at a
// time, each answered within a deadline; <hello> when idle, before the server's idle limit;
// <logout> when the gateway stops. A session that fails is closed, never reused: the pool
// opens another.
import { connect, type TLSSocket } from "node:tls";
import { buildCommand, buildHello } from "../epp/commands";
import { encodeFrame, FrameDecoder } from "../epp/framing";
import { type EppParsed, parseResponse, parseServerMessage } from "../epp/responses";
import { loginFor } from "../epp/session";
import type { EppCommand, EppResponse, Greeting } from "../epp/types";
import type { ConnectorConfig } from "./config";

/** Why a command got no answer: before it was sent (safe to send again) or after (the outcome is unknown). */
export class SessionFailure extends Error {
  constructor(
    message: string,
    readonly sent: boolean,
  ) {
    super(message);
  }
}

/** A registry that answered the login with a refusal: credentials or services (not worth retrying at once). */
export class LoginRefused extends Error {}

export interface SessionOptions {
  /** Milliseconds for the TLS handshake, the greeting and the login together. */
  connectTimeoutMs: number;
  /** Milliseconds a command waits for its answer. */
  commandTimeoutMs: number;
}

let sessions = 0;

export class EppSession {
  readonly id = ++sessions;
  greeting!: Greeting;
  lastUsed = Date.now();
  busy = false;
  #socket!: TLSSocket;
  #decoder = new FrameDecoder();
  #waiting: ((frame: Uint8Array | Error) => void) | null = null;
  #closed = false;
  #onClose: (() => void)[] = [];

  private constructor(readonly config: ConnectorConfig) {}

  /** Connects, reads the greeting and logs in; throws SessionFailure or LoginRefused. */
  static async open(config: ConnectorConfig, options: SessionOptions): Promise<EppSession> {
    const session = new EppSession(config);
    const deadline = setTimeout(() => session.close(), options.connectTimeoutMs);
    try {
      await session.#connect();
      const greeting = parseServerMessage(await session.#next(options.connectTimeoutMs));
      if (!greeting.ok || greeting.value.type !== "greeting") throw new SessionFailure("the registry sent no greeting", false);
      session.greeting = greeting.value.greeting;
      const login = loginFor(session.greeting, { clientId: config.client_id, password: config.password });
      if (!login) throw new LoginRefused("the registry's greeting offers none of the object services, no EPP 1.0 or no English");
      const answer = await session.command(login, `login-${Date.now().toString(36)}`, options.connectTimeoutMs);
      if (answer.code !== 1000)
        throw new LoginRefused(
          `login refused: ${answer.code} ${answer.results[0]?.msg ?? ""}${answer.results[0]?.extValues[0] ? ` (${answer.results[0].extValues[0].reason})` : ""}`,
        );
      return session;
    } catch (error) {
      session.close();
      throw error;
    } finally {
      clearTimeout(deadline);
    }
  }

  #connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect({
        host: this.config.host,
        port: this.config.port ?? 700,
        ...(this.config.ca ? { ca: this.config.ca } : {}),
        ...(this.config.certificate && this.config.key ? { cert: this.config.certificate, key: this.config.key } : {}),
        minVersion: "TLSv1.2",
      });
      this.#socket = socket;
      socket.once("secureConnect", () => resolve());
      socket.once("error", (error) => reject(new SessionFailure(`TLS to ${this.config.host}: ${error.message}`, false)));
      socket.on("data", (chunk: Buffer) => {
        const { frames, error } = this.#decoder.push(new Uint8Array(chunk));
        for (const frame of frames) {
          const waiter = this.#waiting;
          this.#waiting = null;
          // A frame nobody waits for (a server that talks out of turn) ends the session.
          if (waiter) waiter(frame);
          else this.close();
        }
        if (error) this.close();
      });
      socket.on("close", () => this.#closedNow());
      socket.on("error", () => this.close());
    });
  }

  #closedNow(): void {
    if (this.#closed) return;
    this.#closed = true;
    const waiter = this.#waiting;
    this.#waiting = null;
    waiter?.(new Error("the registry closed the session"));
    for (const listener of this.#onClose.splice(0)) listener();
  }

  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#onClose.push(listener);
  }

  get closed(): boolean {
    return this.#closed;
  }

  #next(timeoutMs: number): Promise<Uint8Array> {
    if (this.#closed) return Promise.reject(new SessionFailure("the session is closed", false));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting = null;
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiting = (frame) => {
        clearTimeout(timer);
        if (frame instanceof Error) reject(frame);
        else resolve(frame);
      };
    });
  }

  /** Sends one command and reads its answer; a failure after sending is SessionFailure(sent: true), and the session is closed. */
  async command(command: EppCommand, clTRID: string, timeoutMs: number): Promise<EppResponse> {
    // Built before anything is sent: a value the schemas forbid throws EppInputError here.
    const xml = buildCommand(command, clTRID);
    return this.#exchange(xml, timeoutMs, (frame) => {
      const parsed = parseResponse(frame);
      if (!parsed.ok) throw new SessionFailure(`the registry's answer does not read: ${parsed.error.message}`, true);
      return parsed.value;
    });
  }

  /**
   * Sends one command and answers its frame as received with the codec's reading of it: an
   * answer that does not read leaves the session open (its frame was whole) and is the
   * caller's to keep (the poll reader keeps a message it cannot read, never loops on it).
   */
  async commandFrame(command: EppCommand, clTRID: string, timeoutMs: number): Promise<{ xml: string; parsed: EppParsed<EppResponse> }> {
    const xml = buildCommand(command, clTRID);
    return this.#exchange(xml, timeoutMs, (frame) => ({ xml: new TextDecoder().decode(frame), parsed: parseResponse(frame) }));
  }

  /** A keep-alive: <hello>, answered by a greeting. */
  async hello(timeoutMs: number): Promise<void> {
    await this.#exchange(buildHello(), timeoutMs, (frame) => {
      const parsed = parseServerMessage(frame);
      if (!parsed.ok || parsed.value.type !== "greeting") throw new SessionFailure("a hello was not answered by a greeting", true);
      return parsed.value;
    });
  }

  async #exchange<T>(xml: string, timeoutMs: number, read: (frame: Uint8Array) => T): Promise<T> {
    if (this.#closed) throw new SessionFailure("the session is closed", false);
    if (this.#waiting) throw new SessionFailure("the session is busy", false);
    this.lastUsed = Date.now();
    const answer = this.#next(timeoutMs);
    this.#socket.write(encodeFrame(xml));
    try {
      return read(await answer);
    } catch (error) {
      this.close();
      if (error instanceof SessionFailure) throw error;
      throw new SessionFailure((error as Error).message, true);
    } finally {
      this.lastUsed = Date.now();
    }
  }

  /** <logout>, then the socket closed (best effort: the gateway is stopping). */
  async logout(timeoutMs: number): Promise<void> {
    try {
      if (!this.#closed && !this.busy) await this.command({ kind: "logout" }, `logout-${Date.now().toString(36)}`, timeoutMs);
    } catch {
      // closing anyway
    }
    this.close();
  }

  close(): void {
    if (!this.#socket) {
      this.#closedNow();
      return;
    }
    this.#socket.destroy();
    this.#closedNow();
  }
}
