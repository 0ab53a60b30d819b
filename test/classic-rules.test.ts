/**
 * Classic Carcassonne, base game: one hand-worked position per rule of
 * the classic digest ("the digest"), each row citing the rule it proves.
 * docs/rules/classic.md maps every rule to its implementation and to the row here.
 *
 * Conventions used in the drawings: x grows east, y grows south; the start tile D lies at 0,0
 * unturned (city cap north, road west-east). A tile is written `Id@rot` (quarter turns
 * clockwise); its edges are listed N E S W with C city, R road, F field. Turning a tile by r
 * moves its printed side s to side s + r (N->E->S->W). Players alternate 0, 1, 0, 1, ... and the
 * draw is rigged (test/helpers.ts `Scenario`) so each turn places the tile the row names.
 * Local feature ids are the printed ones (src/games/classic/tiles.ts) and do not change with
 * rotation.
 */
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  createSimulator,
  createRandomSource,
  featureAt,
  legalMoves,
  newGame,
  projectedScores,
  tileDefs,
  whyIllegal,
  type Cell,
  type FeatureInfo,
  type FeatureQuery,
  type GameEvent,
  type GameState,
  type Immutable,
  type Move,
  type Port,
  type Rotation,
  type TileDef,
} from '../src/index.js';
import { Scenario, checkPlacements, classicRules, play, playLast, rigDraw, scoredOf, sortedScored, type PlacementRow, type Turn } from './helpers.js';

const rules = classicRules();
const DEFS: ReadonlyMap<string, TileDef> = new Map(tileDefs(rules).map((d) => [d.id, d]));

// ---------------------------------------------------------------------------------------------
// Helpers

// From test/helpers.ts: `Turn`, `play`, `playLast` (the last tile, then final scoring: digest,
// "Game end"), `scoredOf` and `sortedScored`.

/** A `scored` event reduced to [player, points, feature kind, reason], as the rows below write it. */
type Scored = readonly [player: number, points: number, kind: string, reason: 'completed' | 'final' | 'farm'];

function feature(state: Immutable<GameState>, query: FeatureQuery): FeatureInfo {
  const r = featureAt(rules, state, query);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

function cells(list: readonly Cell[]): string[] {
  return list.map((c) => `${c.x},${c.y}`).sort();
}

/** The state at the `place-tile` step with tile `id` drawn, after `turns`. */
function drawn(turns: readonly Turn[], id: string): GameState {
  return rigDraw(rules, play(new Scenario(rules), turns).state, id);
}

/** The scenario stopped at the deploy step of the last turn (its tile placed, no decision yet). */
function atDeploy(turns: readonly Turn[], [id, x, y, rotation]: Turn): Scenario {
  const sc = play(new Scenario(rules), turns);
  sc.state = rigDraw(rules, sc.state, id);
  sc.play({ type: 'place', player: sc.player, x, y, rotation });
  expect(sc.state.step.kind).toBe('deploy');
  return sc;
}

// ---------------------------------------------------------------------------------------------
// Placement (digest, Turn 1)


const placementRows: readonly PlacementRow[] = [
  {
    // digest-classic.md, Turn 1 "The drawn tile must share at least one full edge with a placed tile".
    // B (cloister, fields all round) touching D only at a corner, far away, or on D itself.
    name: 'placement: a tile must share a full edge with the board; a corner or a distant cell is refused, an occupied cell too (digest-classic Turn 1)',
    turns: [],
    tile: 'B',
    tries: [
      [1, 1, 0, 'place/not-adjacent'], // diagonal to D: corner contact only
      [1, -1, 0, 'place/not-adjacent'],
      [5, 5, 0, 'place/not-adjacent'],
      [0, 0, 0, 'place/occupied'], // D lies there
      [0, 1, 0, null], // under D's field edge: fine
    ],
  },
  {
    // digest-classic.md, Turn 1 "every edge it shares must match: city to city, road to road, field to field".
    //   B: F F F F.  D: N=C, E=R, S=F, W=R.  E (city cap north) @3: N=F E=F S=F W=C.
    name: 'placement: every shared edge must match city/road/field; field on city, field on road and city on road are refused (digest-classic Turn 1)',
    turns: [],
    tile: 'B',
    tries: [
      [0, -1, 0, 'place/edge-mismatch'], // B's field against D's city
      [1, 0, 0, 'place/edge-mismatch'], // B's field against D's road
      [-1, 0, 2, 'place/edge-mismatch'],
      [0, 1, 3, null],
    ],
  },
  {
    // digest-classic.md, Turn 1 "Rotation is free". E (cap north) above D's city: only E@2
    // (N=F E=F S=C W=F) brings its city to D's; E@3 (city west) on D's road is a city-road clash.
    name: 'placement: rotation is free; the cap tile E fits on top of the start city only turned twice (digest-classic Turn 1)',
    turns: [],
    tile: 'E',
    tries: [
      [0, -1, 0, 'place/edge-mismatch'],
      [0, -1, 1, 'place/edge-mismatch'],
      [0, -1, 2, null],
      [0, -1, 3, 'place/edge-mismatch'],
      [1, 0, 3, 'place/edge-mismatch'], // city W against D's road
    ],
  },
  {
    // digest-classic.md, Turn 1 "every edge it shares must match". Cell 1,-1 touches U@0 at 1,0
    // (its N edge: F) and F@1 at 0,-1 (city N-S, its E edge: F). E@0 (C F F F) and E@1 (F C F F)
    // match both; E@2 puts its city on U's field, E@3 on F's field.
    //        . [1,-1]
    //   F@1 (C)  ?          F@1: N=C E=F S=C W=F
    //   D        U@0        U@0: N=F E=R S=F W=R
    name: 'placement: a tile touching two tiles must match both edges at once (digest-classic Turn 1)',
    turns: [
      ['U', 1, 0, 0],
      ['F', 0, -1, 1],
    ],
    tile: 'E',
    tries: [
      [1, -1, 0, null],
      [1, -1, 1, null],
      [1, -1, 2, 'place/edge-mismatch'],
      [1, -1, 3, 'place/edge-mismatch'],
    ],
  },
  {
    // digest-classic.md, Turn 1 "every edge it shares must match". The hole at 0,1 has three
    // neighbours: D's field (N), the road of V@3 at -1,1 (W) and the road of V@0 at 1,1 (E).
    //   U@0  D    U@0       U: road W-E
    //   V@3  [ ]  V@0       V@3: N=F E=R S=R W=F;  V@0: N=F E=F S=R W=R
    // U@0 and U@2 (F R F R) match all three; U@1 and U@3 bring a road to D's field.
    name: 'placement: a tile in a hole must match all three neighbours; U fits two ways, none of its quarter turns does (digest-classic Turn 1)',
    turns: [
      ['U', 1, 0, 0],
      ['U', -1, 0, 0],
      ['V', -1, 1, 3],
      ['V', 1, 1, 0],
    ],
    tile: 'U',
    tries: [
      [0, 1, 0, null],
      [0, 1, 1, 'place/edge-mismatch'],
      [0, 1, 2, null],
      [0, 1, 3, 'place/edge-mismatch'],
    ],
  },
  {
    // Same hole: K (C F R R) turned 3 is N=F E=R S=R W=C: it matches D above and the road to the
    // east, but its city meets the road to the west; no turn of K fits the hole at all.
    name: 'placement: matching two of three neighbours is not enough; K fits the three-sided hole in no rotation (digest-classic Turn 1)',
    turns: [
      ['U', 1, 0, 0],
      ['U', -1, 0, 0],
      ['V', -1, 1, 3],
      ['V', 1, 1, 0],
    ],
    tile: 'K',
    tries: [
      [0, 1, 0, 'place/edge-mismatch'],
      [0, 1, 1, 'place/edge-mismatch'],
      [0, 1, 2, 'place/edge-mismatch'],
      [0, 1, 3, 'place/edge-mismatch'],
    ],
  },
];

describe('classic placement', () => {
  test.each(placementRows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    checkPlacements(rules, drawn(row.turns, row.tile), row);
  });

  // Independent check of the matching rule itself: every legal placement of every tile next to
  // a small board matches on each shared edge, computed here from the printed tile definitions.
  test('placement: legal moves are exactly the placements whose shared edges all match, by an independent edge check (digest-classic Turn 1)', () => {
    const base = play(new Scenario(rules), [
      ['U', 1, 0, 0],
      ['F', 0, -1, 1],
      ['V', -1, 0, 2],
    ]).state;
    const board = new Map(base.tiles.map((t) => [`${t.x},${t.y}`, t]));
    const side = (id: string, rotation: number, s: number): string => {
      // Board side s shows printed side (s - rotation); its middle port names the edge type.
      const printed = 'NESW'[(s - rotation + 4) % 4]!;
      const owner = DEFS.get(id)!.features.find((f) => f.ports.includes(`${printed}2` as Port))!;
      return owner.kind;
    };
    const delta = [
      [0, -1],
      [1, 0],
      [0, 1],
      [-1, 0],
    ] as const;
    const pending = base.step.kind === 'place-tile' ? base.step.tile : '';
    for (const id of DEFS.keys()) {
      if (base.bag[rules.tileIndex[id]!]! === 0 && id !== pending) continue;
      const state = rigDraw(rules, base, id);
      const expected: string[] = [];
      for (let x = -3; x <= 3; x++) {
        for (let y = -3; y <= 3; y++) {
          if (board.has(`${x},${y}`)) continue;
          for (let r = 0; r < 4; r++) {
            let touches = false;
            let ok = true;
            delta.forEach(([dx, dy], s) => {
              const n = board.get(`${x + dx},${y + dy}`);
              if (n === undefined) return;
              touches = true;
              if (side(id, r, s) !== side(n.id, n.rotation, (s + 2) % 4)) ok = false;
            });
            if (touches && ok) expected.push(`${x},${y}@${r}`);
          }
        }
      }
      const actual = legalMoves(rules, state).flatMap((m) => (m.type === 'place' ? [`${m.x},${m.y}@${m.rotation}`] : []));
      expect(actual.sort(), id).toEqual(expected.sort());
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Unplaceable tiles (digest, Turn 1 "If the tile fits nowhere, it is removed from the game and
// the player draws another")

describe('classic unplaceable tile', () => {
  // After E@2 closes the start city (D's cap + E's cap), no open cell demands only city edges:
  // the frontier asks for fields (around E, below D) or roads (east and west of D). C (city on
  // all four edges) therefore fits nowhere.
  //        F
  //      F E@2 F        E@2: N=F E=F S=C W=F
  //      R  D  R
  //         F
  test('unplaceable: a drawn tile that fits nowhere (C after the start city is closed) is discarded, counted, and another tile drawn (digest-classic Turn 1)', () => {
    const C = rules.tileIndex['C']!;
    const U = rules.tileIndex['U']!;
    // First prove that C fits nowhere on that board.
    const closed = play(new Scenario(rules), [['E', 0, -1, 2]]).state;
    expect(legalMoves(rules, rigDraw(rules, closed, 'C'))).toEqual([]);

    // Now let the draw after that turn come from a bag of exactly {C, U}. Which comes first is
    // the game's own chance: try seeds until C is drawn first (deterministic: the same seed wins
    // every run), then check the discard.
    let found: { events: readonly GameEvent[]; state: GameState } | null = null;
    for (let i = 0; i < 64 && found === null; i++) {
      const sc = new Scenario(rules, 2, `discard-${i}`);
      const s = rigDraw(rules, sc.state, 'E');
      s.bag.fill(0);
      s.bag[C] = 1;
      s.bag[U] = 1;
      s.bagSize = 2;
      sc.state = s;
      sc.play({ type: 'place', player: 0, x: 0, y: -1, rotation: 2 });
      sc.play({ type: 'pass', player: 0 });
      if (sc.events.some((e) => e.type === 'tile-discarded')) found = { events: sc.events, state: sc.state };
    }
    expect(found, 'no seed drew C before U').not.toBeNull();
    const { events, state } = found!;
    const draws = events.filter((e) => e.type === 'tile-drawn' || e.type === 'tile-discarded');
    expect(draws).toEqual([
      { type: 'tile-drawn', player: 1, tile: 'C' },
      { type: 'tile-discarded', player: 1, tile: 'C' },
      { type: 'tile-drawn', player: 1, tile: 'U' },
    ]);
    expect(state.discarded[C]).toBe(1);
    expect(state.discarded.reduce((a, b) => a + b, 0)).toBe(1);
    expect(state.bag.reduce((a, b) => a + b, 0)).toBe(0);
    expect(state.step).toEqual({ kind: 'place-tile', player: 1, tile: 'U' });
  });

  test('unplaceable: in seeded random games every discarded tile really fitted nowhere and is counted in `discarded` (digest-classic Turn 1)', () => {
    let discards = 0;
    for (let i = 0; i < 200 && discards < 3; i++) {
      const g = newGame(rules, { players: 2, seed: `discard-search-${i}` });
      if (!g.ok) throw new Error(g.error.message);
      const sim = createSimulator(rules, g.value, { events: true });
      if (!sim.ok) throw new Error(sim.error.message);
      const random = createRandomSource(`discard-moves-${i}`);
      let counted = 0;
      while (!sim.value.isOver()) {
        sim.value.playRandom(random);
        const events = sim.value.takeEvents();
        for (const e of events) {
          if (e.type !== 'tile-discarded') continue;
          counted++;
          discards++;
          // The board the tile was drawn for is the board after this move: it fits nowhere.
          const board = sim.value.snapshot();
          const s: GameState = { ...board, step: { kind: 'place-tile', player: e.player, tile: e.tile } };
          expect(legalMoves(rules, s), `${e.tile} in game ${i}`).toEqual([]);
        }
      }
      const end = sim.value.state;
      expect(end.discarded.reduce((a, b) => a + b, 0)).toBe(counted);
      // Conservation: 72 tiles = placed (start tile included) + discarded + left in the bag (0).
      expect(end.tiles.length + counted).toBe(rules.tileCount);
    }
    expect(discards, 'no discard found in 200 seeded random games').toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Deployment (digest, Turn 2)

describe('classic deployment', () => {
  test('deploy: only on a feature of the tile just placed; the start city next to it is not a target (digest-classic Turn 2)', () => {
    // digest-classic.md, Turn 2 "Deploy one follower ... onto one feature of the tile just placed".
    const sc = atDeploy([], ['U', 1, 0, 0]);
    expect(legalMoves(rules, sc.state)).toEqual([
      { type: 'deploy', player: 0, feature: 'r1' },
      { type: 'deploy', player: 0, feature: 'f1' },
      { type: 'deploy', player: 0, feature: 'f2' },
      { type: 'pass', player: 0 },
    ]);
    // 'c1' is D's city, one tile away: U has no such feature.
    expect(whyIllegal(rules, sc.state, { type: 'deploy', player: 0, feature: 'c1' })?.code).toBe('deploy/unknown-feature');
    sc.play({ type: 'deploy', player: 0, feature: 'r1' });
    const deployed = sc.events.find((e) => e.type === 'follower-deployed');
    expect(deployed).toEqual({ type: 'follower-deployed', player: 0, at: { kind: 'road', x: 1, y: 0, feature: 'r1' } });
    expect(sc.state.supply).toEqual([6, 7]);
  });

  test("deploy: not on a feature already holding another player's follower anywhere along it (digest-classic Turn 2)", () => {
    // digest-classic.md, Turn 2 "Not allowed if that feature, followed across all connected
    // placed tiles, already holds any follower (of any player ...)". Road: U@0 1,0 (thief of
    // player 0) - D - ... ; player 1 extends it with U@0 at 2,0.
    const sc = atDeploy([['U', 1, 0, 0, 'r1']], ['U', 2, 0, 0]);
    expect(whyIllegal(rules, sc.state, { type: 'deploy', player: 1, feature: 'r1' })?.code).toBe('deploy/feature-occupied');
    // The fields on either side of the road are free.
    expect(whyIllegal(rules, sc.state, { type: 'deploy', player: 1, feature: 'f1' })).toBeNull();
    expect(legalMoves(rules, sc.state).map((m) => (m.type === 'deploy' ? m.feature : m.type))).toEqual(['f1', 'f2', 'pass']);
  });

  test("deploy: not on a feature holding one's own follower either (digest-classic Turn 2)", () => {
    // digest-classic.md, Turn 2 "... (of any player, including oneself)". Player 0's thief on
    // U@0 at 1,0; player 1 lays B below D; player 0 extends the road west with U@0 at -1,0: the
    // road -1,0 .. 1,0 runs through D and already holds player 0's thief.
    const sc = atDeploy(
      [
        ['U', 1, 0, 0, 'r1'],
        ['B', 0, 1, 0],
      ],
      ['U', -1, 0, 0],
    );
    expect(whyIllegal(rules, sc.state, { type: 'deploy', player: 0, feature: 'r1' })?.code).toBe('deploy/feature-occupied');
    expect(feature(sc.state, { x: -1, y: 0, feature: 'r1' }).followers).toEqual([{ player: 0, x: 1, y: 0, feature: 'r1' }]);
  });

  test('deploy: the two caps of tile I are separate cities: both are offered, and a knight on one does not block the other (digest-classic Turn 2)', () => {
    // digest-classic.md, Turn 2 "Separate features on the same tile are separate (two city parts
    // that do not connect on the tile are two cities)". I@2 below D: printed c1 (N) now faces S,
    // printed c2 (W) now faces E; N=F against D's field.
    //    D
    //   I@2  E@3       E@3: city faces W, closing I's c2 (2 tiles: 4 points)
    const sc = atDeploy([], ['I', 0, 1, 2]);
    expect(legalMoves(rules, sc.state).map((m) => (m.type === 'deploy' ? m.feature : m.type))).toEqual(['c1', 'c2', 'f1', 'pass']);
    sc.play({ type: 'deploy', player: 0, feature: 'c1' });
    sc.place('E', 1, 1, 3, 'c1');
    expect(sortedScored(scoredOf(sc.events))).toEqual([[1, 4, 'city', 'completed']]);
    expect(sc.state.scores).toEqual([0, 4]);
    expect(sc.state.supply).toEqual([6, 7]);
    const c1 = feature(sc.state, { x: 0, y: 1, feature: 'c1' });
    expect(c1).toMatchObject({ kind: 'city', complete: false, open: 3, majority: [0] });
    expect(cells(c1.tiles)).toEqual(['0,1']);
    const c2 = feature(sc.state, { x: 0, y: 1, feature: 'c2' });
    expect(c2).toMatchObject({ kind: 'city', complete: true, open: 0, followers: [] });
    expect(cells(c2.tiles)).toEqual(['0,1', '1,1']);
  });

  test('deploy: with no follower left in supply the deploy step is skipped, and a deploy is refused (digest-classic Turn 2)', () => {
    // digest-classic.md, Material "Each player has 7 followers in supply"; Turn 2 deploys "from
    // supply". Player 0 puts monks on six cloisters in a row below the road and a thief on the
    // road (7 followers, nothing completes: row y=2 stays empty); player 1 lays road tiles east.
    //   V@2 U   D   U   U   U   U   U   U   U
    //   A   B   B   B   B   A              (y=1, x=-2..3)
    const sc = play(new Scenario(rules), [
      ['B', 0, 1, 0, 'm1'],
      ['U', 1, 0, 0],
      ['B', 1, 1, 0, 'm1'],
      ['U', 2, 0, 0],
      ['B', -1, 1, 0, 'm1'],
      ['U', 3, 0, 0],
      ['B', 2, 1, 0, 'm1'],
      ['U', 4, 0, 0],
      ['A', 3, 1, 0, 'm1'],
      ['U', 5, 0, 0],
      ['A', -2, 1, 0, 'm1'],
      ['U', 6, 0, 0],
      ['U', -1, 0, 0, 'r1'],
      ['U', 7, 0, 0],
    ]);
    expect(sc.state.supply).toEqual([0, 7]);
    expect(sc.state.scores).toEqual([0, 0]);
    // Player 0's eighth tile: V@2 (road N-E) west of the road. No deploy step: straight to player 1.
    const before = sc.events.length;
    sc.place('V', -2, 0, 2);
    expect(sc.state.step.kind === 'place-tile' && sc.state.step.player).toBe(1);
    expect(sc.events.slice(before).some((e) => e.type === 'follower-deployed')).toBe(false);
    expect(sc.state.supply).toEqual([0, 7]);

    // And when a deploy step does exist (a state whose supply is set to 0 by hand), the deploy is refused.
    const d = atDeploy([], ['U', 1, 0, 0]);
    const empty: GameState = { ...d.state, supply: [0, 7] };
    expect(whyIllegal(rules, empty, { type: 'deploy', player: 0, feature: 'r1' })?.code).toBe('deploy/no-followers');
    expect(whyIllegal(rules, empty, { type: 'pass', player: 0 })).toBeNull();
  });

  test('deploy: a knight put on a city that the same tile completes scores at once and goes back to supply (digest-classic Turn 3)', () => {
    // digest-classic.md, Turn 3 "Score completed features (all of them, including one the
    // follower was just put on)". H@0 above D: its south cap c2 closes D's cap (2 tiles: 4);
    // its north cap c1 is a separate, open city.
    const sc = play(new Scenario(rules), [['H', 0, -1, 0, 'c2']]);
    expect(sortedScored(scoredOf(sc.events))).toEqual([[0, 4, 'city', 'completed']]);
    expect(sc.state.supply).toEqual([7, 7]);
    expect(sc.state.followers).toEqual([]);
    const order = sc.events.map((e) => e.type).filter((t) => t !== 'tile-drawn');
    expect(order).toEqual(['tile-placed', 'follower-deployed', 'feature-completed', 'scored', 'follower-returned', 'turn-ended']);
    expect(feature(sc.state, { x: 0, y: -1, feature: 'c1' })).toMatchObject({ kind: 'city', complete: false, open: 3, followers: [] });
  });
});

// ---------------------------------------------------------------------------------------------
// Scoring positions (digest, Turn 3 and Game end)

interface ScoringRow {
  readonly name: string;
  /** Turns played in order (players 0, 1, 0, ...). */
  readonly turns: readonly Turn[];
  /** When set, this turn is played last and is the last tile of the game (final scoring follows). */
  readonly last?: Turn;
  /** Every `scored` event of the game (order free). */
  readonly scored: readonly Scored[];
  readonly scores: readonly number[];
  /** Followers in supply at the end. */
  readonly supply: readonly number[];
  /** When set, projectedScores just before `last` is played. */
  readonly projected?: readonly number[];
  /** Further checks on the final scenario. */
  readonly check?: (sc: Scenario) => void;
}

const scoringRows: readonly ScoringRow[] = [
  // --- Roads ---------------------------------------------------------------------------------
  {
    // digest-classic.md, Turn 3 "Road: complete when both ends stop (crossing, ...) 1 point per tile".
    //   W@0  D  W@0       W (junction FRRR): r1 E, r2 S, r3 W stubs
    // Player 0's thief on r3 of the east junction; the west junction closes D's road: W, D, W = 3.
    name: 'road: a three-tile road closed by two junctions scores 3 (digest-classic Turn 3)',
    turns: [
      ['W', 1, 0, 0, 'r3'],
      ['W', -1, 0, 0],
    ],
    scored: [[0, 3, 'road', 'completed']],
    scores: [3, 0],
    supply: [7, 7],
    check: (sc) => {
      const done = sc.events.filter((e) => e.type === 'feature-completed');
      expect(done).toEqual([{ type: 'feature-completed', feature: { kind: 'road', x: 0, y: 0, feature: 'r1' }, tiles: 3 }]);
    },
  },
  {
    // digest-classic.md, Turn 3 "Road: complete when both ends stop (... city, cloister ...)".
    //   T@3  D  A@1       A@1: cloister, road stub W;  T@3: city N,W,S, road stub E into the city
    name: 'road: a road ending at a city gate and at a cloister is complete, 3 tiles score 3 (digest-classic Turn 3)',
    turns: [
      ['A', 1, 0, 1, 'r1'],
      ['T', -1, 0, 3],
    ],
    scored: [[0, 3, 'road', 'completed']],
    scores: [3, 0],
    supply: [7, 7],
  },
  {
    // digest-classic.md, Turn 3 "Road: complete when both ends stop (... or other end of a loop)".
    //    D
    //   V@3 V@0        V@3: road E-S  V@0: road S-W
    //   V@2 V@1        V@2: road N-E  V@1: road N-W
    name: 'road: a loop of four curves (V) is complete and scores its 4 tiles once (digest-classic Turn 3)',
    turns: [
      ['V', 0, 1, 3, 'r1'],
      ['V', 1, 1, 0],
      ['V', 0, 2, 2],
      ['V', 1, 2, 1],
    ],
    scored: [[0, 4, 'road', 'completed']],
    scores: [4, 0],
    supply: [7, 7],
    check: (sc) => {
      const done = sc.events.filter((e) => e.type === 'feature-completed');
      expect(done.map((e) => e.type === 'feature-completed' && e.tiles)).toEqual([4]);
    },
  },
  {
    // digest-classic.md, Turn 3 "A tile counts once per feature even if the feature crosses it twice".
    //   D  W@0  V@0       the road leaves the junction W east (r1), turns south, west, north
    //      V@2  V@1       and comes back into the same junction from the south (r2)
    // Tiles: W, V, V, V = 4 (W is entered twice but counts once).
    name: 'road: a road leaving a junction and coming back into it scores that tile once: 4, not 5 (digest-classic Turn 3)',
    turns: [
      ['W', 1, 0, 0, 'r1'],
      ['V', 2, 0, 0],
      ['V', 2, 1, 1],
      ['V', 1, 1, 2],
    ],
    scored: [[0, 4, 'road', 'completed']],
    scores: [4, 0],
    supply: [7, 7],
    check: (sc) => {
      const done = sc.events.filter((e) => e.type === 'feature-completed');
      expect(done.map((e) => e.type === 'feature-completed' && e.tiles)).toEqual([4]);
      // The stub r3 of the same junction belongs to another road (through D), still open.
      expect(feature(sc.state, { x: 1, y: 0, feature: 'r3' })).toMatchObject({ kind: 'road', complete: false, open: 1 });
    },
  },
  // --- Cities --------------------------------------------------------------------------------
  {
    // digest-classic.md, Turn 3 "City: complete when its walls close ... 2 points per tile + 2 per pennant".
    //   E@2          cap facing S
    //   F@1          city band N-S with a pennant
    //   D            cap facing N
    // 3 tiles, 1 pennant: 2*3 + 2*1 = 8.
    name: 'city: a complete city of 3 tiles with a pennant scores 2 per tile + 2 per pennant = 8 (digest-classic Turn 3)',
    turns: [
      ['F', 0, -1, 1, 'c1'],
      ['E', 0, -2, 2],
    ],
    scored: [[0, 8, 'city', 'completed']],
    scores: [8, 0],
    supply: [7, 7],
  },
  {
    // digest-classic.md, Turn 3 "A tile counts once per feature even if the feature crosses it
    // twice" and Turn 2 "two city parts that do not connect on the tile are two cities".
    // Tile I has two separate caps (N and W). Three corner tiles N join both caps into one ring:
    //    D
    //   N@2 N@3      N@2: city E,S   N@3: city W,S
    //   N@1 I@0      N@1: city N,E   I@0: caps N and W
    // The city covers I twice (once per cap) but has 4 tiles: 2*4 = 8, not 10.
    name: "city: a city that reaches both separate caps of one tile (I) counts that tile once: 4 tiles score 8 (digest-classic Turn 3)",
    turns: [
      ['N', 0, 1, 2, 'c1'],
      ['N', 1, 1, 3],
      ['N', 0, 2, 1],
      ['I', 1, 2, 0],
    ],
    scored: [[0, 8, 'city', 'completed']],
    scores: [8, 0],
    supply: [7, 7],
    check: (sc) => {
      const done = sc.events.filter((e) => e.type === 'feature-completed');
      expect(done.map((e) => e.type === 'feature-completed' && e.tiles)).toEqual([4]);
      const city = feature(sc.state, { x: 1, y: 2, feature: 'c2' });
      expect(city).toMatchObject({ kind: 'city', complete: true, open: 0, pennants: 0 });
      expect(cells(city.tiles)).toEqual(['0,1', '0,2', '1,1', '1,2']);
      expect(feature(sc.state, { x: 1, y: 2, feature: 'c1' }).tiles).toEqual(city.tiles);
    },
  },
  {
    // digest-classic.md, Turn 2 "Separate features on the same tile are separate". Tile H@1
    // (caps E and W) below the road tile U: player 1's knight on the east cap c1 does not stop
    // player 0 from closing the west cap c2 with E@1 and deploying there.
    //    D
    //    U@0
    //   E@1 H@1        E@1: cap facing E; H@1: c1 faces E, c2 faces W
    name: "city: the two caps of tile H are separate cities; closing one scores 4 and leaves the knight on the other (digest-classic Turn 2)",
    turns: [
      ['U', 0, 1, 0],
      ['H', 0, 2, 1, 'c1'],
      ['E', -1, 2, 1, 'c1'],
    ],
    scored: [[0, 4, 'city', 'completed']],
    scores: [4, 0],
    supply: [7, 6],
    check: (sc) => {
      expect(feature(sc.state, { x: 0, y: 2, feature: 'c1' })).toMatchObject({ complete: false, majority: [1] });
      expect(feature(sc.state, { x: 0, y: 2, feature: 'c2' })).toMatchObject({ complete: true, followers: [] });
    },
  },
  {
    // digest-classic.md, Game end "Incomplete city: 1 per tile + 1 per pennant".
    //   F@1 (pennant, open to the north)
    //   D    U@0 <- last tile of the game
    // 2 tiles + 1 pennant = 3. Followers still on the board at the end stay there.
    name: 'city: an incomplete city at the end scores 1 per tile + 1 per pennant = 3 (digest-classic Game end)',
    turns: [['F', 0, -1, 1, 'c1']],
    last: ['U', 1, 0, 0],
    scored: [[0, 3, 'city', 'final']],
    scores: [3, 0],
    supply: [6, 7],
    projected: [3, 0],
    check: (sc) => {
      expect(sc.state.step).toEqual({ kind: 'game-over', winners: [0] });
    },
  },
  // --- Cloisters -----------------------------------------------------------------------------
  {
    // digest-classic.md, Turn 3 "Cloister: complete when all 8 surrounding cells hold tiles. 9 points."
    //   U@0  D   U@0
    //   V@0  B   V@3       B: the cloister (player 0's monk)
    //   V@1  E@2 V@2       the eighth neighbour, V@2 at 1,2, completes it
    name: 'cloister: a cloister with all 8 neighbours scores 9 (digest-classic Turn 3)',
    turns: [
      ['B', 0, 1, 0, 'm1'],
      ['U', 1, 0, 0],
      ['U', -1, 0, 0],
      ['V', -1, 1, 0],
      ['V', 1, 1, 3],
      ['V', -1, 2, 1],
      ['E', 0, 2, 2],
      ['V', 1, 2, 2],
    ],
    scored: [[0, 9, 'cloister', 'completed']],
    scores: [9, 0],
    supply: [7, 7],
    check: (sc) => {
      const done = sc.events.filter((e) => e.type === 'feature-completed');
      expect(done).toEqual([{ type: 'feature-completed', feature: { kind: 'cloister', x: 0, y: 1, feature: 'm1' }, tiles: 9 }]);
    },
  },
  {
    // digest-classic.md, Turn 3 "Score completed features (all of them, including one the
    // follower was just put on)" and "Cloister: ... 9 points". The same ring as above is laid
    // first; player 1 then drops B into the four-sided hole (fields on all sides: it matches
    // four neighbours at once) with a monk, which scores 9 and comes back in the same turn.
    name: 'cloister: a monk put on a cloister laid into a full ring scores 9 at once and returns (digest-classic Turn 3)',
    turns: [
      ['U', 1, 0, 0],
      ['U', -1, 0, 0],
      ['V', -1, 1, 0],
      ['V', 1, 1, 3],
      ['V', -1, 2, 1],
      ['V', 1, 2, 2],
      ['E', 0, 2, 2],
      ['B', 0, 1, 0, 'm1'],
    ],
    scored: [[1, 9, 'cloister', 'completed']],
    scores: [0, 9],
    supply: [7, 7],
  },
  {
    // digest-classic.md, Game end "Incomplete cloister: 1 + 1 per tile among its 8 neighbours".
    //   U@0  D   U@0
    //   .    B   V@3 <- last tile
    // Neighbours present: -1,0  0,0  1,0  1,1 = 4, so 1 + 4 = 5.
    name: 'cloister: an incomplete cloister at the end scores 1 + 1 per neighbour = 5 (digest-classic Game end)',
    turns: [
      ['B', 0, 1, 0, 'm1'],
      ['U', 1, 0, 0],
      ['U', -1, 0, 0],
    ],
    last: ['V', 1, 1, 3],
    scored: [[0, 5, 'cloister', 'final']],
    scores: [5, 0],
    supply: [6, 7],
    projected: [4, 0],
  },
  // --- Majorities ----------------------------------------------------------------------------
  {
    // digest-classic.md, Turn 3 "tied players all score in full" and "Features joined by a new
    // tile become one feature with all their followers".
    //   E@1  R@2  E@3      player 0's knight on the west cap, player 1's on the east cap;
    //   U@0  D    U@0      R@2 (city E,S,W) joins both caps and D: 4 tiles, 8 points each
    name: 'majority: two players with one knight each on a city joined later both score in full (8 each) (digest-classic Turn 3)',
    turns: [
      ['U', 1, 0, 0],
      ['U', -1, 0, 0],
      ['E', -1, -1, 1, 'c1'],
      ['E', 1, -1, 3, 'c1'],
      ['R', 0, -1, 2],
    ],
    scored: [
      [0, 8, 'city', 'completed'],
      [1, 8, 'city', 'completed'],
    ],
    scores: [8, 8],
    supply: [7, 7],
    check: (sc) => {
      expect(sc.events.filter((e) => e.type === 'follower-returned').map((e) => e.type === 'follower-returned' && e.player).sort()).toEqual([0, 1]);
    },
  },
  {
    // digest-classic.md, Turn 3 "The player with the most followers on the feature scores" and
    // "Followers on a scored feature go back to their owners' supply".
    //   E@0  E@2  U@0         E@2 at 0,-2: player 0's second knight, cap facing S
    //   E@1  C    E@3         C (city on all 4 edges, pennant) joins the three caps and D
    //   U@0  D    U@0  U@0
    // 5 tiles + 1 pennant = 12 for player 0 (2 knights); player 1 (1 knight) gets nothing; all 3 return.
    name: 'majority: 2 knights against 1 on a joined city: only the majority scores (12), all three knights return (digest-classic Turn 3)',
    turns: [
      ['U', 1, 0, 0],
      ['U', -1, 0, 0],
      ['E', -1, -1, 1, 'c1'],
      ['E', 1, -1, 3, 'c1'],
      ['E', -1, -2, 0],
      ['U', 2, 0, 0],
      ['E', 0, -2, 2, 'c1'],
      ['C', 0, -1, 0],
    ],
    scored: [[0, 12, 'city', 'completed']],
    scores: [12, 0],
    supply: [7, 7],
    check: (sc) => {
      expect(sc.events.filter((e) => e.type === 'follower-returned').map((e) => e.type === 'follower-returned' && e.player).sort()).toEqual([0, 0, 1]);
      expect(sc.state.followers).toEqual([]);
    },
  },
  // --- Farmers -------------------------------------------------------------------------------
  {
    // digest-classic.md, Turn 3 "Farmers never come back during the game". Player 0's farmer
    // on the small field inside the loop (f2 of V@3, its SE corner); the loop closes the road
    // (player 1's thief scores 4 and returns) and encloses the field, which still never scores.
    name: 'farmers: a farmer stays on the board during the game, even on a fully enclosed field (digest-classic Turn 3)',
    turns: [
      ['V', 0, 1, 3, 'f2'],
      ['V', 1, 1, 0, 'r1'],
      ['V', 0, 2, 2],
      ['V', 1, 2, 1],
    ],
    scored: [[1, 4, 'road', 'completed']],
    scores: [0, 4],
    supply: [6, 7],
    check: (sc) => {
      const field = feature(sc.state, { x: 0, y: 1, feature: 'f2' });
      expect(field).toMatchObject({ kind: 'field', complete: false, open: 0, followers: [{ player: 0, x: 0, y: 1, feature: 'f2' }] });
      expect(cells(field.tiles)).toEqual(['0,1', '0,2', '1,1', '1,2']);
    },
  },
  {
    // digest-classic.md, Game end "Fields: ... 3 points for each completed city that touches the
    // field". H@0 above D: c2 + D's cap is a complete city, c1 (north cap) stays open. H's field
    // touches both: only the complete one counts, 3 points.
    //   H@0   farmer on f1 (E and W strips, touching both caps)
    //   D   U@0 <- last tile
    name: 'farmers: at the end a field scores 3 per completed city it touches; the incomplete city gives nothing (digest-classic Game end)',
    turns: [['H', 0, -1, 0, 'f1']],
    last: ['U', 1, 0, 0],
    scored: [[0, 3, 'field', 'farm']],
    scores: [3, 0],
    supply: [6, 7],
    projected: [3, 0],
  },
  {
    // digest-classic.md, Game end "A city touching several fields counts for each of them (for
    // each field's majority separately)". City D+E@2 (complete). E's field (around E) and D's
    // north strip (extended east by U@0) are two different fields, both touching that city.
    //      E@2         player 0's farmer in E's field
    //      D   U@0     player 1's farmer in U's north strip = D's north strip; last tile
    name: 'farmers: a completed city touching two separate fields scores 3 for each field (digest-classic Game end)',
    turns: [['E', 0, -1, 2, 'f1']],
    last: ['U', 1, 0, 0, 'f1'],
    scored: [
      [0, 3, 'field', 'farm'],
      [1, 3, 'field', 'farm'],
    ],
    scores: [3, 3],
    supply: [6, 6],
    check: (sc) => {
      const a = feature(sc.state, { x: 0, y: -1, feature: 'f1' });
      const b = feature(sc.state, { x: 1, y: 0, feature: 'f1' });
      expect(cells(a.tiles)).toEqual(['0,-1']);
      expect(cells(b.tiles)).toEqual(['0,0', '1,0']);
    },
  },
  {
    // digest-classic.md, Game end "3 points for each completed city that touches the field" (a
    // city, not a tile: counted once). The field runs E@2's field - V@1 - U@0 - D's north strip,
    // touching the city D+E through E and through D.
    //   V@1 E@2
    //   U@0 D
    name: 'farmers: a field touching the same completed city through two tiles counts it once: 3, not 6 (digest-classic Game end)',
    turns: [
      ['E', 0, -1, 2, 'f1'],
      ['U', -1, 0, 0],
    ],
    last: ['V', -1, -1, 1],
    scored: [[0, 3, 'field', 'farm']],
    scores: [3, 0],
    supply: [6, 7],
    check: (sc) => {
      expect(cells(feature(sc.state, { x: 0, y: -1, feature: 'f1' }).tiles)).toEqual(['-1,-1', '-1,0', '0,-1', '0,0']);
    },
  },
  {
    // digest-classic.md, Game end "each field is scored for the farmer majority (ties all score)".
    // As above, but player 1 first put a farmer in D's north strip through U@0 at 1,0; the last
    // tile joins both farms into one field with one farmer each: both score 3.
    //   V@1 E@2
    //   U@0 D   U@0
    name: 'farmers: tied farmers on one field all score in full (3 each) (digest-classic Game end)',
    turns: [
      ['E', 0, -1, 2, 'f1'],
      ['U', 1, 0, 0, 'f1'],
      ['U', -1, 0, 0],
    ],
    last: ['V', -1, -1, 1],
    scored: [
      [0, 3, 'field', 'farm'],
      [1, 3, 'field', 'farm'],
    ],
    scores: [3, 3],
    supply: [6, 6],
    // Before the join: two fields, each touching the closed city D+E: 3 each already.
    projected: [3, 3],
    check: (sc) => {
      expect(feature(sc.state, { x: 1, y: 0, feature: 'f1' })).toMatchObject({ counts: [1, 1], majority: [0, 1] });
      expect(sc.state.step).toEqual({ kind: 'game-over', winners: [0, 1] });
    },
  },
  // --- Final scoring, all kinds at once ------------------------------------------------------
  {
    // digest-classic.md, Game end (incomplete road, city, cloister; fields). Position:
    //        E@2          1,-2 closes the cap of E@0 below it (no follower: nobody scores)
    //   F@1  E@0          player 0's knight on F (city D+F: 2 tiles + pennant, open north)
    //   D    U@0          player 1's thief on the road D-U (2 tiles, open both ends)
    //   B                 player 0's monk (neighbours D, U: 1 + 2)
    // player 1's farmer on E@0's field = F's east strip + U's and D's north strip; it touches
    // the closed city E@0+E@2 (3) and the open city D+F (nothing). A last V@0 at -1,-1 touches
    // none of it. Expected: player 0: 3 + 3 = 6; player 1: 2 + 3 = 5.
    name: 'final scoring: incomplete city, road, cloister and a farm scored together equal the projection before the last tile: 6 and 5 (digest-classic Game end)',
    turns: [
      ['F', 0, -1, 1, 'c1'],
      ['U', 1, 0, 0, 'r1'],
      ['B', 0, 1, 0, 'm1'],
      ['E', 1, -1, 0, 'f1'],
      ['E', 1, -2, 2],
    ],
    last: ['V', -1, -1, 0],
    scored: [
      [0, 3, 'city', 'final'],
      [0, 3, 'cloister', 'final'],
      [1, 2, 'road', 'final'],
      [1, 3, 'field', 'farm'],
    ],
    scores: [6, 5],
    supply: [5, 5],
    projected: [6, 5],
    check: (sc) => {
      expect(sc.state.step).toEqual({ kind: 'game-over', winners: [0] });
      expect(projectedScores(rules, sc.state)).toEqual([6, 5]);
    },
  },
];

describe('classic scoring', () => {
  test.each(scoringRows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    const sc = play(new Scenario(rules), row.turns);
    if (row.last !== undefined) {
      if (row.projected !== undefined) expect(projectedScores(rules, sc.state)).toEqual(row.projected);
      playLast(sc, row.last);
    }
    expect(sortedScored(scoredOf(sc.events))).toEqual(sortedScored(row.scored));
    expect(sc.state.scores).toEqual(row.scores);
    expect(sc.state.supply).toEqual(row.supply);
    // Followers are conserved: supply + on the board = 7 each.
    for (let p = 0; p < 2; p++) {
      expect(sc.state.supply[p]! + sc.state.followers.filter((f) => f.player === p).length).toBe(7);
    }
    row.check?.(sc);
  });
});

// ---------------------------------------------------------------------------------------------
// Queries on a hand-worked mid-game position

describe('classic queries', () => {
  // The position of the last scoring row, before its last tile (5 turns):
  //        E@2              1,-2
  //   F@1  E@0              0,-1 (knight P0)   1,-1 (farmer P1 in f1)
  //   D    U@0              0,0                1,0 (thief P1)
  //   B                     0,1 (monk P0)
  const position = (): GameState =>
    play(new Scenario(rules), [
      ['F', 0, -1, 1, 'c1'],
      ['U', 1, 0, 0, 'r1'],
      ['B', 0, 1, 0, 'm1'],
      ['E', 1, -1, 0, 'f1'],
      ['E', 1, -2, 2],
    ]).state;

  test('projectedScores: mid-game, the scores if the game ended now are the hand-computed 6 and 5 (digest-classic Game end)', () => {
    const state = position();
    expect(state.scores).toEqual([0, 0]);
    // Player 0: city D+F incomplete 2 + 1 pennant = 3; cloister 1 + 2 neighbours = 3.
    // Player 1: road D+U 2; farm touching the closed city E@0+E@2: 3.
    expect(projectedScores(rules, state)).toEqual([6, 5]);
    // Projection does not touch the state.
    expect(state.scores).toEqual([0, 0]);
    expect(state.step.kind).toBe('place-tile');
  });

  test('featureAt: kind, completeness, tiles, pennants, followers and majority by local feature id and by board port (digest-classic Turn 2-3)', () => {
    const state = position();
    // The city D+F, asked through F's local id and through D's north port.
    const city = feature(state, { x: 0, y: -1, feature: 'c1' });
    expect(city).toMatchObject({
      kind: 'city',
      complete: false,
      open: 3, // F's north edge
      pennants: 1,
      followers: [{ player: 0, x: 0, y: -1, feature: 'c1' }],
      counts: [1, 0],
      majority: [0],
    });
    expect(cells(city.tiles)).toEqual(['0,-1', '0,0']);
    expect(feature(state, { x: 0, y: 0, port: 'N2' })).toEqual(city);
    expect(feature(state, { x: 0, y: -1, port: 'S1' })).toEqual(city); // F@1: printed E3 lies at board S1

    // The road, through the middle port of U's west edge.
    const road = feature(state, { x: 1, y: 0, port: 'W2' });
    expect(road).toMatchObject({ kind: 'road', complete: false, open: 2, pennants: 0, counts: [0, 1], majority: [1] });
    expect(cells(road.tiles)).toEqual(['0,0', '1,0']);
    expect(road.followers).toEqual([{ player: 1, x: 1, y: 0, feature: 'r1' }]);

    // The farm: E@0's field, F's east strip, U's and D's north strips.
    const farm = feature(state, { x: 1, y: -1, port: 'W1' });
    expect(farm).toMatchObject({ kind: 'field', complete: false, majority: [1], counts: [0, 1] });
    expect(cells(farm.tiles)).toEqual(['0,-1', '0,0', '1,-1', '1,0']);
    expect(feature(state, { x: 0, y: 0, port: 'W3' })).toEqual(farm);
    // D's south field is another field (below the road), empty.
    expect(feature(state, { x: 0, y: 0, port: 'W1' })).toMatchObject({ kind: 'field', followers: [], majority: [] });

    // The cloister: its own tile, 6 empty neighbours.
    const cloister = feature(state, { x: 0, y: 1, feature: 'm1' });
    expect(cloister).toMatchObject({ kind: 'cloister', complete: false, open: 6, majority: [0] });
    expect(cells(cloister.tiles)).toEqual(['0,1']);

    // The closed city E@0 + E@2 (nobody on it).
    const closed = feature(state, { x: 1, y: -2, port: 'S2' });
    expect(closed).toMatchObject({ kind: 'city', complete: true, open: 0, followers: [], majority: [] });
    expect(cells(closed.tiles)).toEqual(['1,-1', '1,-2']);

    // Errors: no tile, no such feature.
    const none = featureAt(rules, state, { x: 5, y: 5, feature: 'c1' });
    expect(none.ok ? null : none.error.code).toBe('query/no-tile');
    const bad = featureAt(rules, state, { x: 1, y: 0, feature: 'c1' });
    expect(bad.ok ? null : bad.error.code).toBe('query/no-feature');
  });
});
