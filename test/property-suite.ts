/**
 * The random-simulation properties (style.md, point 12) as one suite that every ruleset runs:
 * test/properties.test.ts runs it for classic and The Castle, test/properties-small-subsets.test.ts
 * for the subsets of one or two expansions, test/properties-combos.test.ts and
 * test/properties-combos-second-half.test.ts for the larger subsets, half each (four files, so that
 * the full tier's two test workers share them evenly).
 *
 * Every playthrough is generated from `{ seed, players, choices }`: move i is
 * `legalMoves[choices[i] % n]`, and once the choices run out the game is finished with the fixed
 * rule "always the first legal move". Every run therefore reaches game over, and a failing case
 * shrinks towards the empty seed, fewer players and fewer, smaller choices.
 * No `Math.random` anywhere: all randomness comes from fast-check or from seeded sources.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  cellKey,
  createRandomSource,
  createSimulator,
  featureAt,
  isLegal,
  keyX,
  keyY,
  legalMoves,
  makeReplay,
  newGame,
  observe,
  offBoardFollowers,
  parseState,
  replay,
  serializeState,
  tileDefs,
  undo,
  whyIllegal,
  type GameEvent,
  type GameState,
  type Move,
  type PlacedTile,
  type Simulator,
} from '../src/index.js';
import { byDepth, FULL } from './depth.js';
import { canon } from './helpers.js';
import { createRuleset, type Ruleset } from '../src/index.js';
import { CLI_EXPANSIONS } from '../src/cli/expansions.js';


/** How hard to test a ruleset: property runs are scaled, complete games counted per player count. */
export interface Scale {
  /** Multiplier of each property's number of runs. */
  readonly runs: number;
  /** Complete random games per player count. */
  readonly games: number;
  /** Player counts of the complete games. */
  readonly players: readonly number[];
}

/** The same properties for any ruleset (style.md point 12: every ruleset passes them). */
export function propertySuite(rules: Ruleset, scale: Scale): void {
  // At least two runs of each property (one in the fast tier, test/depth.ts).
  const runs = (n: number): number => Math.max(byDepth(2, 1), Math.round(n * scale.runs));
  const FOLLOWERS = rules.followers;
  const TILE_COUNT = rules.tileCount;
  /** Start tiles that never were in the bag (The Castle's start fields, laid outside the wall). */
  const VIRTUAL_STARTS = rules.start.filter((st) => rules.tiles[rules.tileIndex[st.tile]!]!.def.count === 0).length;

  // ---------------------------------------------------------------------------------------------
  // Playthroughs

  interface Plan {
    seed: string;
    players: number;
    choices: number[];
  }

  /** A game has at most one placement and one deploy decision per tile. */
  const MAX_CHOICES = 2 * TILE_COUNT + 8;

  const planArb: fc.Arbitrary<Plan> = fc.record({
    seed: fc.string(),
    players: fc.integer({ min: rules.minPlayers, max: Math.min(5, rules.maxPlayers) }),
    choices: fc.array(fc.nat(), { maxLength: MAX_CHOICES }),
  });

  /** Index of the move to play at decision `i` among `n` legal moves. */
  function choose(plan: Plan, i: number, n: number): number {
    return i < plan.choices.length ? plan.choices[i]! % n : 0;
  }

  function start(plan: Pick<Plan, 'seed' | 'players'>): GameState {
    const g = newGame(rules, { players: plan.players, seed: plan.seed });
    if (!g.ok) throw new Error(`newGame failed: ${g.error.code} ${g.error.message}`);
    return g.value;
  }

  function simulator(state: GameState, events: boolean): Simulator {
    const sim = createSimulator(rules, state, { events });
    if (!sim.ok) throw new Error(sim.error.message);
    return sim.value;
  }

  /** A game played through `applyMove`: `states[i + 1]` is the state after `moves[i]`. */
  interface Playthrough {
    readonly states: GameState[];
    readonly moves: Move[];
    readonly events: (readonly GameEvent[])[];
  }

  /**
   * Plays `plan` to game over through the immutable API. `each` sees every decision before the
   * move is applied (the state, its legal moves, the chosen move and the decision's index).
   */
  function playthrough(plan: Plan, each?: (state: GameState, legal: Move[], move: Move, i: number) => void): Playthrough {
    let state = start(plan);
    const out: Playthrough = { states: [state], moves: [], events: [] };
    for (let i = 0; state.step.kind !== 'game-over'; i++) {
      if (i > 1000) throw new Error('the game does not end');
      const legal = legalMoves(rules, state);
      if (legal.length === 0) throw new Error(`no legal move at decision ${i} (step ${state.step.kind})`);
      const move = legal[choose(plan, i, legal.length)]!;
      each?.(state, legal, move, i);
      const r = applyMove(rules, state, move);
      if (!r.ok) throw new Error(`legal move ${JSON.stringify(move)} refused: ${r.error.code}: ${r.error.message}`);
      state = r.value.state;
      out.states.push(state);
      out.moves.push(move);
      out.events.push(r.value.events);
    }
    return out;
  }

  /** The decisions worth the expensive checks (replays, undo): a spread of them, the cut point and the end. */
  function sampled(plan: Plan, total: number): number[] {
    const out = new Set<number>([0, 1, total, Math.min(plan.choices.length, total)]);
    for (let i = 7; i < total; i += 23) out.add(i);
    return [...out].filter((i) => i >= 0 && i <= total).sort((a, b) => a - b);
  }

  // ---------------------------------------------------------------------------------------------
  // Comparisons and invariants

  /** A cheap assertion for hot loops (vitest's `expect` costs microseconds per call). */
  function check(condition: boolean, message: () => string): void {
    if (!condition) throw new Error(message());
  }

  /** Deep equality of JSON-like values: same own keys (in any order), `===` on primitives. */
  function jsonEqual(a: unknown, b: unknown): boolean {
    if (a === b) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const ka = Object.keys(ra);
    if (ka.length !== Object.keys(rb).length) return false;
    for (const k of ka) if (!Object.hasOwn(rb, k) || !jsonEqual(ra[k], rb[k])) return false;
    return true;
  }

  function isDeepFrozen(v: unknown): boolean {
    if (typeof v !== 'object' || v === null) return true;
    if (!Object.isFrozen(v)) return false;
    for (const x of Object.values(v)) if (!isDeepFrozen(x)) return false;
    return true;
  }

  /** Paths of the frozen objects inside `v` (a Simulator's state shares frozen records with its source). */
  function frozenPaths(v: unknown, path = '$', out: string[] = []): string[] {
    if (typeof v !== 'object' || v === null) return out;
    if (Object.isFrozen(v)) out.push(path);
    for (const [k, x] of Object.entries(v)) frozenPaths(x, `${path}.${k}`, out);
    return out;
  }

  function scoredTotals(players: number, events: readonly GameEvent[]): number[] {
    const totals = new Array<number>(players).fill(0);
    for (const e of events) if (e.type === 'scored') totals[e.player]! += e.points;
    return totals;
  }

  /** Feature ids per tile kind, in local order. */
  const FEATURE_IDS = new Map<string, string[]>(tileDefs(rules).map((d) => [d.id, d.features.map((f) => f.id)]));

  /**
   * Every follower is either in supply or on the board; and, through the public query, each
   * follower on the board is listed on the feature it stands on, and no feature holds more.
   */
  function checkFollowers(state: GameState, deep = false): void {
    const held = offBoardFollowers(rules, state);
    for (let p = 0; p < state.players; p++) {
      const onBoard = state.followers.filter((f) => f.player === p).length;
      expect(state.supply[p]! + onBoard + held[p]!, `player ${p}: supply ${state.supply[p]} + board ${onBoard} + off the board ${held[p]}`).toBe(FOLLOWERS);
      expect(state.supply[p]).toBeGreaterThanOrEqual(0);
    }
    // Between turns, no follower stands on a completed feature: everything completed was scored
    // and its followers came home (during a turn, scoring may be paused for a decision).
    if (state.step.kind === 'place-tile' || state.step.kind === 'game-over') {
      for (const f of state.followers) {
        const t = state.tiles[f.tile]!;
        const info = featureAt(rules, state, { x: t.x, y: t.y, feature: FEATURE_IDS.get(t.id)![f.local]! });
        if (!info.ok) throw new Error(info.error.message);
        const kind = rules.kinds.find((k) => k.name === info.value.kind)!;
        if (kind.completion !== 'never') expect(info.value.complete, `a follower stands on a completed ${info.value.kind} at ${t.x},${t.y}`).toBe(false);
      }
    }
    if (!deep) return;
    for (const f of state.followers) {
      const t = state.tiles[f.tile]!;
      const feature = FEATURE_IDS.get(t.id)![f.local]!;
      const info = featureAt(rules, state, { x: t.x, y: t.y, feature });
      if (!info.ok) throw new Error(`featureAt(${t.x},${t.y},${feature}): ${info.error.message}`);
      expect(info.value.followers).toContainEqual({ player: f.player, x: t.x, y: t.y, feature });
      const onIt = state.followers.filter((g) => {
        const u = state.tiles[g.tile]!;
        return info.value.followers.some((h) => h.x === u.x && h.y === u.y && h.feature === FEATURE_IDS.get(u.id)![g.local]);
      });
      expect(info.value.followers.length).toBe(onIt.length);
      expect(info.value.counts.reduce((a, b) => a + b, 0)).toBe(onIt.length);
    }
  }

  /** Tile index by cell, built from the placed tiles alone (not from the state's own lookup tables). */
  function cellMap(state: GameState): Map<number, number> {
    const map = new Map<number, number>();
    state.tiles.forEach((t, i) => {
      if (map.has(cellKey(t.x, t.y))) throw new Error(`two tiles on ${t.x},${t.y}`);
      map.set(cellKey(t.x, t.y), i);
    });
    return map;
  }

  /**
   * Empty cells next to a placed tile, ascending by cell key. On a bounded board (The Castle) only
   * cells of the play area, and a start tile only counts by its start-field side (not by wall).
   */
  function frontierOf(state: GameState): number[] {
    const cells = cellMap(state);
    const out = new Set<number>();
    for (const t of state.tiles) {
      SIDE_STEP.forEach(([dx, dy], side) => {
        const key = cellKey(t.x + dx, t.y + dy);
        if (cells.has(key)) return;
        if (rules.inside !== null && !rules.inside(key)) return;
        if (boardPortKind(t, side * 3 + 1) === 'wall') return;
        out.add(key);
      });
    }
    return [...out].sort((a, b) => a - b);
  }

  /** Ports N1..W3, indexed 0..11 (written out here rather than imported: the test states the convention). */
  const PORT_NAMES: readonly string[] = ['N1', 'N2', 'N3', 'E1', 'E2', 'E3', 'S1', 'S2', 'S3', 'W1', 'W2', 'W3'];

  /** Feature kind of each printed port (N1..W3) per tile kind. */
  const PORT_KINDS = new Map<string, string[]>(
    tileDefs(rules).map((d) => {
      const kinds = new Array<string>(12).fill('?');
      for (const f of d.features) for (const p of f.ports) kinds[PORT_NAMES.indexOf(p)] = f.kind;
      return [d.id, kinds];
    }),
  );

  /** Board port q of a placed tile comes from printed port p with (p + 3r) % 12 === q. */
  function boardPortKind(t: PlacedTile, q: number): string {
    const p = (((q - 3 * t.rotation) % 12) + 12) % 12;
    return PORT_KINDS.get(t.id)![p]!;
  }

  /** The neighbour's board port that board port q meets across the shared edge. */
  function facingPort(q: number): number {
    const side = Math.floor(q / 3);
    return ((side + 2) % 4) * 3 + (2 - (q % 3));
  }

  const SIDE_STEP = [
    [0, -1],
    [1, 0],
    [0, 1],
    [-1, 0],
  ] as const;

  /**
   * Placed tiles match on every edge; every tile after the start tiles touches an earlier one
   * (a start tile by its start-field side). The Castle matches paths only: a path's middle port
   * meets a path, anything else meets anything but a path, and the wall meets anything.
   */
  function checkBoard(state: GameState): void {
    const cells = cellMap(state);
    const bounded = rules.inside !== null;
    state.tiles.forEach((t, i) => {
      if (bounded) expect(t.player < 0 || rules.inside!(cellKey(t.x, t.y)), `${t.id}@${t.x},${t.y} lies in the play area`).toBe(true);
      let earlierNeighbour = t.player < 0;
      for (let side = 0; side < 4; side++) {
        const [dx, dy] = SIDE_STEP[side]!;
        const n = cells.get(cellKey(t.x + dx, t.y + dy));
        if (n === undefined) continue;
        const other = state.tiles[n]!;
        const mid = side * 3 + 1;
        const mine = boardPortKind(t, mid);
        const theirs = boardPortKind(other, facingPort(mid));
        if (n < i && theirs !== 'wall') earlierNeighbour = true;
        if (bounded) {
          if (mine !== 'wall' && theirs !== 'wall') expect(mine === 'path', `${t.id}@${t.x},${t.y} side ${side}: paths match`).toBe(theirs === 'path');
          continue;
        }
        expect(mine, `${t.id}@${t.x},${t.y} r${t.rotation} meets ${other.id}@${other.x},${other.y} r${other.rotation} on side ${side}`).toBe(theirs);
        if (mine === 'city' || theirs === 'city') {
          for (let k = 0; k < 3; k++) {
            const q = side * 3 + k;
            expect([boardPortKind(t, q), boardPortKind(other, facingPort(q))], `city edge port ${q} of ${t.id}@${t.x},${t.y}`).toEqual(['city', 'city']);
          }
        }
      }
      expect(earlierNeighbour, `tile ${i} touches an earlier tile`).toBe(true);
    });
  }

  function checkGameOver(state: GameState, events: readonly GameEvent[]): void {
    const step = state.step;
    expect(step.kind).toBe('game-over');
    if (step.kind !== 'game-over') return;
    expect(state.bag.every((n) => n === 0), 'bag empty').toBe(true);
    expect(state.tiles.length - VIRTUAL_STARTS + state.discarded.reduce((a, b) => a + b, 0)).toBe(TILE_COUNT);
    for (const s of state.scores) expect(s).toBeGreaterThanOrEqual(0);
    const best = Math.max(...state.scores);
    expect([...step.winners]).toEqual(state.scores.flatMap((s, p) => (s === best ? [p] : [])));
    checkFollowers(state, true);
    expect(scoredTotals(state.players, events)).toEqual(state.scores);
    const last = events[events.length - 1];
    expect(last).toEqual({ type: 'game-ended', scores: state.scores, winners: step.winners });
  }

  // ---------------------------------------------------------------------------------------------
  // Candidate moves for the isLegal <=> legalMoves check

  const ODD_VALUES: readonly unknown[] = [null, undefined, '0', '1', 1.5, -1, 4, NaN, Infinity, true, [], {}, 2 ** 53, -0];
  const ODD_FEATURES = ['', 'c9', 'r0', 'x1', 'C1', 'toString', '__proto__', 'constructor', 'hasOwnProperty', 'c1 '];

  function withField(m: Move, key: string, value: unknown): Record<string, unknown> {
    return { ...m, [key]: value };
  }

  function without(m: Move, key: string): Record<string, unknown> {
    const copy: Record<string, unknown> = { ...m };
    delete copy[key];
    return copy;
  }

  /** Mutations of legal moves at `state`: other cells, rotations, features, players and types. */
  function candidates(state: GameState, legal: readonly Move[], move: Move): unknown[] {
    const step = state.step;
    if (step.kind === 'game-over') return [];
    const player = step.player;
    const frontier = frontierOf(state);
    const out: unknown[] = [];
    const players = [...Array(state.players + 2).keys()].map((p) => p - 1);
    for (const base of [move, legal[0]!, legal[legal.length - 1]!]) {
      for (const p of players) out.push(withField(base, 'player', p));
      for (const key of Object.keys(base)) {
        out.push(without(base, key));
        for (const v of ODD_VALUES) out.push(withField(base, key, v));
      }
      out.push(withField(base, 'extra', 1), { ...base, feature: 'c1' }, { ...base, x: 0, y: 0, rotation: 0 });
      for (const type of ['place', 'deploy', 'pass', 'PLACE', 'undo', '']) out.push(withField(base, 'type', type));
    }
    out.push({ type: 'pass', player }, { type: 'place', player, x: 0, y: 0, rotation: 0 });
    if (step.kind === 'place-tile') {
      const cells: [number, number][] = [];
      for (const key of frontier) cells.push([keyX(key), keyY(key)]);
      if (move.type === 'place') {
        for (let dx = -2; dx <= 2; dx++) for (let dy = -2; dy <= 2; dy++) cells.push([move.x + dx, move.y + dy]);
      }
      for (const t of state.tiles.slice(-3)) cells.push([t.x, t.y]);
      cells.push([510, 0], [0, -510], [511, 0], [-511, 0], [0, 512], [1023, -1], [-1024, 1], [1e9, 0], [0, -(2 ** 40)], [2 ** 53, 2 ** 53]);
      for (const [x, y] of cells) for (let r = 0; r < 4; r++) out.push({ type: 'place', player, x, y, rotation: r });
    } else {
      const placed = state.tiles[state.tiles.length - 1]!;
      const ids = tileDefs(rules)
        .find((d) => d.id === placed.id)!
        .features.map((f) => f.id);
      for (const feature of [...ids, ...ODD_FEATURES]) {
        for (const p of [player, (player + 1) % state.players]) out.push({ type: 'deploy', player: p, feature });
      }
      for (const key of frontier.slice(0, 4)) out.push({ type: 'place', player, x: keyX(key), y: keyY(key), rotation: 0 });
    }
    return out;
  }

  /** A random change of a legal move, chosen by fast-check (so it shrinks). */
  interface Mutation {
    readonly at: number;
    readonly base: number;
    readonly key: string;
    readonly op: 'set' | 'add' | 'delete';
    readonly value: unknown;
  }

  const mutationArb: fc.Arbitrary<Mutation> = fc.record({
    at: fc.nat({ max: MAX_CHOICES }),
    base: fc.nat(),
    key: fc.constantFrom('type', 'player', 'x', 'y', 'rotation', 'feature', 'extra'),
    op: fc.constantFrom('set', 'add', 'delete'),
    value: fc.oneof(
      fc.integer({ min: -3, max: 3 }),
      fc.constantFrom<unknown>('place', 'deploy', 'pass', 'c1', 'r1', 'f1', 'f2', 'm1', 'c2'),
      fc.jsonValue(),
    ),
  });

  function mutate(legal: readonly Move[], m: Mutation): unknown {
    const base: Record<string, unknown> = { ...legal[m.base % legal.length]! };
    if (m.op === 'delete') delete base[m.key];
    else if (m.op === 'add' && typeof base[m.key] === 'number' && typeof m.value === 'number') base[m.key] = (base[m.key] as number) + m.value;
    else base[m.key] = m.value;
    return base;
  }

  function checkAgreement(state: GameState, legal: ReadonlySet<string>, candidate: unknown): void {
    const expected = legal.has(canon(candidate));
    const got = isLegal(rules, state, candidate);
    if (got !== expected) {
      throw new Error(`isLegal(${JSON.stringify(candidate)}) is ${got} but the move is ${expected ? '' : 'not '}in legalMoves (step ${JSON.stringify(state.step)})`);
    }
    const why = whyIllegal(rules, state, candidate);
    if ((why === null) !== expected) throw new Error(`whyIllegal(${JSON.stringify(candidate)}) is ${JSON.stringify(why)}, isLegal ${got}`);
    if (why !== null && (typeof why.message !== 'string' || why.message.length === 0)) throw new Error('empty message');
  }

  /**
   * Canonical order: placements by cell key then rotation; deployments by feature order, then the
   * expansions' moves (a tower piece; the moves of the whole turn, such as a ransom), then pass.
   * A place-tile step lists only placements, then the moves of the whole turn.
   */
  function checkCanonical(state: GameState, legal: readonly Move[]): void {
    const step = state.step;
    check(step.kind !== 'game-over' && legal.every((m) => m.player === step.player), () => 'every legal move is by the deciding player');
    if (step.kind === 'place-tile') {
      const frontier = new Set(frontierOf(state));
      let last = -1;
      let aside = false;
      for (const m of legal) {
        if (m.type.includes('/')) aside = true;
        check(m.type === 'place' ? !aside : aside, () => `${JSON.stringify(m)} at a place-tile step (placements, then expansion moves)`);
        if (m.type !== 'place') continue;
        check(frontier.has(cellKey(m.x, m.y)), () => `${m.x},${m.y} is not an empty cell next to a tile`);
        const key = cellKey(m.x, m.y) * 4 + m.rotation;
        check(key > last, () => `placements out of canonical order at ${JSON.stringify(m)}`);
        last = key;
      }
    } else if (step.kind === 'deploy') {
      // Pass comes last, when it is offered (an expansion's forced claim on the action withdraws it).
      const passes = legal.filter((m) => m.type === 'pass').length;
      check(passes === 0 || (passes === 1 && legal[legal.length - 1]!.type === 'pass'), () => 'pass comes last');
      const placed = state.tiles[state.tiles.length - 1]!;
      const order = FEATURE_IDS.get(placed.id)!;
      let last = -1;
      let aside = false;
      for (const m of legal.slice(0, passes === 0 ? legal.length : -1)) {
        if (m.type !== 'deploy') {
          check(m.type.includes('/'), () => `${JSON.stringify(m)} at a deploy step`);
          aside = true;
          continue;
        }
        const at = order.indexOf(m.feature);
        check(!aside && at > last, () => `deployments out of canonical order at ${JSON.stringify(m)}`);
        last = at;
      }
    }
  }

  /**
   * Changes every object reachable from `events` (every primitive field and element replaced,
   * a key added to every record, an element pushed on every array). An object that cannot be
   * changed is frozen: a part of a state, since events are built fresh (the message says where).
   */
  function mutateEvents(events: readonly GameEvent[], where: string): void {
    const objects: [object, string][] = [];
    const collect = (v: unknown, path: string): void => {
      if (typeof v !== 'object' || v === null) return;
      objects.push([v, path]);
      for (const [k, x] of Object.entries(v)) collect(x, `${path}.${k}`);
    };
    events.forEach((e, i) => collect(e, `${where} event ${i} (${e.type})`));
    const other = (x: unknown): unknown => (typeof x === 'number' ? x + 12345 : typeof x === 'string' ? `${x}!` : typeof x === 'boolean' ? !x : x === null ? 0 : x);
    for (const [o, path] of objects) {
      check(!Object.isFrozen(o), () => `${path} is frozen: it is part of a state`);
      const r = o as Record<string, unknown>;
      for (const k of Object.keys(r)) r[k] = other(r[k]);
      if (Array.isArray(o)) o.push('mutated');
      else r['mutated'] = true;
    }
  }

  // ---------------------------------------------------------------------------------------------

  /** fast-check settings: a fixed seed would hide new cases; the run count keeps the file fast. */
  const RUNS = { numRuns: runs(25) } as const;

  describe(`random-simulation properties (${rules.id})`, () => {
    test('(a) every generated move is legal and applies; isLegal agrees with legalMoves', () => {
      fc.assert(
        fc.property(planArb, fc.array(mutationArb, { maxLength: 40 }), (plan, mutations) => {
          const { states } = playthrough(plan, (state, legal, move, i) => {
            check(isLegal(rules, state, move), () => `generated move ${JSON.stringify(move)} is not legal`);
            check(whyIllegal(rules, state, move) === null, () => `whyIllegal(${JSON.stringify(move)}) is not null`);
            checkCanonical(state, legal);
            const keys = new Set(legal.map(canon));
            check(keys.size === legal.length, () => 'legalMoves has duplicates');
            for (const l of legal) checkAgreement(state, keys, l);
            for (const c of candidates(state, legal, move)) checkAgreement(state, keys, c);
            for (const m of mutations) {
              if (m.at !== i) continue;
              const c = mutate(legal, m);
              checkAgreement(state, keys, c);
              check(keys.has(canon(c)) === legal.some((l) => jsonEqual(l, c)), () => `canon and jsonEqual disagree on ${JSON.stringify(c)}`);
            }
          });
          const end = states[states.length - 1]!;
          expect(legalMoves(rules, end)).toEqual([]);
          expect(isLegal(rules, end, { type: 'pass', player: 0 })).toBe(false);
          expect(whyIllegal(rules, end, { type: 'pass', player: 0 })?.code).toBe('move/game-over');
        }),
        RUNS,
      );
    });

    test('(b) the immer path equals the Simulator path: same states, byte for byte, and same events', () => {
      fc.assert(
        fc.property(planArb, (plan) => {
          const { states, moves, events } = playthrough(plan);
          const withEvents = simulator(states[0]!, true);
          const quiet = simulator(states[0]!, false);
          const cut = Math.min(plan.choices.length, moves.length);
          let branch: Simulator | null = null;
          for (let i = 0; i < moves.length; i++) {
            if (i === cut) branch = simulator(states[i]!, true);
            for (const sim of [withEvents, quiet, branch]) {
              if (sim === null) continue;
              const r = sim.play(moves[i]);
              expect(r.ok).toBe(true);
              expect(serializeState(sim.state)).toBe(serializeState(states[i + 1]!));
            }
            expect(withEvents.takeEvents()).toEqual(events[i]);
            if (branch !== null) expect(branch.takeEvents()).toEqual(events[i]);
            expect(quiet.takeEvents()).toEqual([]);
          }
          const snap = withEvents.snapshot();
          expect(isDeepFrozen(snap)).toBe(true);
          expect(JSON.stringify(snap)).toBe(JSON.stringify(states[states.length - 1]));
          expect(withEvents.isOver()).toBe(true);
          expect(withEvents.scores()).toEqual(states[states.length - 1]!.scores);
        }),
        RUNS,
      );
    });

    test('(c) applyMove leaves its input untouched; states are deeply frozen', () => {
      fc.assert(
        fc.property(planArb, (plan) => {
          const before: string[] = [];
          const { states } = playthrough(plan, (state) => {
            before.push(JSON.stringify(state));
          });
          expect(isDeepFrozen(states[0])).toBe(true);
          for (let i = 0; i < states.length - 1; i++) {
            // Each input, long after it was used, still reads exactly as it did before its move.
            expect(JSON.stringify(states[i])).toBe(before[i]);
            expect(isDeepFrozen(states[i + 1]), `state after move ${i}`).toBe(true);
            // Structural sharing: every array of the state and of the feature graph that the
            // move left equal is the input's own object, not a copy.
            const prev = states[i] as unknown as Record<string, unknown>;
            const next = states[i + 1] as unknown as Record<string, unknown>;
            const pg = states[i]!.features as unknown as Record<string, unknown>;
            const ng = states[i + 1]!.features as unknown as Record<string, unknown>;
            for (const [from, to, at] of [[prev, next, '$'], [pg, ng, '$.features']] as const) {
              for (const [k, v] of Object.entries(to)) {
                if (Array.isArray(v) && jsonEqual(v, from[k])) expect(v, `${at}.${k} after move ${i}`).toBe(from[k]);
              }
            }
          }
        }),
        RUNS,
      );
    });

    test('(c) applyMove on an unfrozen state (Simulator.state, a JSON copy) neither changes nor freezes it', () => {
      fc.assert(
        fc.property(planArb, (plan) => {
          const sim = simulator(start(plan), false);
          for (let i = 0; !sim.isOver(); i++) {
            const legal = sim.legalMoves();
            const move = legal[choose(plan, i, legal.length)]!;
            const live = sim.state as GameState;
            const text = JSON.stringify(live);
            const copy = JSON.parse(text) as GameState;
            for (const input of [live, copy]) {
              const frozen = frozenPaths(input);
              const r = applyMove(rules, input, move);
              expect(r.ok).toBe(true);
              expect(isDeepFrozen(r.ok && r.value.state)).toBe(true);
              expect(JSON.stringify(input)).toBe(text);
              expect(frozenPaths(input), `applyMove froze part of its input at move ${i}`).toEqual(frozen);
            }
            expect(sim.play(move).ok).toBe(true);
          }
        }),
        { numRuns: runs(10) },
      );
    });

    test('(d) serializeState/parseState and makeReplay/replay round-trip; same seed and moves, same JSON', () => {
      fc.assert(
        fc.property(planArb, (plan) => {
          const game = playthrough(plan);
          const { states, moves } = game;
          for (const i of sampled(plan, moves.length)) {
            const state = states[i]!;
            const text = serializeState(state);
            const parsed = parseState(rules, text);
            if (!parsed.ok) throw new Error(`parseState refused its own output at ${i}: ${parsed.error.code} ${parsed.error.message}`);
            expect(serializeState(parsed.value)).toBe(text);
            expect(parsed.value).toEqual(state);
            expect(isDeepFrozen(parsed.value)).toBe(true);
            const fromObject = parseState(rules, JSON.parse(text));
            expect(fromObject.ok && serializeState(fromObject.value)).toBe(text);

            const rp = makeReplay(rules, state);
            const back = replay(rules, JSON.stringify(rp));
            if (!back.ok) throw new Error(`replay refused makeReplay output at ${i}: ${back.error.code} ${back.error.message}`);
            expect(serializeState(back.value.state)).toBe(text);
            expect(back.value.events).toEqual(game.events.slice(0, i).flat());
            const backObject = replay(rules, rp);
            expect(backObject.ok && serializeState(backObject.value.state)).toBe(text);
          }
          // Determinism: a second run of the same seed and moves gives the same JSON at every step.
          const again = playthrough(plan);
          expect(again.states.map((s) => JSON.stringify(s))).toEqual(states.map((s) => JSON.stringify(s)));
          expect(again.events).toEqual(game.events);
        }),
        { numRuns: runs(15) },
      );
    });

    test('(e) followers are conserved: supply + followers on the board (+ off the board) = the game\'s followers (7 classic, 6 The Castle) for every player, at every step', () => {
      fc.assert(
        fc.property(planArb, (plan) => {
          const { states } = playthrough(plan);
          states.forEach((s, i) => checkFollowers(s, i % 5 === 0 || i === states.length - 1));
        }),
        RUNS,
      );
    });

    test("(f) each player's score equals the sum of their scored events, at every step", () => {
      fc.assert(
        fc.property(planArb, (plan) => {
          const { states, events } = playthrough(plan);
          const all: GameEvent[] = [];
          states.forEach((s, i) => {
            if (i > 0) all.push(...events[i - 1]!);
            expect(scoredTotals(s.players, all), `after move ${i - 1}`).toEqual(s.scores);
          });
          checkGameOver(states[states.length - 1]!, all);
        }),
        RUNS,
      );
    });

    test('(g) placed tiles match on every edge', () => {
      fc.assert(
        fc.property(planArb, (plan) => {
          const { states } = playthrough(plan);
          checkBoard(states[Math.min(plan.choices.length, states.length - 1)]!);
          checkBoard(states[states.length - 1]!);
        }),
        RUNS,
      );
    });

    test('(h) Simulator.playRandom picks legalMoves[random(n)]; clone is independent; playout is deterministic', () => {
      fc.assert(
        fc.property(planArb, (plan) => {
          const sim = simulator(start(plan), true);
          for (let i = 0; i < plan.choices.length && !sim.isOver(); i++) {
            const legal = sim.legalMoves();
            expect(sim.play(legal[choose(plan, i, legal.length)]).ok).toBe(true);
          }
          sim.takeEvents();
          const cut = serializeState(sim.state);
          const clone = sim.clone();
          const other = sim.clone();
          const played = createRandomSource(`${plan.seed}/h`);
          const twin = createRandomSource(`${plan.seed}/h`);
          while (!sim.isOver()) {
            const legal = sim.legalMoves();
            expect(legal).toEqual(legalMoves(rules, sim.state));
            expect(sim.countMoves()).toBe(legal.length);
            legal.forEach((m, k) => expect(sim.nthMove(k)).toEqual(m));
            const expected = legal[twin(legal.length)]!;
            expect(sim.playRandom(played)).toEqual(expected);
            expect(sim.state.moves[sim.state.moves.length - 1]).toEqual(expected);
          }
          const end = serializeState(sim.state);
          // The clones did not move while the original played...
          expect(serializeState(clone.state)).toBe(cut);
          expect(clone.takeEvents()).toEqual([]);
          // ...and playouts of two clones with the same random stream reach the same end (playouts
          // sample placements by rejection: uniform, deterministic, not playRandom's moves) without
          // touching the original.
          const again = clone.clone();
          const scores = clone.playout(createRandomSource(`${plan.seed}/h`));
          expect(again.playout(createRandomSource(`${plan.seed}/h`))).toEqual(scores);
          expect(serializeState(again.state)).toBe(serializeState(clone.state));
          expect(clone.isOver()).toBe(true);
          expect(serializeState(sim.state)).toBe(end);
          expect(serializeState(other.state)).toBe(cut);
          // playout with a chooser goes through the same canonical order as nthMove.
          const first = other.clone();
          other.playout(createRandomSource('unused'), () => 0);
          while (!first.isOver()) first.play(first.nthMove(0));
          expect(serializeState(other.state)).toBe(serializeState(first.state));
        }),
        { numRuns: runs(60) },
      );
    });

    test('(i) undo returns the state before the last moves; observe drops exactly seed and rng', () => {
      fc.assert(
        fc.property(planArb, (plan) => {
          const { states, moves } = playthrough(plan);
          for (const i of sampled(plan, moves.length)) {
            if (i === 0) {
              expect(undo(rules, states[0]!, 1).ok).toBe(false);
              continue;
            }
            const one = undo(rules, states[i]!, 1);
            if (!one.ok) throw new Error(`undo failed at ${i}: ${one.error.message}`);
            expect(serializeState(one.value)).toBe(serializeState(states[i - 1]!));
            expect(isDeepFrozen(one.value)).toBe(true);
            const count = 1 + ((plan.choices[i % Math.max(1, plan.choices.length)] ?? 0) % i);
            const many = undo(rules, states[i]!, count);
            expect(many.ok && serializeState(many.value)).toBe(serializeState(states[i - count]!));
          }
          states.forEach((s, i) => {
            const viewers: (number | null)[] = i % 10 === 0 ? [null, ...Array(s.players).keys()] : [s.step.kind === 'game-over' ? null : s.step.player];
            for (const viewer of viewers) {
              const view = observe(rules, s, viewer);
              const text = JSON.stringify(view);
              expect(text).not.toMatch(/"(seed|rng)":/);
              const { seed: _seed, rng: _rng, ...visible } = JSON.parse(JSON.stringify(s)) as GameState;
              // The Castle: face-down wall tokens show as -1 to everyone (nothing else is hidden).
              const castle = visible.ext['castle'] as { wall: number[] } | undefined;
              if (castle !== undefined) castle.wall = castle.wall.map((t) => (t === 0 ? 0 : -1));
              expect(view).toEqual({ ...visible, viewer });
            }
          });
        }),
        RUNS,
      );
    });

    test('(j) events share no object with the state: changing everything reachable from them changes no state (applyMove and the Simulator)', () => {
      fc.assert(
        fc.property(planArb, (plan) => {
          const { states, events } = playthrough(plan);
          for (let i = 0; i < events.length; i++) {
            const before = JSON.stringify(states[i + 1]);
            mutateEvents(events[i]!, `move ${i}`);
            check(JSON.stringify(states[i + 1]) === before, () => `changing the events of move ${i} changed the state`);
          }
          const sim = simulator(start(plan), true);
          for (let i = 0; !sim.isOver(); i++) {
            const legal = sim.legalMoves();
            expect(sim.play(legal[choose(plan, i, legal.length)]).ok).toBe(true);
            const before = JSON.stringify(sim.state);
            mutateEvents(sim.takeEvents(), `Simulator move ${i}`);
            check(JSON.stringify(sim.state) === before, () => `changing the Simulator's events of move ${i} changed its state`);
          }
        }),
        { numRuns: runs(10) },
      );
    });
  });

  describe.each(scale.players)(`${scale.games} complete random games of ${rules.id} with %i players (Simulator)`, (players) => {
    test('end in a consistent game-over state', () => {
      for (let i = 0; i < scale.games; i++) {
        const seed = `games-${rules.id}-${players}-${i}`;
        const sim = simulator(start({ seed, players }), true);
        const random = createRandomSource(seed);
        let moves = 0;
        while (!sim.isOver()) {
          sim.playRandom(random);
          if (++moves > 1000) throw new Error(`${seed}: the game does not end`);
        }
        const state = sim.snapshot();
        try {
          checkGameOver(state, sim.takeEvents());
        } catch (e) {
          throw new Error(`${seed}: ${(e as Error).message}`);
        }
      }
    });
  });
}

/**
 * Every non-empty subset of the available expansions (the CLI registry lists them all; a test in
 * package.test.ts keeps it in step with src/expansions/), as `createRuleset` answers it. River
 * sets rotate through I, II and both across subsets.
 */
export function expansionSubsets(): { readonly chosen: readonly string[]; readonly created: ReturnType<typeof createRuleset> }[] {
  const ids = Object.keys(CLI_EXPANSIONS).sort();
  const out: { chosen: string[]; created: ReturnType<typeof createRuleset> }[] = [];
  for (let mask = 1; mask < 1 << ids.length; mask++) {
    const chosen = ids.filter((_, i) => mask & (1 << i));
    const riverSet = (['I', 'II', 'both'] as const)[mask % 3]!;
    out.push({ chosen, created: createRuleset({ game: 'classic', expansions: chosen.map((id) => CLI_EXPANSIONS[id]!({ riverSet })) }) });
  }
  return out;
}

/**
 * The suite, lighter per ruleset, for half of the subsets of three or more expansions (`half` 0:
 * the 1st, 3rd, ... of them in `expansionSubsets`' order; 1: the 2nd, 4th, ...). The fast tier
 * (test/depth.ts) runs only all six expansions together, where every module meets every other (in
 * whichever half holds it).
 */
export function largeSubsetSuites(half: 0 | 1): void {
  const subsets = expansionSubsets();
  const large = subsets.filter(({ chosen, created }) => chosen.length >= 3 && created.ok);
  const all = large.at(-1)!;
  large.forEach(({ chosen, created }, i) => {
    if (i % 2 !== half || !created.ok || (!FULL && chosen.length < all.chosen.length)) return;
    propertySuite(created.value, byDepth({ runs: 0.08, games: 4, players: [2, 4] }, { runs: 0.05, games: 1, players: [2, 4] }));
  });
}
