// What the poll reader knows of the messages it could not hand over (docs/registries.md,
// "Poll messages the API cannot take"): how often each came back, when it may be handed over
// again (exponential backoff, bounded), and the messages it set aside: after `attempts` failed
// hand-overs a message is written to the gateway's state directory (its raw XML and the
// codec's reading, one JSON file, fsynced and renamed into place) and only then acked, so the
// queue behind it moves on and nothing acked is lost. A set-aside message is handed over
// again from its file, less and less often, until the API takes it (the file is then removed);
// an operator sees them in the gateway's status, its log, and the directory.
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { EppResponse } from "../epp/types";

export interface LedgerOptions {
  /** Failed hand-overs of one message before it is set aside (kept in the state directory) and acked. */
  attempts: number;
  /** The first wait before a message that came back is handed over again; it doubles from there. */
  retryMinMs: number;
  /** The longest wait between two hand-overs of a message still in the queue. */
  retryMaxMs: number;
  /** Where set-aside messages are kept (a directory per repository); null: never set aside, only backed off. */
  stateDir: string | null;
}

/** A message set aside: acked at the registry, not applied by the API yet. */
export interface SetAsideRecord {
  repository: string;
  message_id: string;
  /** When its first hand-over failed, and when it was set aside (then acked). */
  first_failed_at: string;
  set_aside_at: string;
  /** Hand-overs that failed before it was set aside. */
  attempts: number;
  /** Why the last hand-over failed (the API's status and problem code, or the error). */
  last_failure: string;
  /** The poll answer exactly as the registry sent it. */
  xml: string;
  /** The codec's reading of it (as handed over); null when even its id could not be read. */
  message: EppResponse | null;
  /** Hand-overs from this record since, and when the next is due. */
  replays: number;
  next_replay_at: string;
}

interface Tracked {
  /** Times this message was read from the queue and not done with (its hand-over or its ack failed). */
  returns: number;
  failures: number;
  firstFailedAt: string | null;
  lastFailure: string | null;
  notBefore: number;
}

/** Replays of a set-aside record wait up to this many times the queue's longest wait (an hour by default). */
const REPLAY_MAX_FACTOR = 12;

export class MessageLedger {
  #tracked = new Map<string, Tracked>();
  #records = new Map<string, SetAsideRecord>();
  readonly dir: string | null;

  constructor(
    readonly repository: string,
    readonly options: LedgerOptions,
  ) {
    this.dir = options.stateDir === null ? null : join(options.stateDir, "set-aside-messages", repository);
    if (this.dir === null) return;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // Records kept before a restart are handed over again like any other.
    for (const file of readdirSync(this.dir)) {
      if (!file.endsWith(".json")) continue;
      let problem: string;
      try {
        const record = setAsideRecordOf(JSON.parse(readFileSync(join(this.dir, file), "utf8")));
        if (typeof record !== "string") {
          this.#records.set(file, record);
          continue;
        }
        problem = record;
      } catch (error) {
        problem = `it does not read: ${(error as Error).message}`;
      }
      // Never a record missing its fields: due() and status() read every one (and would throw for each poll).
      console.error(`registry ${repository}: THE SET-ASIDE MESSAGE FILE ${join(this.dir, file)} IS NOT A RECORD (${problem}): skipped, left as it is`);
    }
    if (this.#records.size > 0)
      console.error(
        `registry ${repository}: ${this.#records.size} POLL MESSAGE(S) SET ASIDE in ${this.dir} (acked, not taken by the API yet): handed over again from there`,
      );
  }

  #entry(id: string): Tracked {
    let entry = this.#tracked.get(id);
    if (!entry) {
      entry = { returns: 0, failures: 0, firstFailedAt: null, lastFailure: null, notBefore: 0 };
      this.#tracked.set(id, entry);
      // Only the messages at the head of the queue are ever tracked: a bounded map.
      if (this.#tracked.size > 100) this.#tracked.delete(this.#tracked.keys().next().value as string);
    }
    return entry;
  }

  /** Milliseconds until this message may be handed over again (0: now). */
  waitMs(id: string, now = Date.now()): number {
    return Math.max(0, (this.#tracked.get(id)?.notBefore ?? 0) - now);
  }

  #backoff(entry: Tracked, now: number): number {
    entry.returns += 1;
    const delay = Math.min(this.options.retryMaxMs, this.options.retryMinMs * 2 ** (entry.returns - 1));
    entry.notBefore = now + delay;
    return delay;
  }

  /**
   * A hand-over failed: whether the message is to be set aside now (its attempts spent and a
   * state directory to keep it in), else how long to wait before the next.
   */
  handOverFailed(id: string, reason: string, now = Date.now()): { setAside: true; attempts: number } | { setAside: false; delayMs: number; attempts: number } {
    const entry = this.#entry(id);
    entry.failures += 1;
    entry.firstFailedAt ??= new Date(now).toISOString();
    entry.lastFailure = reason;
    if (entry.failures >= this.options.attempts && this.dir !== null) return { setAside: true, attempts: entry.failures };
    return { setAside: false, delayMs: this.#backoff(entry, now), attempts: entry.failures };
  }

  /** The ack of a message failed (the API had taken it): handed over again (answered already_applied) after a wait. */
  ackFailed(id: string, now = Date.now()): number {
    return this.#backoff(this.#entry(id), now);
  }

  /** Done with (acked): forgotten. */
  done(id: string): void {
    this.#tracked.delete(id);
  }

  /** The record's file name: the id made safe for a file name, and a hash of it (two ids never share one). */
  static fileFor(id: string): string {
    const hash = sha256Hex(id).slice(0, 16);
    return `message-${id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80)}-${hash}.json`;
  }

  isSetAside(id: string): boolean {
    return this.#records.has(MessageLedger.fileFor(id));
  }

  /** Keeps the message in the state directory, durably (written, fsynced, renamed, the directory fsynced); throws when it cannot. */
  setAside(id: string, xml: string, message: EppResponse | null, now = Date.now()): string {
    if (this.dir === null) throw new Error("no state directory to keep it in");
    const entry = this.#entry(id);
    const at = new Date(now).toISOString();
    const record: SetAsideRecord = {
      repository: this.repository,
      message_id: id,
      first_failed_at: entry.firstFailedAt ?? at,
      set_aside_at: at,
      attempts: entry.failures,
      last_failure: entry.lastFailure ?? "unknown",
      xml,
      message,
      replays: 0,
      next_replay_at: new Date(now + this.options.retryMaxMs).toISOString(),
    };
    const file = MessageLedger.fileFor(id);
    this.#write(file, record);
    this.#records.set(file, record);
    return join(this.dir, file);
  }

  #write(file: string, record: SetAsideRecord): void {
    const dir = this.dir as string;
    const temporary = join(dir, `.${file}.${process.pid}.tmp`);
    const fd = openSync(temporary, "w", 0o600);
    try {
      writeSync(fd, `${JSON.stringify(record, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, join(dir, file));
    const dirFd = openSync(dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  }

  /** The set-aside records due for another hand-over (oldest first); those with no reading wait for an operator. */
  due(now = Date.now()): { file: string; record: SetAsideRecord }[] {
    return [...this.#records]
      .filter(([, r]) => r.message !== null && Date.parse(r.next_replay_at) <= now)
      .sort(([, a], [, b]) => a.set_aside_at.localeCompare(b.set_aside_at))
      .map(([file, record]) => ({ file, record }));
  }

  /** A hand-over from the record failed: the next one waits longer (doubling, up to REPLAY_MAX_FACTOR times the queue's longest wait). */
  replayFailed(file: string, reason: string, now = Date.now()): SetAsideRecord | null {
    const record = this.#records.get(file);
    if (!record) return null;
    record.replays += 1;
    record.last_failure = reason;
    const delay = Math.min(this.options.retryMaxMs * REPLAY_MAX_FACTOR, this.options.retryMaxMs * 2 ** record.replays);
    record.next_replay_at = new Date(now + delay).toISOString();
    try {
      this.#write(file, record);
    } catch (error) {
      console.error(`registry ${this.repository}: could not update ${file}: ${(error as Error).message}`);
    }
    return record;
  }

  /** The API took it: the record is removed. */
  replayed(file: string): void {
    this.#records.delete(file);
    if (this.dir !== null) rmSync(join(this.dir, file), { force: true });
  }

  /** What the gateway's status shows of it. */
  status() {
    const records = [...this.#records.values()].sort((a, b) => a.set_aside_at.localeCompare(b.set_aside_at));
    const retrying = [...this.#tracked].filter(([, t]) => t.failures > 0 || t.returns > 0);
    return {
      set_aside: records.length,
      set_aside_messages: records.slice(0, 20).map((r) => ({
        id: r.message_id,
        set_aside_at: r.set_aside_at,
        attempts: r.attempts,
        replays: r.replays,
        next_replay_at: r.message === null ? null : r.next_replay_at,
        last_failure: r.last_failure,
      })),
      retrying: retrying.map(([id, t]) => ({ id, failures: t.failures, next_at: new Date(t.notBefore).toISOString(), last_failure: t.lastFailure })),
      ...(this.dir !== null ? {} : { state_dir: null }),
    };
  }
}

/** A set-aside file's content as a record, or what is wrong with it (a file that parses may still lack fields). */
export function setAsideRecordOf(value: unknown): SetAsideRecord | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const r = value as Record<string, unknown>;
  for (const field of ["repository", "message_id", "last_failure", "xml"] as const) if (typeof r[field] !== "string") return `${field} is not a string`;
  for (const field of ["first_failed_at", "set_aside_at", "next_replay_at"] as const)
    if (typeof r[field] !== "string" || Number.isNaN(Date.parse(r[field]))) return `${field} is not a time`;
  for (const field of ["attempts", "replays"] as const) if (!Number.isSafeInteger(r[field]) || (r[field] as number) < 0) return `${field} is not a count`;
  if (r.message !== null && (typeof r.message !== "object" || Array.isArray(r.message))) return "message is neither a reading nor null";
  return value as SetAsideRecord;
}

/** The msgQ id and result code of a poll answer the codec could not read (its raw XML): the id is what an ack needs. */
export function messageIdOf(xml: string): { id: string | null; code: number | null; count: number | null } {
  const msgQ = /<(?:[A-Za-z_][\w.-]*:)?msgQ\b([^>]*)>/.exec(xml)?.[1] ?? "";
  const attribute = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(msgQ);
  const idMatch = attribute("id");
  const id = idMatch ? (idMatch[1] ?? idMatch[2] ?? "").trim() : "";
  const countMatch = attribute("count");
  const codeMatch = /<(?:[A-Za-z_][\w.-]*:)?result\b[^>]*\bcode\s*=\s*["'](\d{4})["']/.exec(xml);
  return {
    id: id.length > 0 && id.length <= 128 ? id : null,
    code: codeMatch ? Number(codeMatch[1]) : null,
    count: countOf(countMatch ? (countMatch[1] ?? countMatch[2] ?? "") : null),
  };
}

/** A msgQ count (RFC 5730: an unsignedLong) as a number; null (unknown) for anything else, never NaN. */
function countOf(text: string | null): number | null {
  const trimmed = text?.trim() ?? "";
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : null;
}

/** The SHA-256 of a text, in hex. */
export function sha256Hex(text: string): string {
  const digest: Uint8Array = createHash("sha256").update(new TextEncoder().encode(text)).digest();
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
