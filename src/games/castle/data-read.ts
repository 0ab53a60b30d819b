/**
 * Reading The Castle's data as untrusted JSON: the numbers the data must have, own data properties
 * only (so that prototypes and getters play no part), failures with their JSON path, and the
 * tile-spec reader that tiles and start fields share.
 */
import { meepleError, showValue, type ErrorCode, type MeepleError } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';
import type { FeatureKindDef } from '../../core/tiles.js';
import { PORTS } from '../../core/types.js';
import { CASTLE_KINDS } from './kinds.js';
import type { SideName } from './data-types.js';

/** Play-area cells of The Castle. */
export const CELLS = 76;
/** Track spaces round the wall. */
export const SPACES = 100;
/** Wall towers. */
export const TOWERS = 14;
/** Start fields on the wall. */
export const START_FIELDS = 7;
/** Wall pieces. */
export const PIECES = 10;
/** Tiles in the set. */
export const TILES = 60;
/** A bound on the grid, far beyond any 76-cell area: keeps work small on absurd input. */
export const MAX_GRID = 128;
/** A bound on spec length: a 12-port spec is far shorter. */
const MAX_SPEC = 400;

export const SIDE_NAMES: readonly SideName[] = ['N', 'E', 'S', 'W'];
export const DX = [0, 1, 0, -1] as const;
export const DY = [-1, 0, 1, 0] as const;
const PORT_INDEX: ReadonlyMap<string, number> = new Map(PORTS.map((p, i) => [p, i]));


/** An own data property of `obj`, or undefined. */
export function field(obj: unknown, key: string): unknown {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const d = Object.getOwnPropertyDescriptor(obj, key);
  return d !== undefined && 'value' in d ? d.value : undefined;
}

/** Whether `v` is a plain record (an object, not an array). */
export function isRecord(v: unknown): v is object {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Element `i` of an array, own data properties only. */
export function at(arr: readonly unknown[], i: number): unknown {
  return field(arr, String(i));
}

/** Whether `v` is an integer in `lo..hi`. */
export function isInt(v: unknown, lo: number, hi: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
}

/** Deeply freezes plain objects and arrays (typed arrays cannot be frozen and are left alone). */
export function freezeDeep<T>(v: T): T {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v) || Object.isFrozen(v)) return v;
  for (const k of Object.keys(v)) freezeDeep((v as Record<string, unknown>)[k]);
  return Object.freeze(v);
}

/** A failure at a JSON path (tagged, so that it cannot be mistaken for a result). */
export interface Failure {
  readonly failed: true;
  readonly message: string;
  readonly path: string;
}

/** Shorthand for a {@link Failure}. */
export function fail(path: string, message: string): Failure {
  return { failed: true, message, path };
}

/** Whether a validator's outcome is a {@link Failure}. */
export function isFailure<T>(v: T | Failure): v is Failure {
  return typeof v === 'object' && v !== null && Object.hasOwn(v, 'failed');
}

/** Runs a validator, turning a failure (or an exotic input that throws when read) into an error. */
export function guarded<T>(code: ErrorCode, root: string, run: () => T | Failure): Result<T, MeepleError> {
  let out: T | Failure;
  try {
    out = run();
  } catch (e) {
    // Only exotic input gets here (a Proxy or accessor that throws when read): JSON cannot.
    const why = e instanceof Error ? e.message : 'unreadable value';
    return err(meepleError(code, `${root} cannot be read: ${why}`, { path: root }));
  }
  return isFailure(out) ? err(meepleError(code, out.message, { path: out.path })) : ok(out);
}



/** One feature of a spec, read and checked. */
interface SpecFeature {
  readonly kind: FeatureKindDef;
  /** Local id: code + running number per kind (`p1`, `c2`). */
  readonly id: string;
  readonly plus: number;
  readonly ports: readonly number[];
}

/**
 * Reads a spec in The Castle's notation and checks what both tiles and start fields require:
 * known codes, no wall, no adjacency lists, known ports owned once, every feature owning a port,
 * paths only on middle ports, `+` only on paths (wells) and courts (markets). Returns a message
 * (starting with `who`) on failure.
 */
export function readSpec(spec: unknown, who: string, pathOff: (id: string, port: string) => string): readonly SpecFeature[] | string {
  if (typeof spec !== 'string') return `${who}: spec must be a string, got ${showValue(spec)}`;
  if (spec.length > MAX_SPEC) return `${who}: spec is ${spec.length} characters long, more than ${MAX_SPEC}`;
  const text = spec.trim();
  if (text === '') return `${who}: spec is empty`;
  const byCode = new Map(CASTLE_KINDS.map((k) => [k.code, k]));
  const perKind = new Map<string, number>();
  const owned = new Set<number>();
  const features: SpecFeature[] = [];
  for (const part of text.split(/\s+/)) {
    if (part.includes('>')) return `${who}: feature '${part}' has an adjacency list ('>'), which The Castle does not use`;
    const m = /^([A-Za-z])(\+*)(?::(.*))?$/.exec(part);
    if (m === null) return `${who}: cannot read feature '${part}' (expected code[+][:ports], e.g. 'p:N2,S2')`;
    const code = m[1]!;
    const kind = byCode.get(code);
    if (kind === undefined) {
      const codes = CASTLE_KINDS.filter((k) => k.code !== 'w').map((k) => `${k.code} ${k.name}`).join(', ');
      return `${who}: unknown feature code '${code}' in '${part}' (codes: ${codes})`;
    }
    if (kind.code === 'w') return `${who}: wall feature '${part}': the wall lies only round the play area, never on a tile or start field`;
    const n = (perKind.get(code) ?? 0) + 1;
    perKind.set(code, n);
    const id = `${code}${n}`;
    const ports: number[] = [];
    for (const tok of m[3] === undefined || m[3] === '' ? [] : m[3].split(',')) {
      const list = tok.length === 1 ? [`${tok}1`, `${tok}2`, `${tok}3`] : [tok];
      for (const p of list) {
        const i = PORT_INDEX.get(p);
        if (i === undefined) return `${who}: unknown port '${tok}' in '${part}' (ports N1..W3, or a side letter N, E, S, W)`;
        if (owned.has(i)) return `${who}: port ${p} owned twice (again by ${kind.name} ${id})`;
        owned.add(i);
        ports.push(i);
      }
    }
    if (ports.length === 0) return `${who}: ${kind.name} ${id} ('${part}') owns no port`;
    if (kind.name === 'path') {
      const off = ports.find((p) => p % 3 !== 1);
      if (off !== undefined) return `${who}: ${pathOff(id, PORTS[off]!)}`;
    }
    const plus = m[2]!.length;
    if (plus > 0 && kind.name !== 'path' && kind.name !== 'court') {
      return `${who}: '+' on ${kind.name} ${id} ('${part}'): only a path (well) or a court (market) can carry one`;
    }
    features.push({ kind, id, plus, ports });
  }
  return features;
}

/** The spec text of a feature with the given ports. */
export function featureText(f: SpecFeature, ports: readonly number[]): string {
  return `${f.kind.code}${'+'.repeat(f.plus)}:${ports.map((p) => PORTS[p]).join(',')}`;
}
