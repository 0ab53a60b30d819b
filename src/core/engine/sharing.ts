/**
 * Makes the successor of a base state share every unchanged part with the base, so that the
 * frozen result of `applyMove` keeps the base's arrays and records wherever the move did not
 * change them.
 *
 * Why: the rules recipe runs on a plain copy (the same code path as the Simulator) instead of on
 * immer's proxies, where every read is a trap and every visited object gets a proxy; that made
 * `applyMove` about twenty times slower. The successor's parts equal to the base's are swapped
 * back to the base's here and the rest frozen; `applyMove` freezes the successor's root and hands
 * it to immer's `produce` as the producer's result.
 *
 * What is adopted from the successor is deep-frozen here, stopping at the parts already frozen
 * (shared with the base): immer's finalizer, given unfrozen parts, visited every element of every
 * adopted array (which cost ten times the rules themselves).
 *
 * A changed array is adopted whole from the successor (its element records are still the base's,
 * shared). A changed record (the feature graph, an expansion slice) is the successor's, with its
 * unchanged parts swapped back to the base's. Drafting the root and setting the changed fields
 * through immer's proxy, as before, cost a copy of the frozen root and a trap per field (0.78x the
 * time without); drafting nested records too cost a proxy, a copy and a finalizing walk each
 * (docs/benchmarks.md).
 */
import { hostKeys } from './own-keys.js';

function isPlainRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sameKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return false;
  return true;
}

function sameArray(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Freezes an adopted array and its members. Members are numbers, records shared with the (frozen)
 * base, or records and lists the rules made during this move (a placed tile, a feature's new tile
 * list: flat, unfrozen for the Simulator's sake), which are frozen here; moves, followers and
 * expansion moves are frozen when made. One level is enough: no member holds further objects
 * that are not frozen.
 */
function freezeArray(v: unknown[], base: readonly unknown[]): unknown[] {
  // Arrays of numbers (most of the feature graph) need nothing more; in arrays of records only
  // the entries that differ from the base's are new.
  if (v.length > 0 && typeof v[0] === 'object') {
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      if (i < base.length && e === base[i]) continue;
      if (typeof e === 'object' && e !== null && !Object.isFrozen(e)) Object.freeze(e);
    }
  }
  return Object.freeze(v) as unknown[];
}

/**
 * Makes `next`, the successor of `base` (a copy of it changed by the rules, owned by the caller),
 * share every part equal to the base's, field by field at the root (see {@link shareUnchanged});
 * the root itself is not frozen here (`applyMove` freezes it). @internal
 */
export function shareWithBase(base: Record<string, unknown>, next: Record<string, unknown>): void {
  // Own keys only, here and below, when the host's Object.prototype has keys (see hostKeys).
  const own = hostKeys();
  for (const key in next) {
    if (own && !Object.hasOwn(next, key)) continue;
    const b = base[key];
    const n = next[key];
    if (b !== n) next[key] = shareUnchanged(b, n, own);
  }
}

/**
 * `next` (a part of the successor, owned by the caller) with every part equal to `base`'s replaced
 * by the base's, frozen; or `base` itself when nothing differs. Unchanged arrays stay shared:
 * comparing even the long ones (the feature graph, the cell table) costs about what freezing them
 * would, and it keeps the board shared across moves that lay no tile (docs/benchmarks.md, bytes
 * kept). Records with the same keys are merged field by field (in place in `next` unless it is
 * frozen); anything else that differs is adopted from `next`.
 */
function shareUnchanged(base: unknown, next: unknown, own: boolean): unknown {
  if (base === next) return base;
  if (Array.isArray(base) && Array.isArray(next)) return sameArray(base, next) ? base : freezeArray(next, base);
  if (isPlainRecord(base) && isPlainRecord(next) && sameKeys(base, next)) {
    // Merged in place, unless already frozen (applyMove deep-freezes expansion slices first).
    const out = Object.isFrozen(next) ? { ...next } : next;
    let changed = false;
    for (const k in out) {
      if (own && !Object.hasOwn(out, k)) continue;
      const v = shareUnchanged(base[k], out[k], own);
      if (v !== base[k]) changed = true;
      out[k] = v;
    }
    return changed ? Object.freeze(out) : base;
  }
  return deepFreeze(next, own);
}

/**
 * Freezes a value and everything under it that is not frozen yet; returns it. `own`: walk own keys
 * only (the host's Object.prototype has keys, see hostKeys). @internal
 */
export function deepFreeze<T>(v: T, own: boolean = hostKeys()): T {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return v;
  Object.freeze(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e: unknown = v[i];
      if (typeof e === 'object' && e !== null) deepFreeze(e, own);
    }
  } else {
    for (const k in v) {
      if (own && !Object.hasOwn(v, k)) continue;
      const e: unknown = (v as Record<string, unknown>)[k];
      if (typeof e === 'object' && e !== null) deepFreeze(e, own);
    }
  }
  return v;
}
