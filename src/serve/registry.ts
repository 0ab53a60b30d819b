/**
 * Handles of one connection: games (`g1`), states (`s1`) and vector environments (`v1`), kept until
 * deleted, within the limits on handles (a vector environment counts each of its environments) and
 * on their estimated memory, the connection's and the server's (shared by its connections).
 */
import { ok } from '../core/result.js';
import type { GameEntry } from './games.js';
import { refuse, show, type Checked, type Request, type ServeLimits } from './request.js';
import type { StateEntry } from './states.js';
import type { VecEntry } from './vector.js';

/** What the registry needs of an entry: its kind (named in messages) and how many handles it counts for. */
export interface Entry {
  /** `'game'`, `'state'` or `'vec'`. */
  readonly kind: string;
  /** Handles it counts for against the limit (a vector environment: its environments). */
  readonly weight: number;
  /** Its estimated bytes ({@link MEMORY_ESTIMATE}), counted against the memory limits. */
  readonly bytes: number;
}

/** What the sessions of one server share: the estimated bytes of the handles they all hold. */
export interface ServerLoad {
  /** The sum of the sessions' estimated bytes. */
  bytes: number;
}

const MiB = 1024 * 1024;

/** Bytes in MiB, for messages. */
function mib(bytes: number): string {
  return `${(bytes / MiB).toFixed(1)} MiB`;
}

/** The handles of one connection. */
export interface Registry<E extends Entry> {
  /** Handles counted now (a vector environment counts its environments). */
  readonly used: number;
  /** Estimated bytes of the handles held now. */
  readonly bytes: number;
  /** The server's limits. */
  readonly limits: ServeLimits;
  /**
   * Whether `weight` more handles of `bytes` estimated bytes fit: refused with `protocol/too-large`
   * (handles), `protocol/connection-full` (this connection's memory) or `protocol/server-full`
   * (the server's). `what` names them in the message.
   */
  room(weight: number, bytes: number, what: string): Checked<void>;
  /** Registers an entry under a fresh id starting with `prefix`, or refuses as {@link Registry.room} does. */
  add(prefix: string, entry: E): Checked<string>;
  /** The entry of kind `kind` that a request's field `field` names, or `protocol/unknown-handle` (`protocol/request` for a non-string). */
  get<K extends E['kind']>(value: unknown, kind: K, field: string): Checked<Extract<E, { kind: K }>>;
  /** Removes the handles `ids` names (unknown ones are skipped: deleting is idempotent); returns how many it removed. A non-string id refuses the whole list. */
  remove(ids: readonly unknown[], field: string): Checked<number>;
  /** Removes every handle (the session is over). */
  clear(): void;
}

const KIND_NAMES: Readonly<Record<string, string>> = { game: 'a game', state: 'a state', vec: 'a vector environment' };

/**
 * An empty registry within `limits`, counting its bytes also in `load`, which the sessions of one
 * server share.
 */
export function createRegistry<E extends Entry>(limits: ServeLimits, load: ServerLoad = { bytes: 0 }): Registry<E> {
  const entries = new Map<string, E>();
  const next = new Map<string, number>();
  let used = 0;
  let bytes = 0;
  const registry: Registry<E> = {
    get used() {
      return used;
    },
    get bytes() {
      return bytes;
    },
    limits,
    room(weight, more, what) {
      if (used + weight > limits.handles) {
        return refuse('protocol/too-large', `this connection holds ${used} handles; ${what} would pass the limit of ${limits.handles}: delete some first`);
      }
      if (bytes + more > limits.memoryBytes) {
        return refuse(
          'protocol/connection-full',
          `this connection holds handles of an estimated ${mib(bytes)}; ${what} would add ${mib(more)}, over its limit of ${mib(limits.memoryBytes)}: delete or close some first`,
        );
      }
      if (load.bytes + more > limits.serverMemoryBytes) {
        return refuse(
          'protocol/server-full',
          `the server's connections hold handles of an estimated ${mib(load.bytes)}; ${what} would add ${mib(more)}, over the server's limit of ${mib(limits.serverMemoryBytes)}: free some, wait for other connections to, or use another server`,
        );
      }
      return ok(undefined);
    },
    add(prefix, entry) {
      const fits = registry.room(entry.weight, entry.bytes, `${KIND_NAMES[entry.kind] ?? entry.kind} more`);
      if (!fits.ok) return fits;
      const n = (next.get(prefix) ?? 0) + 1;
      next.set(prefix, n);
      const id = `${prefix}${n}`;
      entries.set(id, entry);
      used += entry.weight;
      bytes += entry.bytes;
      load.bytes += entry.bytes;
      return ok(id);
    },
    get(value, kind, field) {
      if (typeof value !== 'string') return refuse('protocol/request', `'${field}' must be a handle string, got ${show(value)}`);
      const e = entries.get(value);
      if (e === undefined) return refuse('protocol/unknown-handle', `'${field}': ${show(value)} names nothing on this connection (never made, or deleted)`);
      if (e.kind !== kind) return refuse('protocol/unknown-handle', `'${field}': ${show(value)} is ${KIND_NAMES[e.kind] ?? e.kind}, not ${KIND_NAMES[kind] ?? kind}`);
      return ok(e as Extract<E, { kind: typeof kind }>);
    },
    remove(ids, field) {
      for (let i = 0; i < ids.length; i++) {
        if (typeof ids[i] !== 'string') return refuse('protocol/request', `'${field}'[${i}] must be a handle string, got ${show(ids[i])}`);
      }
      let n = 0;
      for (const id of ids as readonly string[]) {
        const e = entries.get(id);
        // Unknown or already deleted: nothing to do (a client may free a handle twice).
        if (e === undefined) continue;
        entries.delete(id);
        used -= e.weight;
        bytes -= e.bytes;
        load.bytes -= e.bytes;
        n++;
      }
      return ok(n);
    },
    clear() {
      entries.clear();
      load.bytes -= bytes;
      used = bytes = 0;
    },
  };
  return registry;
}

/** Any handle's entry. */
export type Handle = GameEntry | StateEntry | VecEntry;

/** The handles of one connection, as every operation sees them. */
export type Handles = Registry<Handle>;

/** One operation of the protocol: the fields it takes, and what it does with a request. */
export interface Op {
  /** Its fields besides the envelope's `id`, `op` and `protocol` (any other is refused). */
  readonly fields: readonly string[];
  /** Answers the request (the response's fields besides `id` and `ok`), or refuses it, leaving every handle as it was. */
  run(req: Request, handles: Handles): Checked<Record<string, unknown>>;
  /**
   * The same operation run in the background, for a transport (`bot`, `analyse`): the request is
   * checked at once (a refusal answers at once), then the work yields to the event loop as it
   * goes, so that other connections are served meanwhile; `signal` aborts it (the connection
   * closed). Operations without it answer at once through {@link Op.run}.
   */
  start?(req: Request, handles: Handles, signal: AbortSignal): Checked<Promise<Checked<Record<string, unknown>>>>;
}
