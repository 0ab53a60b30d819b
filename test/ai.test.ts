/**
 * meeplekit/ai (issue 6): the integer action encoding (bijection with legal moves, masks, split
 * and combined forms, module codecs), explicit chance (probabilities, the app API's distribution),
 * returns and rewards, observation tensors and determinization (nothing hidden leaks).
 * Playthroughs come from `{ seed, players, choices }` (style.md point 12), never `Math.random`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  createRandomSource,
  createRuleset,
  legalMoves,
  newGame,
  observe,
  projectedScores,
  serializeState,
  type Expansion,
  type ExpansionMove,
  type GameState,
  type Move,
  type Ruleset,
} from '../src/index.js';
import {
  actionToMove,
  actionToMoves,
  actionToString,
  applyAction,
  chanceOutcomes,
  createResearchSimulator,
  determinize,
  gameInfo,
  isChanceNode,
  legalActions,
  legalActionsMask,
  moveToAction,
  movesToAction,
  observationSpec,
  writeCompactObservation,
  entitySpec,
  writeEntityObservation,
  type EntityBuffers,
  type EntitySpec,
  type CompactObservationBuffers,
  type ObservationSpec,
  returns,
  rewards,
  writeObservationTensor,
  CHANCE_PLAYER,
  TERMINAL_PLAYER,
  type ActionForm,
  type ResearchSimulator,
} from '../src/ai/index.js';
import { CLI_EXPANSIONS } from '../src/cli/expansions.js';
import { award } from '../src/core/engine/scoring.js';
import { cloneState } from '../src/core/engine/clone.js';
import { playMove } from '../src/core/engine/play.js';
import { seedRng } from '../src/core/rng.js';
import { must } from './helpers.js';
import { castle as castleModule } from '../src/games/castle/entry.js';
import { byDepth, FULL } from './depth.js';

/**
 * A test-only module with moves of its own and an action codec (as in expansion-steps.test.ts):
 * at the deploy step the active player may ring a bell (`toll/bell`); before a completed road is
 * scored, the next player pays 1 point or refuses (`toll/pay`, `toll/refuse`).
 */
function toll(): Expansion {
  const TYPES = ['toll/bell', 'toll/pay', 'toll/refuse'] as const;
  return {
    id: 'toll',
    order: 90,
    options: {},
    setup: () => ({}),
    deployMoves: (_rules, state) => (state.step.kind === 'deploy' ? [{ type: 'toll/bell', player: state.step.player }] : []),
    beforeScoring(ctx, root) {
      if (ctx.rules.kindNames[ctx.state.features.kind[root]!] !== 'road') return;
      ctx.state.step = { kind: 'toll/ask', player: (ctx.state.active + 1) % ctx.state.players };
      return 'wait';
    },
    stepMoves: (_rules, state) => {
      const player = state.step.kind === 'game-over' ? -1 : state.step.player;
      // Listed refuse first: legalActions must still come out ascending.
      return [
        { type: 'toll/refuse', player },
        { type: 'toll/pay', player },
      ];
    },
    play(ctx, move) {
      if (move.type === 'toll/bell') award(ctx, move.player, 1, 'toll/bell', null);
      if (move.type === 'toll/pay') award(ctx, ctx.state.active, 1, 'toll/paid', null);
      return 'done';
    },
    actions: {
      version: 1,
      size: () => TYPES.length,
      maxMoves: () => 200,
      encode: (_rules, _state, move) => TYPES.indexOf(move.type as (typeof TYPES)[number]),
      decode: (_rules, state, id) => {
        const type = TYPES[id];
        if (type === undefined || state.step.kind === 'game-over') return null;
        return { type, player: state.step.player };
      },
    },
  };
}

/** A test-only module with a move at every step of the active player's turn (the Tower's ransom), once per turn. */
function ransom(): Expansion {
  type Slice = { paidInTurn: number };
  return {
    id: 'ransom',
    order: 90,
    options: {},
    setup: (): Slice => ({ paidInTurn: -1 }),
    turnMoves: (_rules, state) => ((state.ext['ransom'] as Slice).paidInTurn === state.turn ? [] : [{ type: 'ransom/pay', player: state.active }]),
    play(ctx, move) {
      (ctx.state.ext['ransom'] as Slice).paidInTurn = ctx.state.turn;
      award(ctx, move.player, 1, 'ransom/paid', null);
      return 'done';
    },
    actions: {
      version: 1,
      size: () => 1,
      maxMoves: () => 100,
      encode: (_rules, _state, move) => (move.type === 'ransom/pay' ? 0 : -1),
      decode: (_rules, state, id) => (id === 0 && state.step.kind !== 'game-over' ? { type: 'ransom/pay', player: state.step.player } : null),
    },
  };
}

/** A module that hides a number from everyone and scores it at the end (a stand-in for hidden tokens). */
function secret(): Expansion {
  return {
    id: 'secret',
    order: 95,
    options: {},
    setup: (_rules, _players, random) => ({ value: random(50) }),
    observe: () => ({ value: -1 }),
    finalScoring(ctx) {
      const v = (ctx.state.ext['secret'] as { value: number }).value;
      if (v > 0) award(ctx, 0, v, 'secret/bonus', null);
    },
  };
}

const ids = Object.keys(CLI_EXPANSIONS).sort();
const subsets: string[][] = [];
for (let mask = 0; mask < 1 << ids.length; mask++) subsets.push(ids.filter((_, i) => mask & (1 << i)));
// Classic and the test module in full; every subset of the available expansions that
// createRuleset accepts (River and the Count are a declared conflict), lighter.
const RULESETS: [string, Ruleset, number][] = [
  ['classic', must(createRuleset({ game: 'classic' })), 1],
  ['classic+toll (a module with its own moves and codec)', must(createRuleset({ game: 'classic', expansions: [toll()] })), 1],
  ['classic+ransom (a module move at every step of the turn)', must(createRuleset({ game: 'classic', expansions: [ransom()] })), 0.5],
];
// The Castle: a bounded board (its window comes from its codec), its own steps and hidden tokens.
/** A state with The Castle's face-down wall tokens concealed, as explicit chance keeps them (other states as they are). */
function concealed<T extends { ext: Record<string, unknown> }>(s: T): T {
  const slice = s.ext['castle'] as { wall: number[] } | undefined;
  if (slice === undefined) return s;
  return { ...s, ext: { ...s.ext, castle: { ...slice, wall: slice.wall.map((t) => (t > 0 ? -1 : t)) } } };
}

const castle = createRuleset({ game: castleModule() } as Parameters<typeof createRuleset>[0]);
if (castle.ok) RULESETS.push(['castle', castle.value, 1]);
// The fast tier (test/depth.ts): all of the expansions together, where every module's codec meets
// every other's (the full tier: every subset).
for (const set of subsets) {
  if (set.length === 0 || (!FULL && set.length !== ids.length)) continue;
  const created = createRuleset({ game: 'classic', expansions: set.map((id) => CLI_EXPANSIONS[id]!({ riverSet: 'both' })) });
  // Lighter for three or more expansions (28 subsets): each module's codec is proven alone and in pairs.
  if (created.ok) RULESETS.push([created.value.id, created.value, set.length <= 2 ? 0.4 : 0.17]);
}

interface Plan {
  seed: string;
  players: number;
  choices: number[];
}
const planArb = (rules: Ruleset): fc.Arbitrary<Plan> =>
  fc.record({
    seed: fc.string({ maxLength: 8 }),
    players: fc.integer({ min: rules.minPlayers, max: Math.min(5, rules.maxPlayers) }),
    choices: fc.array(fc.nat(), { maxLength: 120 }),
  });

/** The action each state of a playthrough was left by (the walker of the simulator's buffer test follows it). */
const playthroughNext = new WeakMap<GameState, number>();

/** The research states of a playthrough (decisions and chance nodes), following the plan's choices, then the first action. */
function* playthrough(rules: Ruleset, plan: Plan, limit = Infinity): Generator<GameState> {
  let s: GameState = must(newGame(rules, { players: plan.players, seed: plan.seed }));
  let i = 0;
  while (s.step.kind !== 'game-over' && i < limit) {
    yield s;
    const legal = legalActions(rules, s);
    const c = i < plan.choices.length ? plan.choices[i]! : 0;
    const a = legal[c % legal.length]!;
    playthroughNext.set(s, a);
    s = applyAction(rules, s, a);
    i++;
  }
  yield s;
}

const key = (m: Move): string => JSON.stringify(m);

function checkEncoding(rules: Ruleset, s: GameState): void {
  const info = gameInfo(rules, s.players);
  const legal = legalActions(rules, s);
  for (let i = 1; i < legal.length; i++) expect(legal[i]).toBeGreaterThan(legal[i - 1]!);
  if (isChanceNode(s)) {
    expect([...legal]).toEqual(chanceOutcomes(rules, s).map((o) => o.outcome));
    for (const a of legal) expect(a).toBeLessThan(info.maxChanceOutcomes);
    return;
  }
  expect([...legal].filter((a) => !(a >= 0 && a < info.numDistinctActions.split))).toEqual([]);
  // The bijection: every legal move has an action, every legal action a move, both ways round.
  const moves = legalMoves(rules, s);
  expect(legal.length).toBe(moves.length);
  const encoded = moves.map((m) => moveToAction(rules, s, m));
  expect([...encoded].sort((a, b) => a - b)).toEqual([...legal]);
  const decoded = encoded.map((a) => actionToMove(rules, s, a!));
  expect(decoded.map((m) => (m === null ? null : key(m)))).toEqual(moves.map(key));
  // The mask says the same as the list.
  const mask = new Uint8Array(info.numDistinctActions.split).fill(7);
  expect(legalActionsMask(rules, s, mask)).toBe(legal.length);
  const expected = new Uint8Array(mask.length);
  for (const a of legal) expected[a] = 1;
  expect(Buffer.from(mask.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
  const set = new Set(legal);
  // A few actions that are not legal name no move.
  for (const a of [-1, 0.5, info.numDistinctActions.split, legal.length > 0 ? legal[legal.length - 1]! + 1 : 0]) {
    if (!set.has(a)) expect(actionToMove(rules, s, a)).toBeNull();
  }
}

function checkCombined(rules: Ruleset, s: GameState): void {
  if (isChanceNode(s)) return;
  const info = gameInfo(rules, s.players);
  const combined = legalActions(rules, s, undefined, 'combined');
  for (let i = 1; i < combined.length; i++) expect(combined[i]).toBeGreaterThan(combined[i - 1]!);
  const seen = new Set<string>();
  // Checked without an expect per action (thousands per state): the wrong ones are listed at once.
  const wrong: string[] = [];
  for (const a of combined) {
    if (!(a >= 0 && a < info.numDistinctActions.combined)) wrong.push(`${a}: out of range`);
    const moves = actionToMoves(rules, s, a, 'combined');
    if (moves === null) {
      wrong.push(`${a}: no moves`);
      continue;
    }
    const back = movesToAction(rules, s, moves, 'combined');
    if (back !== a) wrong.push(`${a}: moves encode back to ${back}`);
    seen.add(moves.map(key).join(' '));
  }
  expect(wrong).toEqual([]);
  expect(seen.size).toBe(combined.length);
  // Exactly the sequences of legal moves: each placement with each option of the deploy step after it.
  let expected = 0;
  if (s.step.kind === 'place-tile') {
    for (const place of legalMoves(rules, s)) {
      const copy = cloneState(s);
      playMove(rules, copy, place, null);
      expected += copy.step.kind === 'deploy' ? legalMoves(rules, copy).length : 1;
    }
  } else expected = legalMoves(rules, s).length;
  expect(combined.length).toBe(expected);
}

describe.each(RULESETS)('%s', (_name, rules, scale) => {
  const runs = (n: number): number => Math.max(1, Math.round(n * scale * byDepth(1, 0.25)));
  test('legal actions ascend, match legal moves one to one (actionToMove/moveToAction), and the mask agrees', () => {
    fc.assert(
      fc.property(planArb(rules), (plan) => {
        for (const s of playthrough(rules, plan)) checkEncoding(rules, s);
      }),
      { numRuns: runs(6) },
    );
  });

  test("a research simulator's legal actions equal legalActions at every node: fresh clones, a simulator whose buffer grows, and an `out` too short", () => {
    // A clone starts without a buffer and sizes it by `capacity`, which is loose where modules
    // list moves (every id outside the placement block): it writes into a small buffer first and
    // grows it to the number listed only when they did not fit.
    fc.assert(
      fc.property(planArb(rules), (plan) => {
        let walker: ResearchSimulator | null = null;
        let prev: GameState | null = null;
        const short = new Int32Array(1);
        for (const s of playthrough(rules, plan)) {
          // The walker follows the plan through the same actions, its buffer kept from node to node.
          if (walker !== null && prev !== null) walker.applyAction(playthroughNext.get(prev)!);
          prev = s;
          const expected = [...legalActions(rules, s)];
          const root = createResearchSimulator(rules, s);
          walker ??= root.clone();
          expect(serializeState(concealed(walker.state))).toBe(serializeState(concealed(s)));
          expect([...root.clone().legalActions()]).toEqual(expected);
          expect([...walker.legalActions()]).toEqual(expected);
          if (expected.length > 1) expect([...root.clone().legalActions(short)]).toEqual(expected);
        }
      }),
      { numRuns: runs(2) },
    );
  });

  test('combined form: every placement with every option after it, a bijection with move sequences', () => {
    fc.assert(
      fc.property(planArb(rules), (plan) => {
        let i = 0;
        // The combined form copies the state per placement: every fourth state of the game suffices.
        for (const s of playthrough(rules, plan)) if (i++ % 4 === 0) checkCombined(rules, s);
      }),
      { numRuns: runs(3) },
    );
  });

  test('chance outcomes: probabilities from the drawable copies, summing to 1', () => {
    fc.assert(
      fc.property(planArb(rules), (plan) => {
        for (const s of playthrough(rules, plan)) {
          const outcomes = chanceOutcomes(rules, s);
          if (!isChanceNode(s)) {
            expect(outcomes).toEqual([]);
            continue;
          }
          const sum = outcomes.reduce((t, o) => t + o.probability, 0);
          expect(Math.abs(sum - 1)).toBeLessThan(1e-12);
          if (s.step.kind === 'castle/token') {
            // A face-down wall token just taken: each kind by its copies nobody has seen yet
            // (2 of each, less those taken face up; the others on the wall are concealed too).
            const taken = (s.ext['castle'] as { taken: number[] }).taken;
            const unseen = taken.reduce((t, n) => t + 2 - n, 0);
            expect(outcomes.map((o) => o.outcome)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].filter((k) => taken[k - 1]! < 2));
            for (const o of outcomes) {
              expect(o.probability).toBeCloseTo((2 - taken[o.outcome - 1]!) / unseen, 14);
              expect(o.label).toBe(`token ${o.outcome}`);
            }
            continue;
          }
          const drawable = outcomes.reduce((t, o) => t + s.bag[o.outcome]!, 0);
          for (const o of outcomes) {
            expect(o.probability).toBeCloseTo(s.bag[o.outcome]! / drawable, 14);
            expect(o.label).toBe(rules.tiles[o.outcome]!.def.id);
          }
        }
      }),
      { numRuns: runs(4) },
    );
  });

  test('returns stay within the bounds of gameInfo; rewards sum to returns; rank sums to 0', () => {
    for (const players of [2, 3, 4].filter((n) => n >= rules.minPlayers && n <= rules.maxPlayers)) {
      const info = gameInfo(rules, players);
      for (let g = 0; g < runs(3); g++) {
        const sim = createResearchSimulator(rules, must(newGame(rules, { players, seed: `returns-${players}-${g}` })));
        const random = createRandomSource(`returns-${g}`);
        const sums = { score: new Array(players).fill(0), 'win-loss': new Array(players).fill(0), rank: new Array(players).fill(0) };
        let decisions = 0;
        while (!sim.isTerminal()) {
          if (!sim.isChanceNode()) decisions++;
          sim.applyRandom(random);
          for (const kind of ['score', 'win-loss', 'rank'] as const) {
            const r = sim.rewards(kind);
            for (let p = 0; p < players; p++) sums[kind][p] += r[p]!;
            for (const v of sim.returns(kind)) expect(v >= info.utility[kind].min && v <= info.utility[kind].max).toBe(true);
          }
        }
        expect(decisions).toBeLessThanOrEqual(info.maxGameLength);
        for (const kind of ['score', 'win-loss', 'rank'] as const) {
          const final = sim.returns(kind);
          for (let p = 0; p < players; p++) expect(sums[kind][p]).toBeCloseTo(final[p]!, 9);
        }
        expect(sim.returns('rank').reduce((a, b) => a + b, 0)).toBeCloseTo(0, 12);
        expect(sim.returns('score')).toEqual(sim.state.scores);
        expect(sim.currentPlayer()).toBe(TERMINAL_PLAYER);
      }
    }
  });

  test('explicit chance is the engine: forcing the app game\'s draws reproduces it move for move', () => {
    for (const players of [2, 3].filter((n) => n >= rules.minPlayers && n <= rules.maxPlayers)) {
      let app: GameState = must(newGame(rules, { players, seed: `same-${players}` }));
      let research: GameState = app;
      const random = createRandomSource(`same-${players}`);
      while (app.step.kind !== 'game-over') {
        const moves = legalMoves(rules, app);
        const move = moves[random(moves.length)]!;
        const next = must(applyMove(rules, app, move));
        research = applyAction(rules, research, moveToAction(rules, research, move));
        // The app drew (and maybe discarded) tiles, and took wall tokens: apply the same outcomes.
        for (const e of next.events) {
          if (e.type === 'tile-drawn' && isChanceNode(research)) research = applyAction(rules, research, rules.tileIndex[e.tile]!);
          if (e.type === 'castle/token-taken' && isChanceNode(research)) {
            expect(research.step.kind).toBe('castle/token');
            research = applyAction(rules, research, (e as unknown as { token: number }).token);
          }
        }
        app = next.state;
        const { rng: _a, ...a } = app;
        const { rng: _b, ...b } = research;
        // Explicit chance conceals the face-down tokens (The Castle): the rest is the app's state.
        expect(b).toEqual(concealed(a));
      }
    }
  });
});

describe('chance nodes', () => {
  const rules = must(createRuleset({ game: 'classic' }));

  /** The chance node after passing at the first deploy step of a seeded game, and the state before it. */
  function position(seed: string): { before: GameState; node: GameState; pass: Move } {
    let s = must(newGame(rules, { players: 2, seed }));
    for (;;) {
      const moves = legalMoves(rules, s);
      const last = moves[moves.length - 1]!;
      if (s.step.kind === 'deploy' && s.tiles.length > 6) return { before: s, node: applyAction(rules, s, moveToAction(rules, s, last)), pass: last };
      s = must(applyMove(rules, s, last)).state;
    }
  }

  /** Probability of each tile kind ending up as the tile to place, discards included. */
  function placedDistribution(node: GameState, weight = 1, into = new Map<string, number>()): Map<string, number> {
    for (const o of chanceOutcomes(rules, node)) {
      const next = applyAction(rules, node, o.outcome);
      if (next.step.kind === 'place-tile') into.set(next.step.tile, (into.get(next.step.tile) ?? 0) + weight * o.probability);
      else if (isChanceNode(next)) placedDistribution(next, weight * o.probability, into);
    }
    return into;
  }

  /** Pearson's statistic of observed counts against expected probabilities. */
  function chiSquare(counts: Map<string, number>, probs: Map<string, number>, n: number): number {
    let x2 = 0;
    for (const [tile, p] of probs) x2 += ((counts.get(tile) ?? 0) - n * p) ** 2 / (n * p);
    for (const tile of counts.keys()) expect(probs.has(tile)).toBe(true);
    return x2;
  }

  // df <= 23 (24 tile kinds); 60 is beyond the 0.9999 quantile of chi-square(23). Seeds are fixed,
  // so the verdict never changes from run to run.
  const CRITICAL = 60;
  const N = 12_000;

  test('the app API\'s seeded draws follow the chance outcomes\' distribution (chi-square, fixed seeds)', () => {
    const { before, node, pass } = position('distribution');
    expect(node.step).toEqual({ kind: 'chance/draw', player: CHANCE_PLAYER });
    const probs = placedDistribution(node);
    expect([...probs.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const counts = new Map<string, number>();
    for (let i = 0; i < N; i++) {
      // The same position with another generator: another draw of the app API.
      const s = cloneState({ ...before, rng: seedRng(`draw-${i}`) });
      playMove(rules, s, pass, null);
      const tile = (s.step as { tile: string }).tile;
      counts.set(tile, (counts.get(tile) ?? 0) + 1);
    }
    expect(chiSquare(counts, probs, N)).toBeLessThan(CRITICAL);
  });

  test('sampling chance nodes with applyRandom follows the same distribution', () => {
    const { node } = position('sampling');
    const probs = placedDistribution(node);
    const counts = new Map<string, number>();
    const root = createResearchSimulator(rules, node);
    const random = createRandomSource('sampling');
    for (let i = 0; i < N; i++) {
      const sim = root.clone();
      while (sim.isChanceNode()) sim.applyRandom(random);
      const tile = (sim.state.step as { tile: string }).tile;
      counts.set(tile, (counts.get(tile) ?? 0) + 1);
    }
    expect(chiSquare(counts, probs, N)).toBeLessThan(CRITICAL);
  });

  test('River: only the tiles the draw order allows are outcomes', () => {
    const river = must(createRuleset({ game: 'classic', expansions: [CLI_EXPANSIONS['river']!({ riverSet: 'I' })] }));
    let s: GameState = must(newGame(river, { players: 2, seed: 'river-chance' }));
    while (!isChanceNode(s)) s = applyAction(river, s, legalActions(river, s).at(-1)!);
    const outcomes = chanceOutcomes(river, s);
    expect(outcomes.length).toBeGreaterThan(0);
    for (const o of outcomes) expect(o.label.startsWith('R')).toBe(true);
    expect(outcomes.reduce((t, o) => t + o.probability, 0)).toBeCloseTo(1, 12);
  });

  test('an outcome that fits nowhere is discarded; the last one ends the game, as the engine does', () => {
    // A test module under which tile A never fits anywhere.
    const never: Expansion = { id: 'never', order: 99, options: {}, placementTiles: (t) => t.id === 'A', placementError: () => 'never here' };
    const r = must(createRuleset({ game: 'classic', expansions: [never] }));
    let s: GameState = must(newGame(r, { players: 2, seed: 'discard' }));
    while (s.step.kind !== 'deploy') s = must(applyMove(r, s, legalMoves(r, s)[0]!)).state;
    const A = r.tileIndex['A']!;
    // Rig the bag: two copies of A and nothing else (rule tests only: the state no longer replays).
    const rigged = cloneState(s);
    rigged.bag = rigged.bag.map((_, k) => (k === A ? 2 : 0));
    rigged.bagSize = 2;
    const pass = legalMoves(r, rigged).at(-1)!;
    // The app API: both copies are drawn, fit nowhere, are discarded, and the game ends.
    const app = must(applyMove(r, rigged, pass)).state;
    expect(app.step.kind).toBe('game-over');
    expect(app.discarded[A]).toBe(rigged.discarded[A]! + 2);
    // The research API: the same, inside the move (no chance node can change anything).
    const research = applyAction(r, rigged, moveToAction(r, rigged, pass));
    const { rng: _a, ...a } = app;
    const { rng: _b, ...b } = research;
    expect(b).toEqual(a);
    // One copy of A and one of B: a chance node; drawing A discards it and asks again; then B.
    const two = cloneState(s);
    const B = r.tileIndex['B']!;
    two.bag = two.bag.map((_, k) => (k === A || k === B ? 1 : 0));
    two.bagSize = 2;
    const node = applyAction(r, two, moveToAction(r, two, pass));
    expect(chanceOutcomes(r, node).map((o) => [o.label, o.probability])).toEqual([
      ['A', 0.5],
      ['B', 0.5],
    ]);
    const afterA = applyAction(r, node, A);
    expect(isChanceNode(afterA)).toBe(true);
    expect(afterA.discarded[A]).toBe(two.discarded[A]! + 1);
    expect(chanceOutcomes(r, afterA).map((o) => [o.label, o.probability])).toEqual([['B', 1]]);
    const afterB = applyAction(r, afterA, B);
    expect(afterB.step).toEqual({ kind: 'place-tile', player: afterB.active, tile: 'B' });
    // And when only A is left at a chance node, drawing it ends the game with final scoring.
    const last = cloneState(node);
    last.bag = last.bag.map((_, k) => (k === A ? 1 : 0));
    last.bagSize = 1;
    const over = applyAction(r, last, A);
    expect(over.step.kind).toBe('game-over');
    expect(over.scores).toEqual(projectedScores(r, last));
  });

  test('applying an outcome is deterministic, and an outcome that is not drawable is refused', () => {
    const { node } = position('determinism');
    const [o] = chanceOutcomes(rules, node);
    expect(serializeState(applyAction(rules, node, o!.outcome))).toBe(serializeState(applyAction(rules, node, o!.outcome)));
    const empty = node.bag.findIndex((n) => n === 0);
    if (empty >= 0) expect(() => applyAction(rules, node, empty)).toThrow(RangeError);
    expect(() => applyAction(rules, node, 999)).toThrow(RangeError);
    expect(actionToString(rules, node, o!.outcome)).toBe(`draw ${o!.label}`);
    expect(legalActions(rules, node).length).toBe(chanceOutcomes(rules, node).length);
  });
});

describe('actions: details', () => {
  const rules = must(createRuleset({ game: 'classic' }));
  const game = must(newGame(rules, { players: 2, seed: 'details' }));

  test('gameInfo: the window is the tile count around the start tile; ids are counted per block', () => {
    const info = gameInfo(rules, 2);
    expect(info.window).toEqual({ x: -71, y: -71, width: 143, height: 143 });
    expect(info.numDistinctActions.split).toBe(143 * 143 * 4 + 8 + 1);
    expect(info.numDistinctActions.combined).toBe(143 * 143 * 4 * 9 + 9);
    expect(info.maxChanceOutcomes).toBe(24);
    expect(info.maxGameLength).toBe(142);
    expect(info.information).toBe('perfect');
    expect(info.versions).toEqual({ actions: 1, modules: {}, observation: 2 });
    const withToll = must(createRuleset({ game: 'classic', expansions: [toll()] }));
    expect(gameInfo(withToll, 2).versions.modules).toEqual({ toll: 1 });
    expect(gameInfo(withToll, 2).numDistinctActions.split).toBe(143 * 143 * 4 + 8 + 3 + 1);
  });

  test('placements are numbered row-major over the window, then by rotation; strings read as moves', () => {
    const m: Move = { type: 'place', player: 0, x: 0, y: -1, rotation: 2 };
    const a = moveToAction(rules, game, m);
    const legal = [...legalActions(rules, game)];
    if (legal.includes(a)) expect(a).toBe(((-1 + 71) * 143 + 71) * 4 + 2);
    expect(actionToString(rules, game, legal[0]!)).toMatch(/^place [A-X] at -?\d+,-?\d+ turned [0-3]$/);
    expect(moveToAction(rules, game, { type: 'place', player: 0, x: 40, y: 40, rotation: 0 })).toBe(-1);
    expect(actionToString(rules, game, 5)).toBe('illegal action 5');
  });

  test('a module without a codec for its moves is refused loudly', () => {
    const bare: Expansion = { ...toll() };
    delete (bare as { actions?: unknown }).actions;
    const r = must(createRuleset({ game: 'classic', expansions: [bare] }));
    expect(() => gameInfo(r, 2)).toThrow(/no action encoding/);
  });

  test('a state of other rules is refused (a caller\'s bug: TypeError)', () => {
    const other = must(createRuleset({ game: 'classic', expansions: [toll()] }));
    const s = must(newGame(other, { players: 2, seed: 'other' }));
    expect(() => legalActions(rules, s)).toThrow(TypeError);
    expect(() => applyAction(rules, s, 0)).toThrow(TypeError);
    expect(() => chanceOutcomes(rules, s)).toThrow(TypeError);
    expect(() => createResearchSimulator(rules, s)).toThrow(TypeError);
    expect(() => returns(rules, s)).toThrow(TypeError);
  });

  test('a legal-actions buffer is filled in place when large enough', () => {
    const out = new Int32Array(1000);
    const view = legalActions(rules, game, out);
    expect(view.buffer).toBe(out.buffer);
    expect([...view]).toEqual([...legalActions(rules, game)]);
    expect(() => legalActionsMask(rules, game, new Uint8Array(10))).toThrow(RangeError);
  });

  test.each<[ActionForm]>([['split'], ['combined']])('%s form: the simulator plays whole games and agrees with applyAction', (form) => {
    const sim = createResearchSimulator(rules, game, { form });
    let s: GameState = game;
    const random = createRandomSource(`sim-${form}`);
    while (!sim.isTerminal()) {
      const legal = [...sim.legalActions()];
      expect(legal).toEqual([...legalActions(rules, s, undefined, form)]);
      const a = sim.isChanceNode() ? legal[random(legal.length)]! : legal[random(legal.length)]!;
      sim.applyAction(a);
      s = applyAction(rules, s, a, form);
      expect(serializeState(sim.state)).toBe(serializeState(s));
    }
    expect(() => sim.applyAction(0)).toThrow(RangeError);
  });

  test('playout: deterministic for a seeded source, from a chance node too; a policy decides every decision', () => {
    const node = applyAction(rules, game, legalActions(rules, game)[0]!);
    const start = isChanceNode(node) ? node : applyAction(rules, node, legalActions(rules, node).at(-1)!);
    expect(isChanceNode(start)).toBe(true);
    const a = createResearchSimulator(rules, start).playout(createRandomSource('po'));
    const b = createResearchSimulator(rules, start).playout(createRandomSource('po'));
    expect(a).toEqual(b);
    let asked = 0;
    const sim = createResearchSimulator(rules, start);
    const scores = sim.playout(createRandomSource('policy'), (s, legal) => {
      asked++;
      expect(s.isChanceNode()).toBe(false);
      expect([...legal]).toEqual([...legalActions(rules, s.state)]);
      return legal[legal.length - 1]!; // always the last: pass when possible
    });
    expect(sim.isTerminal()).toBe(true);
    expect(scores).toEqual(sim.state.scores);
    expect(asked).toBeGreaterThan(60);
    // Passing every time: nobody ever deploys, so nobody scores.
    expect(scores).toEqual([0, 0]);
    expect(sim.rewards()).toEqual(scores);
  });

  test('clones are independent', () => {
    const a = createResearchSimulator(rules, game);
    const b = a.clone();
    a.playout(createRandomSource('clone'));
    expect(serializeState(b.state)).toBe(serializeState(createResearchSimulator(rules, game).state));
    expect(a.isTerminal()).toBe(true);
    expect(b.isTerminal()).toBe(false);
  });
});

/**
 * Entity observation 1 of `e` against the planes `planes` of the same state: one row per tile laid
 * (the rest padding), each at its cell of the window with the planes' tile, and the followers per
 * player the planes count; the vector equal.
 */
function checkEntities(rules: Ruleset, s: GameState, spec: ObservationSpec, es: EntitySpec, e: EntityBuffers, planes: Float32Array): void {
  const C = es.columns.length;
  const R = es.maxRows;
  const [, h, w] = spec.planes;
  const HW = h * w;
  expect(Array.from(e.mask.subarray(R, 2 * R)).reduce((x, y) => x + y, 0)).toBe(s.tiles.length);
  const followersColumn = es.columns.indexOf('followers of observer on feature 0');
  const F = (C - followersColumn) / s.players;
  const rowFollowers = new Array<number>(s.players).fill(0);
  for (let t = 0; t < s.tiles.length; t++) {
    const row = e.rows.subarray((R + t) * C, (R + t + 1) * C);
    const [x, y] = [row[0]!, row[1]!];
    if (x >= 0 && y >= 0 && x < w && y < h) expect(planes[y * w + x]).toBe(1);
    expect(row[2 + s.tiles[t]!.kind]).toBe(1);
    for (let j = 0; j < s.players; j++) for (let f = 0; f < F; f++) rowFollowers[j]! += row[followersColumn + j * F + f]!;
  }
  const clipped = planes[spec.size - spec.vector + spec.features.indexOf('clipped')] === 1;
  const firstFollowers = spec.channels.indexOf('followers of observer');
  if (!clipped) {
    for (let j = 0; j < s.players; j++) {
      let sum = 0;
      for (let cell = 0; cell < HW; cell++) sum += planes[(firstFollowers + j) * HW + cell]!;
      expect(rowFollowers[j]).toBe(sum);
    }
  }
  expect(Buffer.from(e.vector.buffer, 4 * es.vector, 4 * es.vector).equals(Buffer.from(planes.buffer, 4 * (spec.size - spec.vector), 4 * spec.vector))).toBe(true);
  void rules;
}

/** The float32 tensor of row `row` of compact observations, unpacked as docs/ai.md says. */
function decodeCompact(spec: ObservationSpec, buf: CompactObservationBuffers, row: number): Float32Array {
  const [, h, w] = spec.planes;
  const HW = h * w;
  const c = spec.compact;
  const out = new Float32Array(spec.size);
  const bits = buf.bits.subarray(row * c.bitBytes, (row + 1) * c.bitBytes);
  for (let k = 0; k < c.bitChannels.length; k++) {
    const base = c.bitChannels[k]! * HW - k * HW;
    for (let bit = k * HW; bit < (k + 1) * HW; bit++) out[base + bit] = (bits[bit >> 3]! >> (bit & 7)) & 1;
  }
  c.countChannels.forEach((channel, k) => {
    for (let cell = 0; cell < HW; cell++) out[channel * HW + cell] = buf.counts[row * c.countBytes + k * HW + cell]!;
  });
  out.set(buf.vector.subarray(row * c.vector, (row + 1) * c.vector), spec.size - spec.vector);
  // Row 0 was left alone, and the padding bits of row 1 are 0.
  expect(buf.bits[0]).toBe(7);
  expect(buf.counts[c.countBytes - 1]).toBe(7);
  expect(buf.vector[0]).toBe(7);
  const pad = c.bitChannels.length * HW;
  for (let bit = pad; bit < 8 * c.bitBytes; bit++) expect((buf.bits[row * c.bitBytes + (bit >> 3)]! >> (bit & 7)) & 1).toBe(0);
  return out;
}

describe('observations and determinization reveal nothing hidden', () => {
  const classic = must(createRuleset({ game: 'classic' }));
  const hidden = must(createRuleset({ game: 'classic', expansions: [secret()] }));

  test('modules\' public features close the vector (version 2): The Castle\'s tokens and keeps, the King and Robber Baron, the Count', () => {
    const vectorOf = (rules: Ruleset, state: GameState, viewer: number): Map<string, number> => {
      const spec = observationSpec(rules, state.players);
      const out = new Float32Array(spec.size);
      writeObservationTensor(rules, state, viewer, out);
      const base = spec.size - spec.vector;
      return new Map(spec.features.map((name, i) => [name, out[base + i]!]));
    };
    if (castle.ok) {
      const rules = castle.value;
      const s = cloneState(must(newGame(rules, { players: 2, seed: 'features' })));
      const slice = s.ext['castle'] as { held: { token: number; turn: number }[][]; keep: ({ root: number; tiles: number } | null)[]; taken: number[] };
      slice.held[1] = [
        { token: 7, turn: -1 },
        { token: 2, turn: s.turn },
      ];
      slice.taken[6] = 1;
      slice.taken[1] = 1;
      slice.keep[1] = { root: 0, tiles: 3 };
      // Seen by player 0: player 1 is observer+1; seen by player 1, the same tokens are the observer's.
      const by0 = vectorOf(rules, s, 0);
      expect(by0.get('castle: token 7 held by observer+1')).toBe(1);
      expect(by0.get('castle: token 7 usable now by observer+1')).toBe(1);
      expect(by0.get('castle: token 2 held by observer+1')).toBe(1);
      expect(by0.get('castle: token 2 usable now by observer+1')).toBe(0); // taken this turn
      expect(by0.get('castle: token 7 held by observer')).toBe(0);
      expect(by0.get('castle: keep size of observer+1')).toBe(3);
      expect(by0.get('castle: token 7 taken so far')).toBe(1);
      expect(by0.get('castle: face-down tokens on the wall')).toBe(13);
      const by1 = vectorOf(rules, s, 1);
      expect(by1.get('castle: token 7 held by observer')).toBe(1);
      expect(by1.get('castle: keep size of observer')).toBe(3);
    }
    const kr = must(createRuleset({ game: 'classic', expansions: [CLI_EXPANSIONS['king-robber']!({}), CLI_EXPANSIONS['count']!({})] }));
    const s = cloneState(must(newGame(kr, { players: 3, seed: 'features' })));
    s.ext['king-robber'] = { king: 2, kingTiles: 5, robber: -1, robberTiles: 0 };
    const count = s.ext['count'] as { quarters: Record<string, number[]>; count: string };
    count.quarters['market'] = [0, 2, 1];
    count.count = 'blacksmith';
    const v = vectorOf(kr, s, 1);
    expect(v.get('king-robber: King held by observer+1')).toBe(1); // player 2, seen by player 1
    expect(v.get('king-robber: King\'s feature size')).toBe(5);
    expect(v.get('king-robber: Robber Baron held by observer')).toBe(0);
    expect(v.get('count: followers of observer in the market')).toBe(2);
    expect(v.get('count: followers of observer+1 in the market')).toBe(1);
    expect(v.get('count: followers of observer+2 in the market')).toBe(0);
    expect(v.get('count: the Count in the blacksmith')).toBe(1);
    expect(v.get('count: the Count in the castle')).toBe(0);
  });

  test('observationSpec describes the tensor (names, shape, size)', () => {
    const spec = observationSpec(classic, 3);
    expect(spec.planes).toEqual([spec.channels.length, 31, 31]);
    expect(spec.size).toBe(spec.channels.length * 31 * 31 + spec.features.length);
    expect(spec.vector).toBe(spec.features.length);
    const out = new Float32Array(spec.size + 5).fill(9);
    const s = must(newGame(classic, { players: 3, seed: 'spec' }));
    writeObservationTensor(classic, s, 1, out);
    expect(out[spec.size]).toBe(9); // nothing written past the end
    expect(out[0 * 31 * 31 + 15 * 31 + 15]).toBe(1); // the start tile, centred
    expect(() => writeObservationTensor(classic, s, 0, new Float32Array(10))).toThrow(RangeError);
  });

  /**
   * A copy of `s` that differs only in what nobody sees: seed, generator, the hidden module's
   * value, The Castle's face-down wall tokens (their kinds rotated among them).
   */
  function perturb(s: GameState, n: number): GameState {
    const copy = cloneState(s);
    const out = { ...copy, seed: `other-${n}`, rng: seedRng(`other-${n}`) };
    if ('secret' in out.ext) out.ext = { ...out.ext, secret: { value: n } };
    if ('castle' in out.ext) {
      const slice = out.ext['castle'] as { wall: number[] };
      // Face-down tokens get other kinds (a concealed one, -1, a kind of its own).
      const down = slice.wall.flatMap((t, i) => (t !== 0 ? [i] : []));
      const wall = [...slice.wall];
      down.forEach((at, j) => (wall[at] = 1 + ((Math.max(0, slice.wall[down[(j + n) % down.length]!]!) + n) % 9)));
      out.ext = { ...out.ext, castle: { ...slice, wall } };
    }
    return out;
  }

  const hiddenRulesets: [string, Ruleset][] = [
    ['classic', classic],
    ['with a module hiding a scored value', hidden],
  ];
  if (castle.ok) hiddenRulesets.push(['castle (face-down wall tokens)', castle.value]);
  // Every expansion at once: the counting channels (followers, open ports) meet every module.
  hiddenRulesets.push(['all the expansions', must(createRuleset({ game: 'classic', expansions: ids.map((id) => CLI_EXPANSIONS[id]!({ riverSet: 'both' })) }))]);

  test.each(hiddenRulesets)('%s: two states differing only in hidden parts give identical tensors (float32 and compact), for every viewer; the compact one decodes to the float32 one', (name, rules) => {
    // Every expansion at once makes long games of many players: fewer of their states, for time.
    const stride = name === 'all the expansions' ? 21 : 7;
    fc.assert(
      fc.property(planArb(rules), fc.integer({ min: 1, max: 49 }), (plan, n) => {
        const spec = observationSpec(rules, plan.players);
        const a = new Float32Array(spec.size);
        const b = new Float32Array(spec.size);
        // Two rows each: the observation goes in row 1, row 0 must stay as it was.
        const c = spec.compact;
        const compactBuffers = (): CompactObservationBuffers => ({ bits: new Uint8Array(2 * c.bitBytes).fill(7), counts: new Uint8Array(2 * c.countBytes).fill(7), vector: new Float32Array(2 * c.vector).fill(7) });
        const ca = compactBuffers();
        const cb = compactBuffers();
        const es = entitySpec(rules, plan.players);
        const entityBuffers = (): EntityBuffers => ({ rows: new Float32Array(2 * es.maxRows * es.columns.length), mask: new Uint8Array(2 * es.maxRows), vector: new Float32Array(2 * es.vector) });
        const ea = entityBuffers();
        const eb = entityBuffers();
        let i = 0;
        for (const s of playthrough(rules, plan)) {
          if (i++ % stride !== 0 && s.step.kind !== 'game-over') continue;
          const other = perturb(s, n);
          for (let viewer = 0; viewer < plan.players; viewer++) {
            writeObservationTensor(rules, s, viewer, a);
            writeObservationTensor(rules, other, viewer, b);
            expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
            // The compact form: the same for both, and it decodes to exactly the float32 tensor.
            writeCompactObservation(rules, s, viewer, ca, 1);
            // With the legal actions given (as a vector environment gives them): the same bytes.
            writeCompactObservation(rules, other, viewer, cb, 1, isChanceNode(other) ? undefined : legalActions(rules, other));
            expect(Buffer.from(cb.bits).equals(Buffer.from(ca.bits))).toBe(true);
            expect(Buffer.from(cb.counts).equals(Buffer.from(ca.counts))).toBe(true);
            expect(Buffer.from(cb.vector.buffer).equals(Buffer.from(ca.vector.buffer))).toBe(true);
            const decoded = decodeCompact(spec, ca, 1);
            expect(Buffer.from(decoded.buffer).equals(Buffer.from(a.buffer))).toBe(true);
            // The entity form: the same for both, and it agrees with the planes.
            writeEntityObservation(rules, s, viewer, ea, 1);
            writeEntityObservation(rules, other, viewer, eb, 1);
            expect(Buffer.from(eb.rows.buffer).equals(Buffer.from(ea.rows.buffer))).toBe(true);
            expect(Buffer.from(eb.mask).equals(Buffer.from(ea.mask))).toBe(true);
            expect(Buffer.from(eb.vector.buffer).equals(Buffer.from(ea.vector.buffer))).toBe(true);
            checkEntities(rules, s, spec, es, ea, a);
          }
        }
      }),
      { numRuns: 5 },
    );
  });

  test('determinize: the same seed gives the same state whatever the hidden parts were; it keeps all that is public', () => {
    fc.assert(
      fc.property(planArb(classic), fc.string({ maxLength: 6 }), (plan, seed) => {
        let i = 0;
        for (const s of playthrough(classic, plan)) {
          if (i++ % 9 !== 0) continue;
          const player = s.step.kind === 'game-over' || s.step.player < 0 ? 0 : s.step.player;
          const d1 = determinize(classic, s, player, seed);
          const d2 = determinize(classic, perturb(s, 3), player, seed);
          expect(serializeState(d2)).toBe(serializeState(d1));
          expect(serializeState(determinize(classic, observe(classic, s, player), player, seed))).toBe(serializeState(d1));
          const { seed: _s, rng: _r, ...pub } = s;
          const { seed: _s2, rng: _r2, ...pub1 } = d1;
          expect(pub1).toEqual(pub);
          expect(d1.seed).toBe(seed);
        }
      }),
      { numRuns: 5 },
    );
  });

  test('determinize: different seeds reshuffle the unseen tiles; a module that hides its state is refused', () => {
    const s = must(newGame(classic, { players: 2, seed: 'reshuffle' }));
    const futures = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const sim = createResearchSimulator(classic, determinize(classic, s, 0, `d${i}`), { chance: 'seeded' });
      sim.applyAction(sim.legalActions()[0]!);
      while (sim.state.step.kind === 'deploy') sim.applyAction(sim.legalActions().at(-1)!);
      futures.add((sim.state.step as { tile: string }).tile);
    }
    expect(futures.size).toBeGreaterThan(1);
    expect(() => determinize(hidden, must(newGame(hidden, { players: 2, seed: 'x' })), 0, 's')).toThrow(/hides information/);
    expect(() => determinize(classic, observe(classic, s, 1), 0, 's')).toThrow(TypeError);
    expect(gameInfo(hidden, 2).information).toBe('imperfect');
  });
});

describe('types of moves in module codecs', () => {
  test('module moves decode with the decider as player', () => {
    const rules = must(createRuleset({ game: 'classic', expansions: [toll()] }));
    let s: GameState = must(newGame(rules, { players: 3, seed: 'toll-ask' }));
    const random = createRandomSource('toll-ask');
    while (s.step.kind !== 'toll/ask' && s.step.kind !== 'game-over') {
      const legal = legalActions(rules, s);
      s = applyAction(rules, s, legal[random(legal.length)]!);
    }
    expect(s.step.kind).toBe('toll/ask');
    const legal = [...legalActions(rules, s)];
    const moves = legal.map((a) => actionToMove(rules, s, a) as ExpansionMove);
    expect(moves.map((m) => m.type)).toEqual(['toll/pay', 'toll/refuse']);
    for (const m of moves) expect(m.player).toBe((s.step as { player: number }).player);
    expect(actionToString(rules, s, legal[0]!)).toBe('toll/pay');
    expect(rewards(rules, s, applyAction(rules, s, legal[0]!))[s.active]).toBeGreaterThanOrEqual(1);
    expect(returns(rules, s, 'win-loss')).toEqual([0, 0, 0]);
  });
});
