/**
 * Deltas between public views: after a move the server sends each client what changed in its
 * view, and the client applies it to the view it holds to get exactly the view the server would
 * have sent (equal field by field, and byte for byte as JSON).
 *
 * The format is a compact structural diff of the two views' JSON (a close relative of JSON
 * Patch, RFC 6902, with JSON Pointer paths, RFC 6901): three kinds of operation, told apart by
 * their length, and a splice for arrays, which is what a game does to its lists (a tile or a
 * follower added at the end, followers taken off in the middle). docs/for-apps.md compares its
 * sizes with whole views, immer's patches and a move log.
 */
import { meepleError, type MeepleError } from '../errors.js';
import type { GameEvent } from '../events.js';
import { err, ok, type Result } from '../result.js';
import { PUBLIC_VIEW_VERSION, type PublicView } from './view.js';
import { viewProblem } from './view-shape.js';

/**
 * One change to a view's JSON. `path` is a JSON Pointer (RFC 6901): `''` is the whole view,
 * `'/scores/1'` the second score, `'/bag/counts/D'` a key (`~` and `/` in a key are written
 * `~0` and `~1`). The three kinds are told apart by length:
 *
 * - `[path]`: delete the key at `path` from its object;
 * - `[path, value]`: set `path` to `value` (an existing array index, an object's key, which is
 *   added at the end of the object when new, or `''` for the whole view);
 * - `[path, start, deleteCount, ...items]`: splice the array at `path` as
 *   `Array.prototype.splice` would.
 *
 * Operations apply in order, each to the result of the previous ones.
 */
export type ViewDeltaOp =
  | readonly [path: string]
  | readonly [path: string, value: unknown]
  | readonly [path: string, start: number, deleteCount: number, ...items: unknown[]];

/**
 * What changed in one viewer's {@link PublicView} between two of its versions (typically before
 * and after a move): made by {@link viewDelta}, applied by {@link applyViewDelta}. Plain JSON.
 */
export interface ViewDelta {
  /** {@link PUBLIC_VIEW_VERSION} of both views. */
  readonly version: number;
  /** `seq` of the view it applies to. */
  readonly from: number;
  /** `seq` of the view it makes. */
  readonly to: number;
  /**
   * A fingerprint of the view it applies to (a 32-bit FNV-1a hash of its JSON text, as 8 hex
   * digits): a delta applied to any other view, such as one of another viewer or of a game taken
   * back and played differently, is refused instead of making a wrong view.
   */
  readonly base: string;
  /**
   * A fingerprint of the view it makes (the same hash of the server's view after the delta):
   * {@link applyViewDelta} refuses operations that were reordered, dropped, doubled or changed on
   * the way, even when what they make still has a view's shape. Always set by {@link viewDelta};
   * a delta without it (made by a version of this library before it) is still read, checked
   * only for making a view of the right shape. 20 bytes of JSON per delta.
   */
  readonly target?: string;
  /** The changes, in order ({@link ViewDeltaOp}); `seq` is not among them (it becomes `to`). */
  readonly ops: readonly ViewDeltaOp[];
  /**
   * The events of the move, when the server added them (`viewDelta`'s `events` option), for a
   * UI to animate and log (who scored what, for which feature). Not part of the view:
   * {@link applyViewDelta} ignores them.
   */
  readonly events?: readonly GameEvent[];
}

/** Options of {@link viewDelta}. */
export interface ViewDeltaOptions {
  /**
   * The events of the transition between the two views (`applyMove(...).value.events`), to send
   * along (`delta.events`). Events are public: they name tiles, features and players, as the
   * view does. Default: none.
   */
  readonly events?: readonly GameEvent[];
}

// ---------------------------------------------------------------------------------------------
// JSON helpers

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep equality of two JSON values, key order included (it decides the bytes). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** Sets an own data property (never a setter: a key may be `__proto__`). */
function define(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A JSON Pointer segment for `key`. */
function escapeKey(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}

/** The size of some operations as JSON text. */
function size(ops: readonly ViewDeltaOp[]): number {
  return JSON.stringify(ops).length;
}

/**
 * A 32-bit FNV-1a hash of a view's JSON text (its UTF-16 code units), as 8 hex digits. For
 * telling views apart by mistake, not for security. @internal
 */
export function viewFingerprint(view: unknown): string {
  const text = JSON.stringify(view);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

// ---------------------------------------------------------------------------------------------
// Diff

/** Longest common subsequence hunks between two short arrays: `[aStart, aEnd, bStart, bEnd]`, ascending. */
function hunks(a: readonly unknown[], b: readonly unknown[]): [number, number, number, number][] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: length of the LCS of a[i..] and b[j..].
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = same(a[i], b[j]) ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const out: [number, number, number, number][] = [];
  let i = 0;
  let j = 0;
  let start: [number, number] | null = null;
  while (i < n || j < m) {
    if (i < n && j < m && same(a[i], b[j])) {
      if (start !== null) out.push([start[0], i, start[1], j]);
      start = null;
      i++;
      j++;
    } else {
      if (start === null) start = [i, j];
      if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) j++;
      else i++;
    }
  }
  if (start !== null) out.push([start[0], n, start[1], m]);
  return out;
}

/** The middle of two arrays (a short one) as splices, last first, so each start is still valid. */
function spliceOps(a: readonly unknown[], b: readonly unknown[], path: string, lo: number, aHi: number, bHi: number): ViewDeltaOp[] {
  const ops: ViewDeltaOp[] = [];
  const hs = aHi - lo <= 64 && bHi - lo <= 64 ? hunks(a.slice(lo, aHi), b.slice(lo, bHi)) : [[0, aHi - lo, 0, bHi - lo] as [number, number, number, number]];
  for (let h = hs.length - 1; h >= 0; h--) {
    const [a0, a1, b0, b1] = hs[h]!;
    ops.push([path, lo + a0, a1 - a0, ...b.slice(lo + b0, lo + b1)]);
  }
  return ops;
}

function diffArray(a: readonly unknown[], b: readonly unknown[], path: string): ViewDeltaOp[] {
  let lo = 0;
  while (lo < a.length && lo < b.length && same(a[lo], b[lo])) lo++;
  let tail = 0;
  while (tail < a.length - lo && tail < b.length - lo && same(a[a.length - 1 - tail], b[b.length - 1 - tail])) tail++;
  const aHi = a.length - tail;
  const bHi = b.length - tail;
  let best = spliceOps(a, b, path, lo, aHi, bHi);
  if (a.length === b.length) {
    // Element by element: a changed score, a tower grown by one level.
    const each: ViewDeltaOp[] = [];
    for (let i = lo; i < aHi; i++) diffAt(a[i], b[i], `${path}/${i}`, each);
    if (size(each) < size(best)) best = each;
  }
  return best;
}

/** Key by key, or null when the keys could not end up in `b`'s order that way. */
function diffRecord(a: Record<string, unknown>, b: Record<string, unknown>, path: string): ViewDeltaOp[] | null {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  // What the client's object will look like: kept keys in place, deleted ones gone, new ones at
  // the end (with the engine's own rule for integer-like keys, which come first in any object).
  const shape: Record<string, unknown> = {};
  for (const k of ka) if (Object.hasOwn(b, k)) define(shape, k, 0);
  for (const k of kb) if (!Object.hasOwn(a, k)) define(shape, k, 0);
  const order = Object.keys(shape);
  if (order.length !== kb.length || order.some((k, i) => k !== kb[i])) return null;
  const ops: ViewDeltaOp[] = [];
  for (const k of ka) if (!Object.hasOwn(b, k)) ops.push([`${path}/${escapeKey(k)}`]);
  for (const k of kb) {
    if (Object.hasOwn(a, k)) diffAt(a[k], b[k], `${path}/${escapeKey(k)}`, ops);
    else ops.push([`${path}/${escapeKey(k)}`, b[k]]);
  }
  return ops;
}

/** Appends to `ops` what turns `a` into `b` at `path`: the smaller of a nested diff and a replacement. */
function diffAt(a: unknown, b: unknown, path: string, ops: ViewDeltaOp[]): void {
  if (same(a, b)) return;
  let nested: ViewDeltaOp[] | null = null;
  if (Array.isArray(a) && Array.isArray(b)) nested = diffArray(a, b, path);
  else if (isRecord(a) && isRecord(b)) nested = diffRecord(a, b, path);
  const replace: ViewDeltaOp = [path, b];
  if (nested !== null && size(nested) < size([replace])) ops.push(...nested);
  else ops.push(replace);
}

/**
 * The operations that turn JSON value `a` into `b` (equal in every key and element, and in key
 * order, so that `JSON.stringify` gives the same text). Values in the operations are `b`'s own
 * (not copied). @internal
 */
export function diffJson(a: unknown, b: unknown): ViewDeltaOp[] {
  const ops: ViewDeltaOp[] = [];
  diffAt(a, b, '', ops);
  return ops;
}

// ---------------------------------------------------------------------------------------------
// Patch

/** A JSON copy of an untrusted value, or undefined if it is not JSON (a cycle, a BigInt). */
function copyJson(v: unknown): Json | undefined {
  try {
    const text = JSON.stringify(v);
    return text === undefined ? undefined : (JSON.parse(text) as Json);
  } catch {
    return undefined;
  }
}

/** The segments of a JSON Pointer, or null if it is not one. */
function parsePointer(path: string): string[] | null {
  if (path === '') return [];
  if (!path.startsWith('/')) return null;
  const out: string[] = [];
  for (const raw of path.slice(1).split('/')) {
    if (/~[^01]|~$/.test(raw)) return null;
    out.push(raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return out;
}

/** An array index in a pointer: digits without a leading zero, below `limit`. */
function indexOf(segment: string, limit: number): number {
  if (!/^(0|[1-9][0-9]{0,8})$/.test(segment)) return -1;
  const i = Number(segment);
  return i < limit ? i : -1;
}

/** Applies operations to a JSON value without changing it: containers on the paths are copied once. */
class Patcher {
  private readonly fresh = new Set<object>();
  root: unknown;

  constructor(root: unknown) {
    this.root = root;
  }

  private own<T extends object>(v: T): T {
    if (this.fresh.has(v)) return v;
    const c = (Array.isArray(v) ? v.slice() : { ...v }) as T;
    this.fresh.add(c);
    return c;
  }

  /** The container at `segments`, made writable along the way; a message if the path is not there. */
  private walk(segments: readonly string[]): { target: unknown } | string {
    if (typeof this.root !== 'object' || this.root === null) return 'the view is not an object';
    this.root = this.own(this.root);
    let node = this.root as Record<string, unknown> | unknown[];
    for (let s = 0; s < segments.length; s++) {
      const seg = segments[s]!;
      let child: unknown;
      if (Array.isArray(node)) {
        const i = indexOf(seg, node.length);
        if (i < 0) return `no element '${seg}'`;
        child = node[i];
        if (typeof child === 'object' && child !== null) node[i] = child = this.own(child);
      } else {
        if (!Object.hasOwn(node, seg)) return `no key '${seg}'`;
        child = node[seg];
        if (typeof child === 'object' && child !== null) define(node, seg, (child = this.own(child)));
      }
      if (s < segments.length - 1 && (typeof child !== 'object' || child === null)) return `'${seg}' holds no object`;
      node = child as Record<string, unknown> | unknown[];
    }
    return { target: node };
  }

  /** Applies one operation; a message if it does not fit. */
  apply(op: unknown): string | null {
    if (!Array.isArray(op) || op.length === 0 || typeof op[0] !== 'string') return 'an operation is [path, ...], path a string';
    const segments = parsePointer(op[0]);
    if (segments === null) return `'${op[0].slice(0, 60)}' is not a JSON Pointer`;
    if (op.length >= 3) {
      const [, start, count] = op as unknown[];
      if (!Number.isInteger(start) || !Number.isInteger(count) || (start as number) < 0 || (count as number) < 0) return 'a splice needs integer start and count';
      const items: Json[] = [];
      for (let i = 3; i < op.length; i++) {
        const item = copyJson(op[i]);
        if (item === undefined) return 'a spliced item is not JSON';
        items.push(item);
      }
      const at = this.walk(segments);
      if (typeof at === 'string') return at;
      if (!Array.isArray(at.target)) return `'${op[0]}' is not an array`;
      if ((start as number) + (count as number) > at.target.length) return `a splice past the end of '${op[0]}'`;
      at.target.splice(start as number, count as number, ...items);
      return null;
    }
    if (segments.length === 0) {
      if (op.length === 1) return 'the whole view cannot be deleted';
      const value = copyJson(op[1]);
      if (value === undefined) return 'a value is not JSON';
      this.root = value;
      return null;
    }
    const at = this.walk(segments.slice(0, -1));
    if (typeof at === 'string') return at;
    const key = segments[segments.length - 1]!;
    const parent = at.target;
    if (op.length === 1) {
      if (!isRecord(parent) || !Object.hasOwn(parent, key)) return `no key '${key}' to delete`;
      delete parent[key];
      return null;
    }
    const value = copyJson(op[1]);
    if (value === undefined) return 'a value is not JSON';
    if (Array.isArray(parent)) {
      const i = indexOf(key, parent.length);
      if (i < 0) return `no element '${key}'`;
      parent[i] = value;
    } else if (isRecord(parent)) define(parent, key, value);
    else return 'a value can only be set in an object or an array';
    return null;
  }
}

/**
 * Applies operations to a JSON value without changing it (containers on the operations' paths
 * are copied, everything else is shared): the result, or the index of the first operation that
 * does not fit and why. @internal
 */
export function patchJson(root: unknown, ops: readonly unknown[]): { ok: true; value: unknown } | { ok: false; index: number; message: string } {
  const patcher = new Patcher(root);
  for (let i = 0; i < ops.length; i++) {
    const problem = patcher.apply(ops[i]);
    if (problem !== null) return { ok: false, index: i, message: problem };
  }
  return { ok: true, value: patcher.root };
}

// ---------------------------------------------------------------------------------------------
// API

/**
 * What changed between two public views of the same viewer: a small {@link ViewDelta} to send
 * instead of the whole new view. `to` is usually the view after a move and `from` the one before
 * it, but any two views of the same ruleset and viewer will do (after an undo, or for a client
 * that missed a few moves). {@link applyViewDelta} turns `from` into exactly `to` with it.
 *
 * Errors: `view/mismatch` (the views belong to different rulesets or viewers, or one of them
 * has another format version), `view/malformed` (a view is not JSON).
 *
 * @example
 * ```ts
 * import { applyMove, applyViewDelta, createRuleset, legalMoves, newGame, publicView, viewDelta } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'delta' });
 * if (!game.ok) throw new Error(game.error.message);
 * const next = applyMove(rules.value, game.value, legalMoves(rules.value, game.value)[0]!);
 * if (!next.ok) throw new Error(next.error.message);
 *
 * const before = publicView(rules.value, game.value, 1);   // what the client holds
 * const after = publicView(rules.value, next.value.state, 1);
 * if (!before.ok || !after.ok) throw new Error('no view');
 * const delta = viewDelta(before.value, after.value);     // what the server sends
 * if (!delta.ok) throw new Error(delta.error.message);
 * const applied = applyViewDelta(before.value, delta.value); // what the client computes
 * console.log(JSON.stringify(delta.value).length < 300, applied.ok && JSON.stringify(applied.value) === JSON.stringify(after.value)); // true true
 * ```
 */
export function viewDelta(from: PublicView, to: PublicView, options: ViewDeltaOptions = {}): Result<ViewDelta, MeepleError> {
  if (!isRecord(from) || !isRecord(to)) return err(meepleError('view/malformed', 'viewDelta needs two public views'));
  if (from.version !== PUBLIC_VIEW_VERSION || to.version !== PUBLIC_VIEW_VERSION) {
    return err(meepleError('view/mismatch', `both views must have version ${PUBLIC_VIEW_VERSION}; got ${String(from.version)} and ${String(to.version)}`));
  }
  if (from.ruleset !== to.ruleset || from.viewer !== to.viewer) {
    return err(meepleError('view/mismatch', 'a delta goes between two views of the same ruleset and viewer'));
  }
  let base: string;
  let target: string;
  try {
    base = viewFingerprint(from);
    target = viewFingerprint(to);
  } catch {
    return err(meepleError('view/malformed', 'a view is not JSON'));
  }
  // `seq` is carried by `to`: leave it out of the operations.
  const ops = diffJson({ ...from, seq: 0 }, { ...to, seq: 0 });
  const delta: ViewDelta = { version: PUBLIC_VIEW_VERSION, from: from.seq, to: to.seq, base, target, ops: copyJson(ops) as unknown as ViewDeltaOp[] };
  if (options.events === undefined) return ok(delta);
  return ok({ ...delta, events: copyJson(options.events) as unknown as GameEvent[] });
}

/**
 * Applies a {@link ViewDelta} to the view a client holds: the result is exactly the view the
 * server made (equal in every field, and byte for byte as JSON). The input view is not changed;
 * the result shares every unchanged part with it (so a UI can compare parts by identity), and
 * should be treated as read-only too.
 *
 * The delta is untrusted input (it comes over the network): anything that does not fit the
 * view is refused, never thrown. Errors: `view/version` (the delta or the view has another
 * format version), `view/mismatch` (the delta was made from another view: another `seq`, or the
 * same `seq` of another viewer or of a game that was taken back and played differently; fetch a
 * whole view then), `view/malformed` (not a delta; an operation that does not fit the view;
 * operations that leave something that is not a view of the same ruleset, viewer and players,
 * with `error.path` naming the field, such as `view.scores`; or, when the delta has a `target`
 * fingerprint, operations that make another view than the server's, as reordered, dropped or
 * doubled ones would). Whatever is refused, the view given is left as it was.
 *
 * @example
 * ```ts
 * import { applyViewDelta, createRuleset, newGame, publicView } from 'meeplekit';
 *
 * const rules = createRuleset({ game: 'classic' });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'client' });
 * if (!game.ok) throw new Error(game.error.message);
 * const view = publicView(rules.value, game.value, 0);
 * if (!view.ok) throw new Error(view.error.message);
 *
 * const stale = applyViewDelta(view.value, { version: 1, from: 7, to: 8, base: '00000000', ops: [] });
 * console.log(stale.ok ? 'applied' : stale.error.code); // view/mismatch
 * ```
 */
export function applyViewDelta(view: PublicView, delta: unknown): Result<PublicView, MeepleError> {
  if (!isRecord(delta)) return err(meepleError('view/malformed', 'a view delta is an object { version, from, to, base, ops }'));
  if (!isRecord(view) || !Number.isInteger(view.seq)) return err(meepleError('view/malformed', 'applyViewDelta needs a public view'));
  if (delta['version'] !== PUBLIC_VIEW_VERSION) {
    return err(meepleError('view/version', `this is a delta of view format ${JSON.stringify(delta['version']) ?? 'undefined'}; this library reads version ${PUBLIC_VIEW_VERSION}`));
  }
  if (view.version !== PUBLIC_VIEW_VERSION) {
    return err(meepleError('view/version', `the view has format ${String(view.version)}; this library reads version ${PUBLIC_VIEW_VERSION}`));
  }
  const { from, to, base, target, ops } = delta;
  if (!Number.isInteger(from) || !Number.isInteger(to) || (to as number) < 0 || typeof base !== 'string' || !Array.isArray(ops)) {
    return err(meepleError('view/malformed', 'a view delta needs integer from and to, a base fingerprint and a list of ops'));
  }
  if (target !== undefined && typeof target !== 'string') {
    return err(meepleError('view/malformed', 'a view delta\'s target fingerprint is a string', { path: '$.target' }));
  }
  if (from !== view.seq) {
    return err(meepleError('view/mismatch', `this delta applies to the view after move ${String(from)}; the view is after move ${view.seq}`));
  }
  let fingerprint: string;
  try {
    fingerprint = viewFingerprint(view);
  } catch {
    return err(meepleError('view/malformed', 'the view is not JSON'));
  }
  if (fingerprint !== base) {
    return err(meepleError('view/mismatch', `this delta was made from another view after move ${String(from)} (another viewer's, or a game taken back): fetch a whole view`));
  }
  const patched = patchJson(view, ops);
  if (!patched.ok) return err(meepleError('view/malformed', `operation ${patched.index} does not fit the view: ${patched.message}`, { path: `$.ops[${patched.index}]` }));
  const out = patched.value;
  if (!isRecord(out)) return err(meepleError('view/malformed', 'the operations did not leave a public view: it is not an object', { path: 'view' }));
  const result = { ...out } as Record<string, unknown>;
  result['seq'] = to;
  const problem = viewProblem(result, view as unknown as Record<string, unknown>);
  if (problem !== null) return err(meepleError('view/malformed', `the operations did not leave a public view: ${problem.path} ${problem.message}`, { path: problem.path }));
  if (target !== undefined && viewFingerprint(result) !== target) {
    return err(meepleError('view/malformed', 'the operations did not make the view the delta was made for (reordered, dropped, doubled or changed on the way): fetch a whole view', { path: '$.ops' }));
  }
  return ok(result as unknown as PublicView);
}
