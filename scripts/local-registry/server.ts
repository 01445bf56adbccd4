// The local registry's EPP server (RFC 5734): TLS on loopback, one greeting per
// connection, frames of a 4-byte length that counts itself, a login before anything but
// a hello, commands one at a time. Every frame a client sends is checked against the
// RFCs' schemas (schemas/epp/all.xsd) by libxml2, the library xmllint is, in this process
// (schema.ts), before it is read: a frame that fails is answered 2001, as a registry's XML
// parser answers it, so that the service's connector cannot lean on a lenient server. With
// `keepFrames` every frame received and sent is kept with the verdict given, for one
// `xmllint --schema` run to judge again (xmllintCheck: the tests require the same
// verdicts). Knobs for the tests (slow answers, a session dropped right after a command
// took effect, results forced, the registry down) are set through a small control
// interface over HTTP on loopback (control.ts).
import type { Server as HttpServer } from "node:http";
import { createServer as createTlsServer, type Server, type TLSSocket } from "node:tls";
import { parseCommand } from "../../src/epp/command-reader";
import { encodeFrame, FrameDecoder } from "../../src/epp/framing";
import { EXTENSION_URIS, NS, OBJECT_URIS } from "../../src/epp/namespaces";
import { buildGreeting, buildResponse, type ResponseInput } from "../../src/epp/response-builder";
import type { EppCommand, Greeting } from "../../src/epp/types";
import type { Outcome, Registry } from "./registry";
import { FrameSchema, xmllintVerdicts } from "./schema";

export interface ServerOptions {
  host: string;
  port: number;
  cert: string;
  key: string;
  /** schemas/epp/all.xsd */
  schema: string;
  /** Seconds without a frame before the server closes a session (real registries: about 10 minutes). */
  idleSeconds: number;
  /** Validate the server's own answers too (tests: they must be what a client can read). */
  checkResponses: boolean;
  /** Keep every frame received and sent, with the verdict given, for xmllintCheck (tests). */
  keepFrames?: boolean;
  log?: (line: string) => void;
}

/** What the tests can make the registry do (control.ts sets these). */
export interface Knobs {
  /** Milliseconds every command waits before it is answered. */
  delayMs: number;
  /** Commands of these kinds (or "*") that take effect and then lose their answer: the session is closed instead. */
  dropAfterApply: Map<string, number>;
  /** Commands of these kinds (or "*") answered with a result code, without taking effect. */
  fail: Map<string, { code: number; count: number }>;
  /** Refuse every connection (the registry is down). */
  down: boolean;
  /** Commands of these kinds (or "*") held unanswered until `POST /release`: a registry slower than any deadline. */
  hold: Map<string, number>;
}

/** A command the registry received and has not answered yet (the control interface's `in_flight`). */
export interface InFlightCommand {
  kind: string;
  object: string | undefined;
  clTRID: string | undefined;
  /** Whether it waits for `POST /release` (the `hold` knob). */
  held: boolean;
}

/** One command as the registry saw it (the control interface's log). */
export interface LoggedCommand {
  at: string;
  clID: string | null;
  kind: string;
  clTRID?: string;
  svTRID: string;
  code: number;
  /** The object the command named (a domain or host name, a contact id). */
  object?: string;
  answered: boolean;
  /** Milliseconds the schema check of the frame took, and from the frame's arrival to its answer written (the registry's own part of a round trip). */
  check_ms?: number;
  work_ms?: number;
}

/** A frame kept for xmllintCheck: what the registry received (with its verdict) or sent. */
export interface KeptFrame {
  direction: "received" | "sent";
  xml: Uint8Array | string;
  /** The registry's verdict: null when it found the frame valid, else its complaint. */
  problem: string | null;
}

/** xmllint's judgement of the frames kept: how many, and each whose verdict differs from the registry's (a sent frame: any xmllint refuses). */
export interface XmllintReport {
  checked: number;
  disagreements: { direction: KeptFrame["direction"]; registry: string | null; xmllint: string; xml: string }[];
}

const ROOT_ERROR = `<undef xmlns="${NS.epp}"/>`;

const round2 = (ms: number) => Math.round(ms * 100) / 100;

function objectOf(command: EppCommand): string | undefined {
  if ("name" in command && typeof command.name === "string") return command.name;
  if ("id" in command && typeof command.id === "string") return command.id;
  if ("names" in command) return command.names.join(",");
  // A poll ack names the message it takes off the queue.
  if ("msgID" in command && typeof command.msgID === "string") return command.msgID;
  return undefined;
}

export class EppServer {
  readonly knobs: Knobs = { delayMs: 0, dropAfterApply: new Map(), fail: new Map(), down: false, hold: new Map() };
  readonly commands: LoggedCommand[] = [];
  /** Commands received and not answered yet, in the order they arrived. */
  readonly inFlight = new Set<InFlightCommand>();
  /** What the held commands wait for: `POST /release` resolves them all. */
  #released: { promise: Promise<void>; resolve: () => void } = EppServer.#gate();
  readonly sockets = new Set<TLSSocket>();
  /** The frames kept (options.keepFrames), in order. */
  readonly frames: KeptFrame[] = [];
  #server: Server;
  #greeting: Greeting;
  #schema: FrameSchema;
  control?: HttpServer;

  constructor(
    readonly registry: Registry,
    readonly options: ServerOptions,
  ) {
    this.#schema = FrameSchema.of(options.schema);
    this.#greeting = {
      svID: registry.serverId,
      svDate: new Date().toISOString(),
      versions: ["1.0"],
      langs: ["en"],
      objURIs: [...OBJECT_URIS],
      extURIs: [...EXTENSION_URIS],
      dcp: { access: "all", statements: [{ purpose: ["admin", "prov"], recipient: ["ours", "public"], retention: "stated" }] },
    };
    this.#server = createTlsServer({ cert: options.cert, key: options.key, minVersion: "TLSv1.2" }, (socket) => this.#session(socket));
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(this.options.port, this.options.host, () => {
        this.#server.off("error", reject);
        const address = this.#server.address();
        resolve(typeof address === "object" && address ? address.port : this.options.port);
      });
    });
  }

  /** Down: every session closed, and connections refused until up again. */
  setDown(down: boolean): void {
    this.knobs.down = down;
    if (down) for (const socket of this.sockets) socket.destroy();
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** The answers that failed the schema check (checkResponses). */
  readonly invalidResponses: { xml: string; problem: string }[] = [];

  /**
   * Every frame kept so far judged again by the real xmllint, in one run: the frames
   * received whose verdict differs from the one the registry gave, and the frames sent
   * that xmllint refuses. Needs `keepFrames`.
   */
  xmllintCheck(): XmllintReport {
    const frames = [...this.frames];
    const verdicts = xmllintVerdicts(
      this.options.schema,
      frames.map((f) => f.xml),
    );
    const disagreements: XmllintReport["disagreements"] = [];
    frames.forEach((frame, i) => {
      const verdict = verdicts[i]!;
      const agrees = frame.direction === "sent" ? verdict.valid : verdict.valid === (frame.problem === null);
      if (!agrees)
        disagreements.push({
          direction: frame.direction,
          registry: frame.problem,
          xmllint: verdict.valid ? "validates" : verdict.output,
          xml: typeof frame.xml === "string" ? frame.xml : new TextDecoder().decode(frame.xml),
        });
    });
    return { checked: frames.length, disagreements };
  }

  #send(socket: TLSSocket, xml: string): void {
    if (!socket.destroyed) socket.write(encodeFrame(xml));
    if (this.options.keepFrames) this.frames.push({ direction: "sent", xml, problem: null });
    if (this.options.checkResponses) {
      const problem = this.#schema.problem(xml);
      if (problem) {
        this.invalidResponses.push({ xml, problem });
        this.options.log?.(`the registry's own answer fails the schemas: ${problem}\n${xml}`);
      }
    }
  }

  #session(socket: TLSSocket): void {
    if (this.knobs.down) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    const decoder = new FrameDecoder();
    let clID: string | null = null;
    let services: { objects: Set<string>; extensions: Set<string> } = { objects: new Set(), extensions: new Set() };
    let failedLogins = 0;
    let queue: Promise<unknown> = Promise.resolve();
    let idle: NodeJS.Timeout | undefined;
    const resetIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => socket.destroy(), this.options.idleSeconds * 1000);
      idle.unref();
    };
    resetIdle();
    socket.on("close", () => {
      clearTimeout(idle);
      this.sockets.delete(socket);
    });
    socket.on("error", () => socket.destroy());
    this.#send(socket, buildGreeting({ ...this.#greeting, svDate: new Date(this.registry.now()).toISOString() }));

    const answer = (response: Omit<ResponseInput, "trID"> & { trID?: ResponseInput["trID"] }, clTRID?: string) => {
      const svTRID = response.trID?.svTRID ?? this.registry.nextSvTRID();
      this.#send(socket, buildResponse({ ...response, trID: { ...(clTRID ? { clTRID } : {}), svTRID } } as ResponseInput));
      return svTRID;
    };

    const handle = async (frame: Uint8Array): Promise<unknown> => {
      resetIdle();
      const arrived = performance.now();
      const problem = this.#schema.problem(frame);
      const checkMs = round2(performance.now() - arrived);
      if (this.options.keepFrames) this.frames.push({ direction: "received", xml: frame.slice(), problem });
      if (problem) {
        const svTRID = answer({ results: [{ code: 2001, extValues: [{ value: ROOT_ERROR, reason: `schema: ${problem}`.slice(0, 1000) }] }] });
        this.commands.push({ at: new Date().toISOString(), clID, kind: "invalid", svTRID, code: 2001, answered: true, check_ms: checkMs });
        return;
      }
      const parsed = parseCommand(frame);
      if (!parsed.ok) {
        const code =
          parsed.error.code === "unimplemented_command"
            ? 2000
            : parsed.error.code === "unimplemented_object"
              ? 2307
              : parsed.error.code === "unimplemented_extension"
                ? 2103
                : 2001;
        answer({ results: [{ code, extValues: [{ value: ROOT_ERROR, reason: parsed.error.message.slice(0, 1000) }] }] });
        return;
      }
      const message = parsed.value;
      if (message.type === "hello") {
        this.#send(socket, buildGreeting({ ...this.#greeting, svDate: new Date(this.registry.now()).toISOString() }));
        return;
      }
      const { command, clTRID } = message;
      const held = this.#take(this.knobs.hold, command.kind) !== undefined;
      const flight: InFlightCommand = { kind: command.kind, object: objectOf(command), clTRID, held };
      this.inFlight.add(flight);
      try {
        if (this.knobs.delayMs > 0) await new Promise((done) => setTimeout(done, this.knobs.delayMs));
        // Held until released, whatever the client does meanwhile (it may give up and close the session).
        if (held) await this.#released.promise;
      } finally {
        this.inFlight.delete(flight);
      }
      if (socket.destroyed) return;
      const log = (svTRID: string, code: number, answered = true) =>
        this.commands.push({
          at: new Date().toISOString(),
          clID,
          kind: command.kind,
          clTRID,
          svTRID,
          code,
          object: objectOf(command),
          answered,
          check_ms: checkMs,
          work_ms: round2(performance.now() - arrived),
        });

      if (command.kind === "login") {
        if (clID) return log(answer({ results: [{ code: 2002, extValues: [{ value: ROOT_ERROR, reason: "already logged in" }] }] }, clTRID), 2002);
        const registrar = this.registry.registrars.get(command.clientId);
        const unknownObject = command.objURIs.find((uri) => !this.#greeting.objURIs.includes(uri));
        const unknownExtension = command.extURIs.find((uri) => !this.#greeting.extURIs.includes(uri));
        if (command.version && command.version !== "1.0") return log(answer({ results: [{ code: 2100 }] }, clTRID), 2100);
        if (command.lang && command.lang !== "en") return log(answer({ results: [{ code: 2102 }] }, clTRID), 2102);
        if (unknownObject)
          return log(answer({ results: [{ code: 2307, extValues: [{ value: ROOT_ERROR, reason: `not offered: ${unknownObject}` }] }] }, clTRID), 2307);
        if (unknownExtension)
          return log(answer({ results: [{ code: 2103, extValues: [{ value: ROOT_ERROR, reason: `not offered: ${unknownExtension}` }] }] }, clTRID), 2103);
        if (!registrar || registrar.password !== command.password) {
          failedLogins += 1;
          // RFC 5730 §2.9.1.1: a server may close the session after failed logins.
          const code = failedLogins >= 3 ? 2501 : 2200;
          log(answer({ results: [{ code }] }, clTRID), code);
          if (code === 2501) socket.end();
          return;
        }
        if (command.newPassword) registrar.password = command.newPassword;
        clID = registrar.clientId;
        services = { objects: new Set(command.objURIs), extensions: new Set(command.extURIs) };
        return log(answer({ results: [{ code: 1000 }] }, clTRID), 1000);
      }
      if (!clID) return log(answer({ results: [{ code: 2002, extValues: [{ value: ROOT_ERROR, reason: "log in first" }] }] }, clTRID), 2002);
      if (command.kind === "logout") {
        log(answer({ results: [{ code: 1500 }] }, clTRID), 1500);
        socket.end();
        return;
      }
      const object = command.kind.includes(":") ? command.kind.split(":")[0]! : null;
      const objectUri = object ? (NS as Record<string, string>)[object] : undefined;
      if (objectUri && !services.objects.has(objectUri))
        return log(answer({ results: [{ code: 2307, extValues: [{ value: ROOT_ERROR, reason: `${objectUri} was not named at login` }] }] }, clTRID), 2307);
      const usesExtension =
        ("fee" in command && command.fee !== undefined && NS.fee) ||
        ("ds" in command && command.ds !== undefined && NS.secDNS) ||
        ("restore" in command && command.restore !== undefined && NS.rgp);
      if (usesExtension && !services.extensions.has(usesExtension))
        return log(answer({ results: [{ code: 2103, extValues: [{ value: ROOT_ERROR, reason: `${usesExtension} was not named at login` }] }] }, clTRID), 2103);

      const forced = this.#take(this.knobs.fail, command.kind);
      if (forced) {
        const svTRID = answer({ results: [{ code: forced }] }, clTRID);
        log(svTRID, forced);
        if (forced >= 2500) socket.end();
        return;
      }
      const svTRID = this.registry.nextSvTRID();
      const outcome: Outcome = this.registry.execute(clID, command, clTRID, svTRID);
      const code = outcome.results[0]!.code;
      if (this.#take(this.knobs.dropAfterApply, command.kind) && code < 2000) {
        log(svTRID, code, false);
        socket.destroy();
        return;
      }
      answer({ ...outcome, trID: { svTRID } }, clTRID);
      log(svTRID, code);
    };

    socket.on("data", (chunk: Buffer) => {
      const { frames, error } = decoder.push(new Uint8Array(chunk));
      for (const frame of frames) queue = queue.then(() => handle(frame)).catch((e) => this.options.log?.(`session error: ${e?.stack ?? e}`));
      if (error) {
        queue = queue.then(() => {
          answer({ results: [{ code: 2001, extValues: [{ value: ROOT_ERROR, reason: error.message }] }] });
          socket.end();
        });
      }
    });
  }

  /** Takes one use of a knob set for this kind (or for every kind, "*"); returns its value. */
  static #gate(): { promise: Promise<void>; resolve: () => void } {
    let resolve = () => {};
    const promise = new Promise<void>((done) => {
      resolve = done;
    });
    return { promise, resolve };
  }

  /** Answers every held command (the `hold` knob): they go on as if the registry had been slow. */
  release(): number {
    const held = [...this.inFlight].filter((c) => c.held).length;
    const gate = this.#released;
    this.#released = EppServer.#gate();
    gate.resolve();
    return held;
  }

  #take<T>(table: Map<string, T>, kind: string): (T extends { code: number } ? number : true) | undefined {
    for (const key of [kind, "*"]) {
      const entry = table.get(key) as unknown;
      if (entry === undefined) continue;
      if (typeof entry === "number") {
        if (entry <= 0) continue;
        (table as Map<string, number>).set(key, entry - 1);
        return true as never;
      }
      const knob = entry as { code: number; count: number };
      if (knob.count <= 0) continue;
      knob.count -= 1;
      return knob.code as never;
    }
    return undefined;
  }
}
