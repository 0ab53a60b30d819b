/**
 * Requests of the serve protocol: the protocol's version, error codes and limits, and readers that
 * check one field of a request each, answering a {@link ServeError} that names the field.
 */
import { err, ok, type Result } from '../core/result.js';

/** The protocol version: the hello line's and every response's `protocol`; a request may name it. */
export const PROTOCOL_VERSION = 1;

/**
 * What this server offers beyond the first version of protocol 1, in the hello line and `info`:
 * `binary-frames` (the `hello` op's `binary`: arrays as raw bytes after the response line),
 * `compact-observations` (`vec_make`'s `observations: "compact"`), `packed-masks` (`masks: "packed"`),
 * `vec-seeds` (`vec_make`'s `seeds`: a seed per environment), `shm` (the `hello` op's `shm`: the
 * vector batches' arrays written into a shared-memory segment the client created).
 */
export const SERVE_CAPABILITIES: readonly string[] = ['binary-frames', 'compact-observations', 'packed-masks', 'vec-seeds', 'shm'];

/**
 * Error codes of the protocol itself (the library's own codes, `options/players`,
 * `state/tampered`, ..., pass through unchanged where the library refused something).
 */
export const PROTOCOL_ERROR_CODES = [
  'protocol/json',
  'protocol/request',
  'protocol/unknown-op',
  'protocol/unknown-handle',
  'protocol/too-large',
  'protocol/illegal-action',
  'protocol/version',
  'protocol/internal',
  'protocol/connection-full',
  'protocol/server-full',
  'protocol/too-many-connections',
  'protocol/chance-node',
] as const;

/** One of {@link PROTOCOL_ERROR_CODES}. */
export type ProtocolErrorCode = (typeof PROTOCOL_ERROR_CODES)[number];

/** An error response's `error`: a protocol code or a library code, a message, and where the library gives one, a path. */
export interface ServeError {
  /** A {@link ProtocolErrorCode} or one of the library's error codes. */
  readonly code: string;
  /** For people: names the field, handle, env or action at fault. */
  readonly message: string;
  /** Where in a JSON input the library found the problem (a deserialized state's `$.scores[1]`). */
  readonly path?: string;
}

/** The outcome of reading or running part of a request. */
export type Checked<T> = Result<T, ServeError>;

/** A protocol error. */
export function protocolError(code: ProtocolErrorCode, message: string): ServeError {
  return { code, message };
}

/** A failed {@link Checked} with a protocol error. */
export function refuse(code: ProtocolErrorCode, message: string): Checked<never> {
  return err(protocolError(code, message));
}

const MiB = 1024 * 1024;

/**
 * The default limits of a server (docs/protocol.md, "Limits"). Over `lineBytes`, `numEnvs`,
 * `handles`, `batchBytes` or `deleteIds` a request is refused with `protocol/too-large`; over
 * `memoryBytes` with `protocol/connection-full`, over `serverMemoryBytes` with
 * `protocol/server-full`; a connection over `connections` gets `protocol/too-many-connections`; a
 * shared-memory segment over `shmBytes` is refused with `protocol/too-large`.
 * `numEnvs`, `memoryBytes`, `serverMemoryBytes` and `connections` can be set per server
 * ({@link ServeLimits}, the command line's `--max-envs`, `--max-memory`, `--max-server-memory`,
 * `--max-connections`). A bot search over `botIterations` or a `time_ms` over `botMs` is refused
 * with `protocol/too-large`, and every search stops after `botMs` (`--max-bot-iterations`,
 * `--max-bot-ms`).
 */
export const LIMITS = {
  /** Bytes of one request line (UTF-8, without its newline). */
  lineBytes: 16 * MiB,
  /** Environments of one vector environment: what bounds the work of one request. */
  numEnvs: 4096,
  /** Live handles of one connection: games, states, and each environment of a vector environment. */
  handles: 100_000,
  /** Bytes of the arrays of one vector batch (dense masks and observations are what grows). */
  batchBytes: 64 * MiB,
  /** Handles one `delete` names. */
  deleteIds: 100_000,
  /** Estimated bytes of the handles one connection holds ({@link MEMORY_ESTIMATE}). */
  memoryBytes: 2048 * MiB,
  /** Estimated bytes of the handles all the connections of one server hold together. */
  serverMemoryBytes: 4096 * MiB,
  /** Connections a TCP server serves at a time. */
  connections: 64,
  /** Searches of one `bot` or `analyse` request (`iterations`, or a level's budget). */
  botIterations: 100_000,
  /** Wall-clock milliseconds of one `bot` or `analyse` request: its `time_ms`, and the most any search runs. */
  botMs: 10_000,
  /**
   * Bytes of a shared-memory segment a connection names (the `hello` op's `shm`): room for its
   * most slots (16) of a batch at its limit. The segment is the client's memory, and sparse: only
   * the pages written into take memory.
   */
  shmBytes: 16 * (64 * MiB + 64 * 1024) + 64,
} as const;

/** The limits of one server: {@link LIMITS}, some of them set by the command line. */
export type ServeLimits = { readonly [K in keyof typeof LIMITS]: number };

/**
 * What the memory limits count, in bytes: an estimate per handle, on the high side of what was
 * measured (a game handle with five expansions: about 340 KB; a game of five expansions late in
 * its course: about 140 KB). A vector environment counts a game per environment, one more for its
 * template, and its batch's arrays exactly.
 */
export const MEMORY_ESTIMATE = {
  /** A game handle (`make_game`): the compiled rules. */
  gameHandle: 512 * 1024,
  /** A game: a state handle, or one environment of a vector environment. */
  game: 128 * 1024,
} as const;

/** A parsed request: a JSON object. */
export type Request = Readonly<Record<string, unknown>>;

/** Shows a JSON value in a message, cut short. */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  const text = JSON.stringify(v) ?? typeof v;
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Refuses fields other than `allowed` (and the envelope's `id`, `op`, `protocol`): a misspelt field would otherwise be ignored. */
export function checkFields(req: Request, op: string, allowed: readonly string[]): Checked<void> {
  for (const k of Object.keys(req)) {
    if (k === 'id' || k === 'op' || k === 'protocol' || allowed.includes(k)) continue;
    return refuse('protocol/request', `${op} has no field '${k}' (fields: ${allowed.length === 0 ? 'none' : allowed.join(', ')})`);
  }
  return ok(undefined);
}

/**
 * An integer field from `min` to `max`; `fallback` when it is absent (absent without a fallback:
 * refused). A value above `max` is refused with `tooLarge` when given (a documented limit), else
 * as a bad request.
 */
export function intField(req: Request, name: string, min: number, max: number, fallback?: number, tooLarge?: ProtocolErrorCode): Checked<number> {
  const v = req[name];
  if (v === undefined && fallback !== undefined) return ok(fallback);
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) return refuse('protocol/request', `'${name}' must be an integer, got ${show(v)}`);
  if (v > max && tooLarge !== undefined) return refuse(tooLarge, `'${name}' is ${v}, over the limit of ${max}`);
  if (v < min || v > max) return refuse('protocol/request', `'${name}' must be from ${min} to ${max}, got ${v}`);
  return ok(v);
}

/** A string field of at most `maxLength` characters; `fallback` when absent (absent without one: refused). */
export function stringField(req: Request, name: string, maxLength: number, fallback?: string): Checked<string> {
  const v = req[name];
  if (v === undefined && fallback !== undefined) return ok(fallback);
  if (typeof v !== 'string') return refuse('protocol/request', `'${name}' must be a string, got ${show(v)}`);
  if (v.length > maxLength) return refuse('protocol/request', `'${name}' must have at most ${maxLength} characters, got ${v.length}`);
  return ok(v);
}

/** A boolean field; `fallback` when absent. */
export function boolField(req: Request, name: string, fallback: boolean): Checked<boolean> {
  const v = req[name];
  if (v === undefined) return ok(fallback);
  if (typeof v !== 'boolean') return refuse('protocol/request', `'${name}' must be true or false, got ${show(v)}`);
  return ok(v);
}

/** A field that is one of `values`; `fallback` when absent (absent without one: refused). */
export function enumField<T extends string>(req: Request, name: string, values: readonly T[], fallback?: T): Checked<T> {
  const v = req[name];
  if (v === undefined && fallback !== undefined) return ok(fallback);
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    return refuse('protocol/request', `'${name}' must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}, got ${show(v)}`);
  }
  return ok(v as T);
}

/**
 * A seed field as `newGame` takes seeds: a string of at most 256 characters or a safe integer,
 * refused with the library's own code `options/seed` otherwise. Absent: `undefined`, or refused
 * when `required`.
 */
export function seedField(req: Request, name: string, required: boolean): Checked<string | number | undefined> {
  const v = req[name];
  if (v === undefined && !required) return ok(undefined);
  if ((typeof v === 'string' && v.length <= 256) || (typeof v === 'number' && Number.isSafeInteger(v))) return ok(v);
  return err({ code: 'options/seed', message: `'${name}' must be a string of at most 256 characters or a safe integer, got ${show(v)}` });
}
