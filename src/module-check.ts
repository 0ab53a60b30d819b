/**
 * What `createRuleset` checks of an expansion module before it compiles anything: every member
 * it reads has the type the {@link Expansion} interface gives it, so that a module-shaped object
 * with a wrong member (`requires: 5`, `validate: 'no'`, `tiles: 'abc'`) is refused with a clear
 * message instead of a TypeError from deep inside the compiler or, later, from `applyMove`.
 */
import type { Expansion } from './core/expansion.js';

type Check = (v: unknown) => string | null;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const fn: Check = (v) => (typeof v === 'function' ? null : 'a function');
const str: Check = (v) => (typeof v === 'string' && v.length > 0 && v.length <= 100 ? null : 'a non-empty string');
const strings: Check = (v) => (Array.isArray(v) && v.length <= 100 && v.every((x) => str(x) === null) ? null : 'a list of strings');
const int = (lo: number, hi: number): Check => (v) => (Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi ? null : `an integer from ${lo} to ${hi}`);
const oneOf = (...values: readonly unknown[]): Check => (v) => (values.includes(v) ? null : `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`);
const record = (members: Readonly<Record<string, Check>>, required: readonly string[]): Check => (v) => {
  if (!isRecord(v)) return 'an object';
  for (const k of required) if (!Object.hasOwn(v, k)) return `an object with '${k}'`;
  for (const [k, check] of Object.entries(members)) {
    if (v[k] === undefined) continue;
    const problem = check(v[k]);
    if (problem !== null) return `an object whose '${k}' is ${problem}`;
  }
  return null;
};
const listOf = (check: Check, max: number): Check => (v) => {
  if (!Array.isArray(v) || v.length > max) return `a list of at most ${max}`;
  for (let i = 0; i < v.length; i++) {
    const problem = check(v[i]);
    if (problem !== null) return `a list whose item ${i} is not ${problem}`;
  }
  return null;
};

const kind = record(
  { name: str, code: (v) => (typeof v === 'string' && /^[a-z]$/.test(v) ? null : 'one lower-case letter'), completion: oneOf('ports', 'surroundings', 'never'), tracksTiles: oneOf(true, false), edgeClass: int(-1, 7), scoring: str },
  ['name', 'code', 'completion', 'tracksTiles', 'edgeClass'],
);
const feature = record({ id: str, kind: str, ports: strings, pennants: int(0, 9), adjacent: strings }, ['id', 'kind', 'ports', 'pennants', 'adjacent']);
const tile = record({ id: str, count: int(0, 1000), features: listOf(feature, 64) }, ['id', 'count', 'features']);
const startTile = record({ tile: str, x: int(-500, 500), y: int(-500, 500), rotation: int(0, 3) }, ['tile', 'x', 'y', 'rotation']);

/** Each member's check. Members not listed are refused: a misspelt hook would otherwise never run. */
const MEMBERS: Readonly<Record<string, Check>> = {
  id: (v) => (typeof v === 'string' && /^[a-z][a-z0-9-]{0,39}$/.test(v) ? null : 'lower-case letters, digits and dashes, starting with a letter (at most 40)'),
  order: (v) => (typeof v === 'number' && Number.isFinite(v) ? null : 'a finite number'),
  options: (v) => (isRecord(v) ? null : 'a plain object of options'),
  requires: strings,
  conflictsWith: strings,
  conflictReasons: (v) => (isRecord(v) && Object.values(v).every((x) => typeof x === 'string') ? null : 'an object of strings'),
  maxPlayers: int(1, 64),
  kinds: listOf(kind, 32),
  deployable: strings,
  tiles: listOf(tile, 1000),
  start: (v) => (Array.isArray(v) ? listOf(startTile, 64)(v) : record({ tile: str, rotation: int(0, 3) }, ['tile', 'rotation'])(v)),
  baseStart: oneOf('bag', 'box'),
  startYields: oneOf(true, false),
  placementByCell: oneOf(true, false),
  finalScoringAddsOnly: oneOf(true, false),
  chance: record({ maxOutcomes: int(1, 1 << 20), conceal: fn, redraw: fn, outcomes: fn, label: fn, apply: fn }, ['maxOutcomes', 'conceal', 'redraw', 'outcomes', 'label', 'apply']),
  observation: record({ features: fn, write: fn }, ['features', 'write']),
  actions: record({ version: int(1, 1 << 20), size: fn, maxMoves: fn, encode: fn, decode: fn, window: (v) => (isRecord(v) ? null : 'an object') }, ['version', 'size', 'maxMoves', 'encode', 'decode']),
};
for (const hook of [
  'validate', 'setup', 'drawFilter', 'placementTiles', 'placementError', 'placementCells', 'moveError', 'afterPlace', 'turnStart', 'deployMoves', 'countDeployMoves', 'drawDeployMove', 'deployAllowed',
  'claimsAction', 'tileFollowers', 'releaseAt', 'afterAction', 'beforeScoring', 'scoringOrder', 'afterScoring', 'beforeTurnEnd', 'nextPlayer',
  'stepMoves', 'play', 'beforeFinalScoring', 'finalScoring', 'followersHeld', 'turnMoves', 'observe', 'viewPart', 'scoreBounds',
]) {
  (MEMBERS as Record<string, Check>)[hook] = fn;
}

/**
 * Why `v` is not an expansion module, or null: the three required members, each member's type,
 * and no member the interface does not know. Reads each member once (getters included).
 */
export function moduleProblem(v: unknown): string | null {
  if (!isRecord(v)) return 'an expansion module is an object (such as kingRobber() from meeplekit/expansions/king-robber)';
  for (const k of ['id', 'order', 'options']) if (!Object.hasOwn(v, k) && !(k in v)) return `an expansion module has '${k}'`;
  const keys = new Set<string>();
  for (let o: object | null = v; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const k of Object.getOwnPropertyNames(o)) if (k !== 'constructor') keys.add(k);
  }
  const present = new Set<string>();
  let start: unknown;
  let yields: unknown;
  for (const k of keys) {
    const check = MEMBERS[k];
    const name = typeof v['id'] === 'string' ? `'${v['id'].slice(0, 40)}'` : 'the module';
    if (check === undefined) return `${name} has a member '${k.slice(0, 40)}' that expansion modules do not have (misspelt hook?)`;
    const value = v[k];
    if (k === 'start') start = value;
    if (k === 'startYields') yields = value;
    if (value === undefined && k !== 'id' && k !== 'order' && k !== 'options') continue;
    present.add(k);
    const problem = check(value);
    if (problem !== null) return `${name}: '${k}' must be ${problem}`;
  }
  // Counting without drawing (or the reverse) would leave a random playout half a contract.
  const count = present.has('countDeployMoves');
  if (count !== present.has('drawDeployMove') || (count && !present.has('deployMoves'))) {
    const name = typeof v['id'] === 'string' ? `'${v['id'].slice(0, 40)}'` : 'the module';
    return `${name}: 'countDeployMoves' and 'drawDeployMove' come together, and only with 'deployMoves'`;
  }
  // Only a one-tile start can be laid by a player at set-up (see Expansion.startYields).
  if (yields === true && !isRecord(start)) return `'${String(v['id'])}': 'startYields' needs a one-tile 'start'`;
  return null;
}

/** Narrows after {@link moduleProblem} said null. */
export function isModule(v: unknown): v is Expansion {
  return moduleProblem(v) === null;
}
