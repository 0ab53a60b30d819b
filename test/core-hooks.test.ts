/**
 * The hooks added for the Count, the Tower and the Dragon (issue: expansions, "design them for
 * all six planned"), each proven with a small test-only expansion:
 * - `ransom`: a move offered at every step of the active player's own turn (`turnMoves`), once per
 *   turn, refused afterwards with its own error code (`moveError`);
 * - `gate`: a placement refused with the expansion's own error code (`placementError`);
 * - `jail`: followers held off the board (`followersHeld`, `offBoardFollowers`) and moved on and
 *   off the feature graph with the core helpers `addFollower` and `removeFollower`;
 * - `twin`: a start of two tiles with their cells (`start` as a list);
 * - `reverse`: the order in which the completed features are scored (`scoringOrder`);
 * - `again`: a decision at the end of a turn (`beforeTurnEnd`) that gives the same player
 *   another turn (`nextPlayer`).
 */
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  createRandomSource,
  createRuleset,
  createSimulator,
  legalMoves,
  makeReplay,
  newGame,
  offBoardFollowers,
  parseState,
  replay,
  serializeState,
  whyIllegal,
  type Expansion,
  type GameState,
  type Move,
  type Ruleset,
} from '../src/index.js';
import { addFollower, award, removeFollower } from '../src/core/engine/scoring.js';
import { findRoot } from '../src/core/features.js';
import { Scenario, scoredOf } from './helpers.js';

function rulesWith(...expansions: Expansion[]): Ruleset {
  const r = createRuleset({ game: 'classic', expansions });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function start(rules: Ruleset, seed = 'hooks', players = 2): GameState {
  const g = newGame(rules, { players, seed });
  if (!g.ok) throw new Error(g.error.message);
  return g.value;
}

function apply(rules: Ruleset, state: GameState, move: Move): GameState {
  const r = applyMove(rules, state, move);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value.state;
}

/** Plays seeded random games through applyMove and the Simulator and checks they agree and replay. */
function randomGamesAgree(rules: Ruleset, games: number): void {
  for (let g = 0; g < games; g++) {
    let state = start(rules, `agree-${g}`);
    const sim = createSimulator(rules, state);
    if (!sim.ok) throw new Error(sim.error.message);
    const random = createRandomSource(`moves-${g}`);
    while (state.step.kind !== 'game-over') {
      const moves = legalMoves(rules, state);
      expect(sim.value.countMoves()).toBe(moves.length);
      const i = random(moves.length);
      expect(sim.value.nthMove(i)).toEqual(moves[i]);
      state = apply(rules, state, moves[i]!);
      sim.value.play(moves[i]!);
      expect(serializeState(sim.value.snapshot())).toBe(serializeState(state));
    }
    const text = serializeState(state);
    const parsed = parseState(rules, text);
    expect(parsed.ok && serializeState(parsed.value)).toBe(text);
    const log = replay(rules, JSON.stringify(makeReplay(rules, state)));
    expect(log.ok && serializeState(log.value.state)).toBe(text);
  }
}

// ---------------------------------------------------------------------------------------------

interface RansomSlice {
  paidInTurn: number;
}

/** Once per turn, at any step of their own turn, the active player may pay 1 point to the pot. */
function ransom(): Expansion {
  return {
    id: 'ransom',
    order: 90,
    options: {},
    setup: (): RansomSlice => ({ paidInTurn: -1 }),
    turnMoves: (_rules, state) =>
      (state.ext['ransom'] as RansomSlice).paidInTurn === state.turn ? [] : [{ type: 'ransom/pay', player: state.active }],
    moveError: (_rules, state, move) =>
      move['type'] === 'ransom/pay' && move['player'] === state.active && (state.ext['ransom'] as RansomSlice).paidInTurn === state.turn
        ? { code: 'ransom/already-paid', message: 'the ransom is paid once per turn' }
        : null,
    play(ctx, move) {
      (ctx.state.ext['ransom'] as RansomSlice).paidInTurn = ctx.state.turn;
      award(ctx, move.player, 1, 'ransom/paid', null);
      return 'done';
    },
  };
}

describe('turnMoves: a move at every step of the active player\'s turn (the Tower\'s ransom)', () => {
  const rules = rulesWith(ransom());

  test('offered at the place-tile step (last) and at the deploy step (before pass); the step stays the same', () => {
    let state = start(rules);
    const placing = legalMoves(rules, state);
    expect(placing[placing.length - 1]).toEqual({ type: 'ransom/pay', player: 0 });
    expect(placing.slice(0, -1).every((m) => m.type === 'place')).toBe(true);
    const step = state.step;
    state = apply(rules, state, { type: 'ransom/pay', player: 0 });
    expect(state.step).toEqual(step);
    expect(state.scores).toEqual([1, 0]);
    // Once per turn: no longer listed, and refused with the expansion's own code.
    expect(legalMoves(rules, state).some((m) => m.type === 'ransom/pay')).toBe(false);
    expect(whyIllegal(rules, state, { type: 'ransom/pay', player: 0 })?.code).toBe('ransom/already-paid');
    // Never on the other player's behalf.
    expect(whyIllegal(rules, state, { type: 'ransom/pay', player: 1 })?.code).toBe('move/not-your-turn');
  });

  test('at the deploy step it comes before pass and does not end the turn', () => {
    let state = start(rules, 'deploy');
    state = apply(rules, state, legalMoves(rules, state).find((m) => m.type === 'place')!);
    expect(state.step.kind).toBe('deploy');
    const moves = legalMoves(rules, state);
    expect(moves.slice(-2)).toEqual([
      { type: 'ransom/pay', player: 0 },
      { type: 'pass', player: 0 },
    ]);
    state = apply(rules, state, { type: 'ransom/pay', player: 0 });
    expect(state.step).toEqual({ kind: 'deploy', player: 0 });
  });

  test('random games: applyMove and the Simulator agree move by move, replays and parsing round-trip', () => {
    randomGamesAgree(rules, 4);
  });
});

// ---------------------------------------------------------------------------------------------

/** No tile east of x = 2. */
function gate(): Expansion {
  return {
    id: 'gate',
    order: 90,
    options: {},
    placementError: (_rules, _state, _tile, x) => (x > 2 ? { code: 'gate/closed', message: 'the east gate is closed' } : null),
  };
}

test('placementError: a refusal with the expansion\'s own code; legal moves leave those cells out', () => {
  const rules = rulesWith(gate());
  const sc = new Scenario(rules, 2, 'gate');
  sc.place('U', 1, 0, 0).place('U', 2, 0, 0); // the start road goes on east to 2,0
  const state = sc.state;
  const tile = state.step.kind === 'place-tile' ? state.step.tile : '';
  expect(tile).not.toBe('');
  const east = legalMoves(rules, state).filter((m) => m.type === 'place' && m.x > 2);
  expect(east).toEqual([]);
  const err = whyIllegal(rules, state, { type: 'place', player: state.active, x: 3, y: 0, rotation: 0 });
  expect(err === null ? null : [err.code, err.message]).toEqual(['gate/closed', expect.stringMatching(/may not lie at 3,0: the east gate is closed/)]);
});

// ---------------------------------------------------------------------------------------------

interface JailSlice {
  held: number[];
}

/**
 * At the deploy step: `jail/lock` moves the active player's oldest follower on the board into the
 * jail (off the board); `jail/free` puts a jailed follower onto the placed tile's first free
 * feature a follower may go on.
 */
function jail(): Expansion {
  const firstFree = (rules: Ruleset, state: Readonly<GameState> | Parameters<NonNullable<Expansion['deployMoves']>>[1]): number => {
    const placed = state.tiles[state.tiles.length - 1]!;
    const tile = rules.tiles[rules.tileIndex[placed.id]!]!;
    for (let f = 0; f < tile.kinds.length; f++) {
      const root = findRoot(state.features.parent, placed.node + f);
      if (rules.deployable[tile.kinds[f]!] && state.features.followers[root] === 0) return root;
    }
    return -1;
  };
  return {
    id: 'jail',
    order: 90,
    options: {},
    setup: (_rules, players): JailSlice => ({ held: new Array<number>(players).fill(0) }),
    followersHeld: (state) => (state.ext['jail'] as JailSlice).held,
    deployMoves(rules, state) {
      const p = state.active;
      const out: Move[] = [];
      if (state.followers.some((f) => f.player === p)) out.push({ type: 'jail/lock', player: p });
      if ((state.ext['jail'] as JailSlice).held[p]! > 0 && firstFree(rules, state) >= 0) out.push({ type: 'jail/free', player: p });
      return out;
    },
    play(ctx, move) {
      const s = ctx.state;
      const slice = s.ext['jail'] as JailSlice;
      if (move.type === 'jail/lock') {
        const f = removeFollower(s, s.followers.findIndex((x) => x.player === move.player));
        slice.held[f.player]!++;
      } else {
        slice.held[move.player]!--;
        addFollower(s, move.player, firstFree(ctx.rules, s));
      }
      return 'done';
    },
  };
}

describe('followers off the board: followersHeld, addFollower, removeFollower', () => {
  const rules = rulesWith(jail());

  test('a follower locked away is counted off the board; freed, it stands on a feature and counts there', () => {
    const sc = new Scenario(rules, 2, 'jail');
    sc.place('V', 1, 0, 0, 'r1'); // P0: a thief on the curve east of the start
    sc.place('V', -1, 0, 3); // P1
    expect(sc.state.supply).toEqual([6, 7]);
    // P0 places a city cap and, instead of deploying, locks the thief away.
    sc.state = rigAndPlace(rules, sc.state, 'E', 0, -1, 2);
    expect(legalMoves(rules, sc.state)).toContainEqual({ type: 'jail/lock', player: 0 });
    sc.play({ type: 'jail/lock', player: 0 });
    expect(sc.state.followers.filter((f) => f.player === 0)).toEqual([]);
    expect(offBoardFollowers(rules, sc.state)).toEqual([1, 0]);
    expect(sc.state.supply).toEqual([6, 7]);
    // The curve's road no longer counts a follower.
    const curve = sc.state.tiles[1]!;
    const curveRoad = findRoot(sc.state.features.parent, curve.node + rules.tiles[rules.tileIndex['V']!]!.localIndex['r1']!);
    expect(sc.state.features.followers[curveRoad]).toBe(0);
    // P1's turn, then P0 frees the follower onto the new tile.
    sc.place('V', -1, 1, 2);
    sc.state = rigAndPlace(rules, sc.state, 'U', 2, 0, 1);
    expect(legalMoves(rules, sc.state)).toContainEqual({ type: 'jail/free', player: 0 });
    sc.play({ type: 'jail/free', player: 0 });
    expect(offBoardFollowers(rules, sc.state)).toEqual([0, 0]);
    const index = sc.state.tiles.findIndex((t) => t.x === 2 && t.y === 0);
    const f = sc.state.followers.find((x) => x.tile === index);
    expect(f?.player).toBe(0);
    const placed = sc.state.tiles[index]!;
    expect(sc.state.features.followers[findRoot(sc.state.features.parent, placed.node + f!.local)]).toBe(1);
  });

  test('random games: supply + board + off the board = 7 at every step; applyMove and the Simulator agree', () => {
    randomGamesAgree(rules, 4);
    for (let g = 0; g < 10; g++) {
      let state = start(rules, `jail-${g}`);
      const random = createRandomSource(`jail-moves-${g}`);
      while (state.step.kind !== 'game-over') {
        const moves = legalMoves(rules, state);
        const jailMoves = moves.filter((m) => m.type.startsWith('jail/'));
        state = apply(rules, state, jailMoves.length > 0 && random(2) === 0 ? jailMoves[random(jailMoves.length)]! : moves[random(moves.length)]!);
        const held = offBoardFollowers(rules, state);
        for (let p = 0; p < 2; p++) {
          expect(state.supply[p]! + state.followers.filter((f) => f.player === p).length + held[p]!).toBe(7);
        }
      }
    }
  });
});

/** Rigs the draw to tile `id` and places it, stopping at the deploy step. */
function rigAndPlace(rules: Ruleset, state: GameState, id: string, x: number, y: number, rotation: 0 | 1 | 2 | 3): GameState {
  const sc = new Scenario(rules, 2, 'unused');
  sc.state = state;
  const s = structuredClone(state) as GameState;
  const step = s.step as { kind: 'place-tile'; player: number; tile: string };
  s.bag[rules.tileIndex[step.tile]!]!++;
  s.bag[rules.tileIndex[id]!]!--;
  s.step = { kind: 'place-tile', player: step.player, tile: id };
  return apply(rules, s, { type: 'place', player: step.player, x, y, rotation });
}

// ---------------------------------------------------------------------------------------------

test('start as a list: two start tiles with their cells, both out of the bag, both on the board', () => {
  const twin: Expansion = {
    id: 'twin',
    order: 90,
    options: {},
    start: [
      { tile: 'D', x: 0, y: 0, rotation: 0 },
      { tile: 'D', x: 1, y: 0, rotation: 0 },
    ],
  };
  const rules = rulesWith(twin);
  const state = start(rules, 'twin');
  expect(state.tiles.slice(0, 2).map((t) => [t.id, t.x, t.y, t.player])).toEqual([
    ['D', 0, 0, -1],
    ['D', 1, 0, -1],
  ]);
  // 4 D in the set: two on the board; the drawn tile is out of the bag too.
  const inBag = state.bag.reduce((a, b) => a + b, 0);
  expect(inBag).toBe(72 - 2 - 1);
  // The two roads joined into one (open at both far ends), the two cities are separate.
  const g = state.features;
  const road = (i: number): number => findRoot(g.parent, state.tiles[i]!.node + rules.tiles[rules.tileIndex['D']!]!.localIndex['r1']!);
  expect(road(0)).toBe(road(1));
  expect(g.open[road(0)]).toBe(2);
  randomGamesAgree(rules, 2);
});

// ---------------------------------------------------------------------------------------------

test('scoringOrder: an expansion reorders the features the tile completed before they are scored', () => {
  const reverse: Expansion = {
    id: 'reverse',
    order: 90,
    options: {},
    scoringOrder(ctx) {
      // The newest feature first (largest root segment).
      ctx.state.flow!.roots.sort((a, b) => b - a);
    },
  };
  const plain = createRuleset({ game: 'classic' });
  if (!plain.ok) throw new Error(plain.error.message);
  const rules = rulesWith(reverse);
  randomGamesAgree(rules, 2);
  /** Root segments of the features completed in each turn with two or more, in event order. */
  const multi = (r: Ruleset, seed: string): { scores: number[]; orders: number[][] } => {
    const game = playRandom(r, seed);
    const orders: number[][] = [];
    for (const turn of game.turns) {
      const done = turn.flatMap((e) => (e.type === 'feature-completed' ? [(e as unknown as { feature: { x: number; y: number; feature: string } }).feature] : []));
      if (done.length < 2) continue;
      orders.push(
        done.map((f) => {
          const t = game.state.tiles.find((x) => x.x === f.x && x.y === f.y)!;
          return t.node + r.tiles[r.tileIndex[t.id]!]!.localIndex[f.feature]!;
        }),
      );
    }
    return { scores: game.state.scores, orders };
  };
  let reordered = 0;
  for (let g = 0; g < 30; g++) {
    const a = multi(rules, `rev-${g}`);
    const b = multi(plain.value, `rev-${g}`);
    // The same game (the order of scoring changes no classic score), scored newest first.
    expect(a.scores).toEqual(b.scores);
    for (const order of a.orders) expect(order).toEqual([...order].sort((x, y) => y - x));
    for (const order of b.orders) if (order.join() !== [...order].sort((x, y) => y - x).join()) reordered++;
  }
  // Without the hook some turns score in another order: the hook did something.
  expect(reordered).toBeGreaterThan(0);
});

function playRandom(rules: Ruleset, seed: string): { state: GameState; turns: { type: string }[][] } {
  let state = start(rules, seed);
  const random = createRandomSource(seed);
  const turns: { type: string }[][] = [[]];
  while (state.step.kind !== 'game-over') {
    const moves = legalMoves(rules, state);
    const r = applyMove(rules, state, moves[random(moves.length)]!);
    if (!r.ok) throw new Error(r.error.message);
    for (const e of r.value.events) {
      turns[turns.length - 1]!.push(e);
      if (e.type === 'turn-ended') turns.push([]);
    }
    state = r.value.state;
  }
  return { state, turns };
}

// ---------------------------------------------------------------------------------------------

interface AgainSlice {
  used: boolean[];
  again: number;
}

/** Once per game, at the end of a turn, a player may take another turn right away. */
function again(): Expansion {
  return {
    id: 'again',
    order: 90,
    options: {},
    setup: (_rules, players): AgainSlice => ({ used: new Array<boolean>(players).fill(false), again: -1 }),
    beforeTurnEnd(ctx) {
      const slice = ctx.state.ext['again'] as AgainSlice;
      if (slice.used[ctx.state.active] || !ctx.state.bag.some((n) => n > 0)) return;
      expect(ctx.state.flow).toBeNull();
      ctx.state.step = { kind: 'again/ask', player: ctx.state.active };
      return 'wait';
    },
    nextPlayer: (_rules, state) => ((state.ext['again'] as AgainSlice).again === state.turn ? state.active : null),
    stepMoves: (_rules, state) => [
      { type: 'again/yes', player: state.active },
      { type: 'again/no', player: state.active },
    ],
    play(ctx, move) {
      const slice = ctx.state.ext['again'] as AgainSlice;
      slice.used[move.player] = true;
      if (move.type === 'again/yes') slice.again = ctx.state.turn;
      return 'done';
    },
  };
}

describe('beforeTurnEnd and nextPlayer: a decision at the end of the turn, and an extra turn', () => {
  const rules = rulesWith(again());

  test('yes: the same player plays the next turn; no: the seat order goes on', () => {
    let state = start(rules, 'again');
    state = apply(rules, state, legalMoves(rules, state).find((m) => m.type === 'place')!);
    if (state.step.kind === 'deploy') state = apply(rules, state, { type: 'pass', player: 0 });
    expect(state.step).toEqual({ kind: 'again/ask', player: 0 });
    expect(state.flow).toEqual({ phase: 'end', roots: [], hook: 1, completed: [] });
    const yes = apply(rules, state, { type: 'again/yes', player: 0 });
    expect(yes.active).toBe(0);
    expect(yes.turn).toBe(1);
    expect(yes.step).toMatchObject({ kind: 'place-tile', player: 0 });
    const no = apply(rules, state, { type: 'again/no', player: 0 });
    expect(no.active).toBe(1);
    expect(no.step).toMatchObject({ kind: 'place-tile', player: 1 });
  });

  test('random games: applyMove and the Simulator agree move by move, replays and parsing round-trip', () => {
    randomGamesAgree(rules, 4);
  });
});
