/**
 * A session of the serve protocol: one connection's handles, and the loop body that turns one
 * request line into exactly one response line. It knows nothing of streams (see transport.ts),
 * so tests drive it line by line. Bad input never throws out of it and never changes a handle.
 */
import { ok } from '../core/result.js';
import { responseArrays, stringifyResponse } from './codec.js';
import { gameOps, infoResponse, serveLimits, type ServeConfig } from './games.js';
import { createRegistry, type Handle, type Handles, type Op, type ServerLoad } from './registry.js';
import { boolField, checkFields, LIMITS, PROTOCOL_VERSION, SERVE_CAPABILITIES, show, type Checked, type ServeError } from './request.js';
import { STATE_OPS } from './states.js';
import { BOT_OPS } from './bot.js';
import { VECTOR_OPS } from './vector.js';
import { checkShm, closeShm, describeShm, openShm, planShm, SHM_OPS, writeShm, type ShmSegment } from './shm.js';

/** Time and traffic of one operation since the session started (or the last `stats` with `reset`). */
interface OpStats {
  count: number;
  errors: number;
  parse_ms: number;
  compute_ms: number;
  encode_ms: number;
}

/** One connection of the serve protocol. */
export interface Session {
  /** The first line the server writes: `{"hello":"meeplekit","protocol":1,"version":...,"capabilities":[...]}`. */
  readonly hello: string;
  /**
   * The binary frames that follow the response line last returned (by {@link Session.handle},
   * {@link Session.answer}'s line or promise, or {@link Session.oversized}), in order: empty
   * unless the connection asked for binary frames (the `hello` op) and the response carries
   * arrays. Views of the session's buffers: write (or copy) them before the next request. Optional:
   * a session without it never sends frames.
   */
  frames?(): readonly Uint8Array[];
  /**
   * The response line (without its newline) to one request line, at once. Never throws. A `bot`
   * or `analyse` request runs its search to the end before it returns, blocking the thread.
   */
  handle(line: string): string;
  /**
   * As {@link Session.handle}, for a transport: the response line at once, or for an operation
   * that runs in the background (`bot`, `analyse`) a promise of it, which never rejects; the
   * operation yields to the event loop as it goes. The next line must wait for it (one request at
   * a time per connection, answered in order). {@link Session.close} aborts it.
   */
  answer(line: string): string | Promise<string>;
  /** The response to a request line that was cut off for passing {@link LIMITS}.lineBytes (its id unknown: null). */
  oversized(bytes: number): string;
  /** Adds the time the transport spent writing a response (reported by `stats` as `write_ms`). */
  recordWrite(ms: number): void;
  /** Ends the session: a search still running is aborted and every handle is freed. Called once by the transport when the connection is over. */
  close(): void;
}

const now = (): number => performance.now();

/** A request read up to its operation, its fields checked: what is needed to answer it. */
interface Received {
  readonly id: unknown;
  /** The operation's name. */
  readonly name: string;
  readonly req: Record<string, unknown>;
  readonly op: Op;
  /** The operation's statistics. */
  readonly stats: OpStats;
  /** When the operation started. */
  readonly t1: number;
}

/** A response line for an error. */
function errorLine(id: unknown, error: ServeError): string {
  return JSON.stringify({ id, ok: false, error });
}

/** Whether a value can be a request id: a finite number, a string or null. */
function isId(v: unknown): boolean {
  return v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * A new session with no handles, within the limits of `config`. `load` is what the sessions of one
 * server share (the estimated bytes of their handles, against the server's memory limit); a session
 * alone has its own.
 *
 * @example
 * ```ts
 * const session = createSession({ version: '0.1.0', games: { classic: () => 'classic' }, expansions: {} });
 * session.handle('{"id":1,"op":"make_game","game":"classic","players":2}'); // '{"id":1,"ok":true,"game_id":"g1",...}'
 * ```
 */
export function createSession(config: ServeConfig, load: ServerLoad = { bytes: 0 }): Session {
  const handles: Handles = createRegistry<Handle>(serveLimits(config), load);
  const started = now();
  let stats: Record<string, OpStats> = {};
  let bytesIn = 0;
  let bytesOut = 0;
  let writeMs = 0;
  /** Aborted when the session ends: a search still running stops. */
  const stop = new AbortController();
  /** Whether responses send their arrays as binary frames (the `hello` op). */
  let binary = false;
  /** The frames of the last response. */
  let frames: Uint8Array[] = [];
  /** The shared-memory segment the vector batches' arrays go to (the `hello` op's `shm`), or null. */
  let shm: ShmSegment | null = null;
  /** Bytes written into shared memory (reported by `stats` as `shm_bytes_out`). */
  let shmBytesOut = 0;
  /** Milliseconds the last response spent writing into shared memory (counted as write, not encode). */
  let shmWriteMs = 0;
  const limits = serveLimits(config);
  const detachShm = (): void => {
    if (shm !== null) closeShm(shm);
    shm = null;
  };

  const ops: Record<string, Op> = { ...gameOps(config), ...STATE_OPS, ...VECTOR_OPS, ...BOT_OPS };
  ops['info'] = { fields: [], run: () => ok(infoResponse(config, names)) };
  ops['hello'] = {
    fields: ['binary', 'shm'],
    run(req) {
      const b = boolField(req, 'binary', false);
      if (!b.ok) return b;
      // A refused segment changes nothing: the connection keeps its binary setting and segment.
      const spec = req['shm'];
      let next: ShmSegment | null = null;
      if (spec !== undefined && spec !== null) {
        const opened = openShm(spec, limits.shmBytes);
        if (!opened.ok) return opened;
        next = opened.value;
      }
      // From the next response on: this one is a JSON line either way.
      binary = b.value;
      detachShm();
      shm = next;
      return ok({ protocol: PROTOCOL_VERSION, binary, shm: shm === null ? null : describeShm(shm), capabilities: SERVE_CAPABILITIES });
    },
  };
  ops['delete'] = {
    fields: ['ids'],
    run(req, h) {
      const ids = req['ids'];
      if (!Array.isArray(ids)) return { ok: false, error: { code: 'protocol/request', message: `'ids' must be an array of handles, got ${show(ids)}` } };
      if (ids.length > LIMITS.deleteIds) return { ok: false, error: { code: 'protocol/too-large', message: `'ids' names ${ids.length} handles, over the limit of ${LIMITS.deleteIds}` } };
      const n = h.remove(ids, 'ids');
      return n.ok ? ok({ deleted: n.value }) : n;
    },
  };
  ops['stats'] = {
    fields: ['reset'],
    run(req, h) {
      const reset = boolField(req, 'reset', false);
      if (!reset.ok) return reset;
      const out = { uptime_ms: now() - started, handles: h.used, memory_bytes: h.bytes, chars_in: bytesIn, chars_out: bytesOut, shm_bytes_out: shmBytesOut, write_ms: writeMs, ops: stats };
      if (reset.value) {
        stats = {};
        bytesIn = bytesOut = writeMs = shmBytesOut = 0;
      }
      return ok(out);
    },
  };
  const names = Object.keys(ops).sort();

  function statsOf(op: string): OpStats {
    let s = stats[op];
    if (s === undefined) s = stats[op] = { count: 0, errors: 0, parse_ms: 0, compute_ms: 0, encode_ms: 0 };
    return s;
  }

  function respond(line: string): string {
    bytesOut += line.length + 1;
    return line;
  }

  /** A request line read up to its operation: the error line when it goes no further. */
  function receive(line: string): string | Received {
    bytesIn += line.length + 1;
    frames = [];
    const t0 = now();
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (e) {
      return respond(errorLine(null, { code: 'protocol/json', message: `the request is not JSON: ${(e as Error).message}` }));
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return respond(errorLine(null, { code: 'protocol/request', message: `a request must be a JSON object, got ${show(parsed)}` }));
    }
    const req = parsed as Record<string, unknown>;
    const id = req['id'] ?? null;
    if (!isId(id)) return respond(errorLine(null, { code: 'protocol/request', message: `'id' must be a number, a string or null, got ${show(id)}` }));
    if (req['protocol'] !== undefined && req['protocol'] !== PROTOCOL_VERSION) {
      return respond(errorLine(id, { code: 'protocol/version', message: `this server speaks protocol ${PROTOCOL_VERSION}, the request asks for ${show(req['protocol'])}` }));
    }
    const name = req['op'];
    if (typeof name !== 'string') return respond(errorLine(id, { code: 'protocol/request', message: `'op' must be an operation name, got ${show(name)}` }));
    const op = Object.hasOwn(ops, name) ? ops[name]! : undefined;
    if (op === undefined) return respond(errorLine(id, { code: 'protocol/unknown-op', message: `unknown op ${show(name)} (ops: ${names.join(', ')})` }));
    const s = statsOf(name);
    s.count++;
    const t1 = now();
    s.parse_ms += t1 - t0;
    const fields = checkFields(req, name, op.fields);
    if (!fields.ok) return complete({ id, name, req, op, stats: s, t1 }, () => fields);
    return { id, name, req, op, stats: s, t1 };
  }

  /** The response line of a request whose operation answered with `run()` (timed from `r.t1`). */
  function complete(r: Received, run: () => Checked<Record<string, unknown>>): string {
    const s = r.stats;
    let out: string;
    try {
      // The segment is checked before the operation runs: a segment that is gone refuses the
      // request with nothing changed, and the connection goes on without it.
      const toShm = shm !== null && SHM_OPS.has(r.name);
      if (toShm) {
        const there = checkShm(shm!);
        if (!there.ok) {
          detachShm();
          s.errors++;
          return respond(errorLine(r.id, { code: there.error.code, message: `${there.error.message}; nothing was done, and this connection no longer uses it (send hello with a new segment)` }));
        }
      }
      const result = run();
      const t2 = now();
      s.compute_ms += t2 - r.t1;
      shmWriteMs = 0;
      if (result.ok) {
        const value = { id: r.id, ok: true, ...result.value };
        out = toShm && shm !== null ? toSegment(shm, value) : inline(value);
      } else {
        s.errors++;
        out = errorLine(r.id, result.error);
      }
      s.encode_ms += now() - t2 - shmWriteMs;
    } catch (e) {
      // A bug, or a response too large to be a string: reported, and the session goes on.
      s.errors++;
      const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      out = errorLine(r.id, { code: e instanceof RangeError && /string length/i.test(message) ? 'protocol/too-large' : 'protocol/internal', message });
    }
    return respond(out);
  }

  /** A response with its arrays inline: binary frames, or base64. */
  function inline(value: Record<string, unknown>): string {
    const sent: Uint8Array[] | undefined = binary ? [] : undefined;
    const out = stringifyResponse(value, sent);
    frames = sent ?? [];
    for (const f of frames) bytesOut += f.byteLength;
    return out;
  }

  /**
   * A response with its arrays written into the segment (timed as the response's write). Arrays
   * that do not fit in a slot go inline; a write that fails sends them inline too, with
   * `shm_error`, and the connection no longer uses the segment.
   */
  function toSegment(segment: ShmSegment, value: Record<string, unknown>): string {
    const arrays = responseArrays(value);
    if (arrays.length === 0) return inline(value);
    const plan = planShm(segment, arrays.map((a) => a.byteLength));
    if (plan === null) return inline(value);
    const t = now();
    const written = writeShm(segment, plan, arrays);
    shmWriteMs = now() - t;
    writeMs += shmWriteMs;
    if (!written.ok) {
      detachShm();
      return inline({ ...value, shm_error: { code: written.error.code, message: `${written.error.message}; the arrays are in this response instead, and this connection no longer uses the segment` } });
    }
    shmBytesOut += written.value;
    return stringifyResponse(value, undefined, { seq: plan.seq, offsets: plan.offsets });
  }

  return {
    hello: JSON.stringify({ hello: 'meeplekit', protocol: PROTOCOL_VERSION, version: config.version, capabilities: SERVE_CAPABILITIES }),
    frames: () => frames,
    handle(line) {
      const r = receive(line);
      if (typeof r === 'string') return r;
      return complete(r, () => r.op.run(r.req, handles));
    },
    answer(line) {
      const r = receive(line);
      if (typeof r === 'string') return r;
      const start = r.op.start;
      if (start === undefined) return complete(r, () => r.op.run(r.req, handles));
      let started: Checked<Promise<Checked<Record<string, unknown>>>>;
      try {
        started = start(r.req, handles, stop.signal);
      } catch (e) {
        return complete(r, () => {
          throw e;
        });
      }
      if (!started.ok) {
        const refused = started;
        return complete(r, () => refused);
      }
      // Timed from the start: compute_ms is the search's wall-clock time. A bug in the background
      // work is reported as a synchronous one would be.
      return started.value.then(
        (result) => complete(r, () => result),
        (e: unknown) =>
          complete(r, () => {
            throw e;
          }),
      );
    },
    oversized(bytes) {
      bytesIn += bytes;
      frames = [];
      return respond(errorLine(null, { code: 'protocol/too-large', message: `a request line may have at most ${LIMITS.lineBytes} bytes; this one had more and was skipped` }));
    },
    recordWrite(ms) {
      writeMs += ms;
    },
    close() {
      stop.abort();
      handles.clear();
      detachShm();
    },
  };
}
