/**
 * The Count of Carcassonne (`meeplekit/expansions/count`): one hand-worked position per rule, each
 * row citing its source:
 * - the Czech 2nd-edition rules of the Count, King and Robber and Shrines, "Hrabě z Carcassonne" ("the rules": the 2nd
 *   edition, the authority), with its examples 1 and 2 and its footnotes;
 * - the older Czech sheet of the Count of Carcassonne ("the older sheet": the edition-1 option);
 * - the expansions digest, "Count of Carcassonne" ("the digest");
 * - test/fixtures/classic-tiles.json `count_board` (the City's data).
 * docs/expansions/count.md maps every rule to its code and to the row here.
 *
 * The City lies at x 0..3, y 0..2 (x grows east, y grows south): CO1 CO2 CO3 CO4 / CO5 CO6 CO7
 * CO8 / CO9 CO10 CO11 CO12. Its rim: north fields above CO1..CO3 and CO4's west third, the road
 * stub RN leaving CO4 northwards to 3,-1, RW leaving CO1 westwards to -1,0, RS leaving CO11
 * southwards to 2,3; the city caps CS (CO9, facing 0,3) and CE (CO12, facing 4,2). `Id@r` is a
 * tile turned r quarter turns clockwise. Players alternate 0, 1, ...; the draw is rigged
 * (test/helpers.ts `Scenario`); "red" is player 0 and "blue" player 1 in the rules' examples.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  createRandomSource,
  createRuleset,
  createSimulator,
  featureAt,
  legalMoves,
  newGame,
  offBoardFollowers,
  whyIllegal,
  type Expansion,
  type ExpansionMove,
  type GameEvent,
  type GameState,
  type Move,
  type Port,
  type Ruleset,
} from '../src/index.js';
import {
  CITY_SQUARES,
  COUNT,
  QUARTERS,
  count,
  type CountOptions,
  type CountState,
  type Quarter,
} from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { cloneState } from '../src/core/engine/clone.js';
import { findRoot } from '../src/core/features.js';
import { tileAt } from '../src/core/board.js';
import { cellKey } from '../src/core/state.js';
import { PORTS } from '../src/core/types.js';
import { Scenario, play, rigDraw, scoredOf, type Turn, readableId } from './helpers.js';
import { REFERENCE } from './reference.js';

function rulesOf(...expansions: Expansion[]): Ruleset {
  const r = createRuleset({ game: 'classic', expansions });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

const rules = rulesOf(count());

// ---------------------------------------------------------------------------------------------
// Helpers

function slice(sc: Scenario): CountState {
  return sc.state.ext[COUNT] as CountState;
}

/**
 * Rigs the City (rule tests only, like `rigDraw`): adds followers to quarters, taking them from
 * the players' supplies, and puts the Count where it is wanted.
 */
function rig(sc: Scenario, quarters: Partial<Record<Quarter, readonly number[]>>, at: Quarter = 'castle'): Scenario {
  const s = cloneState(sc.state);
  const c = s.ext[COUNT] as CountState;
  for (const q of QUARTERS) {
    (quarters[q] ?? []).forEach((n, p) => {
      c.quarters[q][p]! += n;
      s.supply[p]! -= n;
    });
  }
  c.count = at;
  sc.state = s;
  return sc;
}

/** Plays `turn` as the last tile (the bag is emptied first); the end of the game may then wait for the Count's moves. */
function placeLast(sc: Scenario, [id, x, y, rotation, feature]: Turn): Scenario {
  const s = rigDraw(sc.rules, sc.state, id);
  s.bag.fill(0);
  s.bagSize = 0;
  sc.state = s;
  const player = sc.player;
  sc.play({ type: 'place', player, x, y, rotation });
  if (sc.state.step.kind === 'deploy') sc.play(feature === undefined ? { type: 'pass', player } : { type: 'deploy', player, feature });
  return sc;
}

/** The Count's events, in order, without their type prefix. */
function countEvents(events: readonly GameEvent[]): Record<string, unknown>[] {
  return events.filter((e) => e.type.startsWith('count/')).map((e) => ({ ...e, type: e.type.slice('count/'.length) }));
}

function moves(sc: Scenario): Move[] {
  return legalMoves(sc.rules, sc.state);
}

/** The root segment of the feature at board port `port` of the tile at `x, y`. */
function rootAt(state: GameState, r: Ruleset, x: number, y: number, port: Port): number {
  const t = tileAt(state, cellKey(x, y));
  const placed = state.tiles[t]!;
  const tile = r.tiles[r.tileIndex[placed.id]!]!;
  return findRoot(state.features.parent, placed.node + tile.portFeature[placed.rotation * 12 + PORTS.indexOf(port)]!);
}

/** Filler for player 0's first turn: a straight road N-S west of CO5, touching nothing that scores. */
const FILLER: Turn = ['U', -1, 1, 1];

// ---------------------------------------------------------------------------------------------
// The City of Carcassonne

describe('count: the City of Carcassonne', () => {
  test('city: 12 squares CO1..CO12 replace the start tile, laid unturned at x 0..3, y 0..2; the base game\'s start tile stays in the box: 3 D tiles and 71 land tiles in play (rules "Příprava hry": "startovní kartička ze základní hry – můžete ji nechat v krabici"; reference count_board)', () => {
    const g = newGame(rules, { players: 2, seed: 'city' });
    if (!g.ok) throw new Error(g.error.message);
    const s = g.value;
    expect(s.tiles.map((t) => [t.id, t.x, t.y, t.rotation, t.player])).toEqual(CITY_SQUARES.map(([id, x, y]) => [id, x, y, 0, -1]));
    // 72 base tiles (one D left in the box) + the City's 12 squares.
    expect(rules.tileCount).toBe(71 + 12);
    // The City leaves no copy in the bag; one D (the base game's start tile) is out of the game.
    const left = (id: string): number => s.bag[rules.tileIndex[id]!]! + (s.step.kind === 'place-tile' && s.step.tile === id ? 1 : 0);
    for (const [id] of CITY_SQUARES) expect(left(id)).toBe(0);
    expect(left('D')).toBe(3);
    // 71 land tiles: 70 in the bag and the one drawn.
    expect(s.bag.reduce((a, b) => a + b, 0)).toBe(70);
    // The Count starts in the castle; nobody has a follower in the City.
    expect(s.ext[COUNT]).toEqual({
      quarters: { castle: [0, 0], market: [0, 0], blacksmith: [0, 0], cathedral: [0, 0] },
      count: 'castle',
      scoresBefore: [0, 0],
      movedOut: false,
    });
  });

  test('city: its 14 rim edges are the frontier, and tiles laid against it match as usual (rules "1. Přiložení kartičky")', () => {
    const sc = new Scenario(rules);
    const cells = sc.state.frontier.map((k) => `${(k % 1024) - 512},${Math.floor(k / 1024) - 512}`).sort();
    expect(cells).toEqual(['-1,0', '-1,1', '-1,2', '0,-1', '0,3', '1,-1', '1,3', '2,-1', '2,3', '3,-1', '3,3', '4,0', '4,1', '4,2'].sort());
    // E turned so that its city faces CO2's northern field: refused; its field against it: fine.
    const s = rigDraw(rules, sc.state, 'E');
    expect(whyIllegal(rules, s, { type: 'place', player: 0, x: 1, y: -1, rotation: 2 })?.code).toBe('place/edge-mismatch');
    expect(whyIllegal(rules, s, { type: 'place', player: 0, x: 1, y: -1, rotation: 0 })).toBeNull();
    // Against the city cap CE only a city edge fits; against the road stub RN only a road.
    expect(whyIllegal(rules, s, { type: 'place', player: 0, x: 4, y: 2, rotation: 3 })).toBeNull();
    expect(whyIllegal(rules, s, { type: 'place', player: 0, x: 4, y: 2, rotation: 0 })?.code).toBe('place/edge-mismatch');
    expect(whyIllegal(rules, s, { type: 'place', player: 0, x: 3, y: -1, rotation: 0 })?.code).toBe('place/edge-mismatch');
  });

  test('city: its inside is one complete feature of all 12 squares that takes no follower and is never touched by a tile (reference: quarters are abstract spaces)', () => {
    const sc = new Scenario(rules);
    const info = featureAt(rules, sc.state, { x: 1, y: 1, feature: 'k1' });
    if (!info.ok) throw new Error(info.error.message);
    expect(info.value).toMatchObject({ kind: 'carcassonne', complete: true, open: 0, followers: [] });
    expect(info.value.tiles).toHaveLength(12);
    expect(rules.deployable[rules.kindNames.indexOf('carcassonne')]).toBe(false);
    expect(rules.kindScoring[rules.kindNames.indexOf('carcassonne')]).toBe('city');
  });


  test('city: every rim port as in the reference count_board, port by port; FN, FE, FW one field each, touching the City; RN, RW, RS, CS, CE their own features (reference "E. The Count of Carcassonne")', () => {
    interface RefSquare {
      id: string;
      x: number;
      y: number;
      outer_edges: Record<string, string>;
      rim_ports: Record<string, Record<string, string>>;
    }
    interface RefFeature {
      id: string;
      type: string;
      adj_cities?: string[];
      adjoins_city_of_carcassonne?: boolean;
      squares?: string[];
    }
    const board = (JSON.parse(readFileSync(REFERENCE, 'utf8')) as { count_board: { squares: RefSquare[]; features: RefFeature[]; grid: { cols: number; rows: number } } }).count_board;
    expect(board.grid).toMatchObject({ cols: 4, rows: 3 });
    expect(board.squares.map((q) => [q.id, q.x, q.y])).toEqual(CITY_SQUARES.map(([id, x, y]) => [id, x, y]));
    const s = new Scenario(rules).state;
    const types = new Map(board.features.map((f) => [f.id, f]));
    const roots = new Map<string, number>();
    const sides = ['N', 'E', 'S', 'W'] as const;
    const city = rootAt(s, rules, 1, 1, 'N2');
    for (const sq of board.squares) {
      for (const side of sides) {
        const rim = sq.rim_ports[side];
        const nx = sq.x + (side === 'E' ? 1 : side === 'W' ? -1 : 0);
        const ny = sq.y + (side === 'S' ? 1 : side === 'N' ? -1 : 0);
        const inside = nx >= 0 && nx < 4 && ny >= 0 && ny < 3;
        // A side is on the rim exactly when the reference lists it, and then no square lies beyond it.
        expect(rim !== undefined, `${sq.id} ${side} on the rim`).toBe(!inside);
        if (rim === undefined) {
          // An inner side: its ports are the City's inside, or a rim field's corner reaching the next square.
          for (let k = 1; k <= 3; k++) {
            const r = rootAt(s, rules, sq.x, sq.y, `${side}${k}` as Port);
            const kind = rules.kindNames[s.features.kind[r]!];
            expect(kind === 'carcassonne' ? r === city : kind === 'field', `${sq.id} ${side}${k}`).toBe(true);
          }
          continue;
        }
        expect(Object.keys(rim).sort()).toEqual([`${side}1`, `${side}2`, `${side}3`]);
        expect(rules.kindNames[s.features.kind[rootAt(s, rules, sq.x, sq.y, `${side}2` as Port)]!]![0]!.toUpperCase()).toBe(sq.outer_edges[side]);
        for (const [port, id] of Object.entries(rim)) {
          const r = rootAt(s, rules, sq.x, sq.y, port as Port);
          expect(rules.kindNames[s.features.kind[r]!], `${sq.id} ${port} is ${id}`).toBe(types.get(id)!.type);
          if (!roots.has(id)) roots.set(id, r);
          expect(r, `${sq.id} ${port} belongs to ${id}`).toBe(roots.get(id));
        }
      }
    }
    // Eight distinct features on the rim, as the reference lists them.
    expect([...roots.keys()].sort()).toEqual(board.features.map((f) => f.id).sort());
    expect(new Set(roots.values()).size).toBe(8);
    // Road stubs end at the wall (one open port each); the city caps are open; the fields touch the City and their cap.
    for (const f of board.features) {
      const r = roots.get(f.id)!;
      if (f.type !== 'field') {
        expect(s.features.open[r], `${f.id} open ports`).toBe(f.type === 'road' ? 1 : 3);
        continue;
      }
      const adjacent = new Set<number>();
      s.tiles.forEach((t) => {
        const tile = rules.tiles[rules.tileIndex[t.id]!]!;
        tile.adjacent.forEach((adj, local) => {
          if (findRoot(s.features.parent, t.node + local) !== r) return;
          for (const a of adj) adjacent.add(findRoot(s.features.parent, t.node + a));
        });
      });
      const expected = [...(f.adjoins_city_of_carcassonne === true ? [city] : []), ...(f.adj_cities ?? []).map((c) => roots.get(c)!)];
      expect([...adjacent].sort(), `${f.id} touches`).toEqual(expected.sort());
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Farmers and the King

describe('count: the City counts as a completed city', () => {
  test('farmers: a farm touching the City scores 3 for it, as one completed city (rules "Závěrečné vyhodnocení": "Město Carcassonne se na louce počítá jako běžné město za 3 body")', () => {
    // P0's only tile: E@0 at 1,-1, its field on CO2's northern field FN, a farmer on it.
    const sc = placeLast(new Scenario(rules), ['E', 1, -1, 0, 'f1']);
    expect(sc.state.step.kind).toBe('game-over');
    expect(scoredOf(sc.events)).toEqual([[0, 3, 'field', 'farm']]);
  });

  test('farmers: a farm touching the City and the completed cap CE scores both, each once (reference: FE touches CE and the City)', () => {
    //  4,1 B (farmer on its field, which joins FE along CO8's east side and E@3's field)
    //  4,2 E@3 closes CE (CO12 + E: 2 tiles, nobody on it)
    const sc = play(new Scenario(rules), [['E', 4, 2, 3]]);
    placeLast(sc, ['B', 4, 1, 0, 'f1']);
    expect(scoredOf(sc.events)).toEqual([[1, 6, 'field', 'farm']]);
  });

  test('king: the City counts as one completed city for the King (rules "Král": "město Carcassonne se také počítá")', () => {
    const r = rulesOf(count(), kingRobber());
    // P0 closes CE (2 tiles): the King. At the end: CE and the City, 2 completed cities.
    const sc = placeLast(new Scenario(r), ['E', 4, 2, 3]);
    expect(sc.events.find((e) => e.type === 'king-robber/king-taken')).toMatchObject({ player: 0, tiles: 2 });
    expect(scoredOf(sc.events)).toEqual([[0, 2, 'king-robber/king', 'king-robber/king']]);
  });
});

// ---------------------------------------------------------------------------------------------
// Into the city

/** Example 1: red (P0) closes a 2-tile city holding blue's (P1's) knight. */
function example1(r: Ruleset = rules, setUp?: (sc: Scenario) => void): Scenario {
  const sc = new Scenario(r);
  setUp?.(sc);
  return play(sc, [
    FILLER, // red
    ['E', 1, 3, 2, 'c1'], // blue: a city cap below CO10, open to the south, with a knight
    ['E', 1, 4, 0], // red: closes it
  ]);
}

describe('count: into the city', () => {
  test('example 1: red closes a city, blue scores 4, red may put a follower into any quarter and then move the Count (rules "2. Umístění družiníka do města Carcassonne", Příklad 1)', () => {
    const sc = example1();
    expect(scoredOf(sc.events)).toEqual([[1, 4, 'city', 'completed']]);
    expect(sc.state.step).toEqual({ kind: 'count/enter', player: 0 });
    // Any quarter, even the Count's own (the castle), or decline.
    expect(moves(sc)).toEqual([
      { type: 'count/enter', player: 0, quarter: 'castle' },
      { type: 'count/enter', player: 0, quarter: 'market' },
      { type: 'count/enter', player: 0, quarter: 'blacksmith' },
      { type: 'count/enter', player: 0, quarter: 'cathedral' },
      { type: 'count/decline', player: 0 },
    ]);
    sc.events = [];
    sc.play({ type: 'count/enter', player: 0, quarter: 'blacksmith' });
    expect(sc.state.supply).toEqual([6, 7]);
    expect(slice(sc).quarters.blacksmith).toEqual([1, 0]);
    expect(offBoardFollowers(rules, sc.state)).toEqual([1, 0]);
    // Then the Count: to any other quarter, or it stays.
    expect(sc.state.step).toEqual({ kind: 'count/move-count', player: 0 });
    expect(moves(sc)).toEqual([
      { type: 'count/move-count', player: 0, quarter: 'market' },
      { type: 'count/move-count', player: 0, quarter: 'blacksmith' },
      { type: 'count/move-count', player: 0, quarter: 'cathedral' },
      { type: 'count/decline', player: 0 },
    ]);
    expect(whyIllegal(rules, sc.state, { type: 'count/move-count', player: 0, quarter: 'castle' })?.code).toBe('count/count-there');
    expect(whyIllegal(rules, sc.state, { type: 'count/move-count', player: 0, quarter: 'tavern' })?.code).toBe('count/unknown-quarter');
    sc.play({ type: 'count/move-count', player: 0, quarter: 'market' });
    expect(slice(sc).count).toBe('market');
    expect(countEvents(sc.events)).toEqual([
      { type: 'entered', player: 0, quarter: 'blacksmith' },
      { type: 'count-moved', player: 0, from: 'castle', to: 'market' },
    ]);
    // The turn is over: blue draws.
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
    expect(sc.events.map((e) => e.type)).toContain('turn-ended');
  });

  test('into the city: declining keeps the follower in supply and the Count where it is; the Count may not move without an entry (rules, footnote 5)', () => {
    const sc = example1();
    sc.events = [];
    sc.play({ type: 'count/decline', player: 0 });
    expect(countEvents(sc.events)).toEqual([{ type: 'declined', player: 0, step: 'count/enter' }]);
    expect(sc.state.supply).toEqual([7, 7]);
    expect(slice(sc)).toMatchObject({ count: 'castle', quarters: { castle: [0, 0], market: [0, 0], blacksmith: [0, 0], cathedral: [0, 0] } });
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
  });

  test('into the city: the step belongs to the player who placed the tile; nobody else may answer it (rules: "Vždy, když ve svém tahu způsobíte přidělování bodů")', () => {
    const sc = example1();
    expect(whyIllegal(rules, sc.state, { type: 'count/enter', player: 1, quarter: 'castle' })?.code).toBe('move/not-your-turn');
    expect(whyIllegal(rules, sc.state, { type: 'count/enter', player: 0, quarter: 'tavern' })?.code).toBe('count/unknown-quarter');
    expect(whyIllegal(rules, sc.state, { type: 'pass', player: 0 })?.code).toBe('move/wrong-step');
  });

  test('into the city: nobody scoring gives no entry (an opponent must score at least one point)', () => {
    // Red closes an empty 2-tile city: nobody scores.
    const sc = play(new Scenario(rules), [FILLER, ['E', 1, 3, 2], ['E', 1, 4, 0]]);
    expect(scoredOf(sc.events)).toEqual([]);
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
  });

  test('into the city: no entry for a player with no follower in supply ("umístit jednoho družiníka ze své zásoby")', () => {
    const sc = example1(rules, (s) => rig(s, { cathedral: [7, 0] }));
    expect(scoredOf(sc.events)).toEqual([[1, 4, 'city', 'completed']]);
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
  });

  test("into the city: the player's own knight sharing the city scores too: no entry (\"zatímco vy nezískáte žádný\")", () => {
    // Red has a knight in the castle; the Count stands in the cathedral; red moves it in: 1 against 1, both score.
    const sc = example1(rules, (s) => rig(s, { castle: [1, 0] }, 'cathedral'));
    expect(sc.state.step).toEqual({ kind: 'count/move-out', player: 0, quarter: 'castle', feature: { kind: 'city', x: 1, y: 3, feature: 'c1' } });
    sc.play({ type: 'count/move-out', player: 0, count: 1 });
    expect(scoredOf(sc.events)).toEqual([
      [0, 4, 'city', 'completed'],
      [1, 4, 'city', 'completed'],
    ]);
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
  });

  test.each<[string, CountOptions, Quarter, Quarter, Quarter | null]>([
    ["variant 'clockwise': the Count moves on one quarter clockwise (castle to market) whenever a follower enters (rules \"Oficiální varianty\" 1)", { countMoves: 'clockwise' }, 'castle', 'blacksmith', 'market'],
    ["variant 'clockwise': from the cathedral it moves on to the castle", { countMoves: 'clockwise' }, 'cathedral', 'market', 'castle'],
    ["variant 'entered': the Count moves to the quarter just entered (rules \"Oficiální varianty\" 2)", { countMoves: 'entered' }, 'castle', 'cathedral', 'cathedral'],
    ["variant 'entered': entering the Count's own quarter leaves it there", { countMoves: 'entered' }, 'market', 'market', null],
  ])('%s', (_name, options, at, entered, to) => {
    const r = rulesOf(count(options));
    const sc = example1(r, (s) => rig(s, {}, at));
    expect(sc.state.step).toEqual({ kind: 'count/enter', player: 0 });
    sc.events = [];
    sc.play({ type: 'count/enter', player: 0, quarter: entered });
    // No choice about the Count: it has moved, and the turn is over.
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
    expect(slice(sc).count).toBe(to ?? at);
    expect(countEvents(sc.events)).toEqual([
      { type: 'entered', player: 0, quarter: entered },
      ...(to === null ? [] : [{ type: 'count-moved', player: 0, from: at, to }]),
    ]);
  });

  test('shrines: a lost challenge is "scored nothing": the loser who completed the winning cloister may enter the City (rules "Svatyně", official answer; digest "Shrines")', () => {
    const r = rulesOf(count(), shrines());
    //        0,-2 E@3  1,-2 E@0  2,-2 E@0 <- P0's last tile completes the cloister
    //        0,-1 E@3  1,-1 B     2,-1 SH-01
    //        CO1       CO2        CO3
    const sc = play(new Scenario(r), [
      FILLER, // P0
      ['B', 1, -1, 0, 'm1'], // P1: a monk
      ['SH-01', 2, -1, 0, 'h1'], // P0: a heretic next to it: a challenge
      ['E', 0, -1, 3], // P1
      ['E', 0, -2, 3], // P0
      ['E', 1, -2, 0], // P1
      ['E', 2, -2, 0], // P0: the cloister's 8th neighbour
    ]);
    expect(scoredOf(sc.events)).toEqual([[1, 9, 'cloister', 'completed']]);
    expect(sc.events.some((e) => e.type === 'shrines/challenge-lost')).toBe(true);
    expect(sc.state.step).toEqual({ kind: 'count/enter', player: 0 });
    // The challenge was settled (the heretic came home) before the entry was offered.
    expect(sc.state.supply).toEqual([7, 7]);
  });

  test('shrines: a follower moved from the cathedral onto an empty completed cloister starts no challenge: the heretic on the shrine next to it stays (shrines rules "Výzva": a challenge starts when a monk or heretic is deployed, "při přiložení kartičky s klášterem a obsazení kláštera mnichem dojde k výzvě")', () => {
    const r = rulesOf(count(), shrines());
    // As above, but the cloister stays empty; P1 has a follower in the cathedral.
    const sc = play(rig(new Scenario(r), { cathedral: [0, 1] }), [
      FILLER,
      ['B', 1, -1, 0],
      ['SH-01', 2, -1, 0, 'h1'],
      ['E', 0, -1, 3],
      ['E', 0, -2, 3],
      ['E', 1, -2, 0],
      ['E', 2, -2, 0],
    ]);
    expect(sc.state.step).toEqual({ kind: 'count/move-out', player: 1, quarter: 'cathedral', feature: { kind: 'cloister', x: 1, y: -1, feature: 'm1' } });
    sc.play({ type: 'count/move-out', player: 1, count: 1 });
    expect(scoredOf(sc.events)).toEqual([[1, 9, 'cloister', 'completed']]);
    expect(sc.events.some((e) => e.type === 'shrines/challenge-lost' || e.type === 'shrines/challenge-won')).toBe(false);
    // P0's heretic still stands on the shrine at 2,-1.
    const shrine = sc.state.tiles.findIndex((t) => t.x === 2 && t.y === -1);
    expect(sc.state.followers.filter((f) => f.tile === shrine)).toEqual([{ player: 0, tile: shrine, local: expect.any(Number) }]);
    // P0 scored nothing while P1 scored: P0 may enter the city.
    expect(sc.state.step).toEqual({ kind: 'count/enter', player: 0 });
  });
});

// ---------------------------------------------------------------------------------------------
// Out of the city

/** Example 2: blue (P1) has a thief on a road; red (P0) closes it. Red has 2 followers in the blacksmith, blue 1. */
function example2(at: Quarter = 'castle', r: Ruleset = rules): Scenario {
  const sc = rig(new Scenario(r), { blacksmith: [2, 1] }, at);
  return play(sc, [
    FILLER, // red
    ['U', 2, 3, 1, 'r1'], // blue: the road on from the stub RS, with a thief
    ['A', 2, 4, 2], // red: a cloister whose road ends it: CO11 + U + A, 3 tiles
  ]);
}

describe('count: out of the city', () => {
  test('example 2: blue declines, red moves two followers from the blacksmith onto the road, takes the majority and 3 points; all three return (rules "3. Přemístění družiníka z města", Příklad 2)', () => {
    const sc = example2();
    const road = { kind: 'road', x: 2, y: 2, feature: 'r1' };
    // Blue, on red's left, decides first.
    expect(sc.state.step).toEqual({ kind: 'count/move-out', player: 1, quarter: 'blacksmith', feature: road });
    expect(sc.events.map((e) => e.type)).toContain('feature-completed');
    expect(scoredOf(sc.events)).toEqual([]);
    expect(moves(sc)).toEqual([
      { type: 'count/move-out', player: 1, count: 0 },
      { type: 'count/move-out', player: 1, count: 1 },
    ]);
    expect(whyIllegal(rules, sc.state, { type: 'count/move-out', player: 1, count: 2 })?.code).toBe('count/no-followers');
    expect(whyIllegal(rules, sc.state, { type: 'count/move-out', player: 0, count: 1 })?.code).toBe('move/not-your-turn');
    sc.events = [];
    sc.play({ type: 'count/move-out', player: 1, count: 0 });
    expect(countEvents(sc.events)).toEqual([{ type: 'declined', player: 1, step: 'count/move-out', quarter: 'blacksmith', feature: road }]);
    // Red, the active player, last.
    expect(sc.state.step).toEqual({ kind: 'count/move-out', player: 0, quarter: 'blacksmith', feature: road });
    expect(moves(sc).map((m) => (m as ExpansionMove)['count'])).toEqual([0, 1, 2]);
    sc.events = [];
    sc.play({ type: 'count/move-out', player: 0, count: 2 });
    expect(countEvents(sc.events)).toEqual([{ type: 'moved-out', player: 0, quarter: 'blacksmith', count: 2, feature: road }]);
    expect(scoredOf(sc.events)).toEqual([[0, 3, 'road', 'completed']]);
    expect(sc.events.filter((e) => e.type === 'follower-returned').map((e) => (e as { player: number }).player).sort()).toEqual([0, 0, 1]);
    expect(sc.state.scores).toEqual([3, 0]);
    expect(sc.state.supply).toEqual([7, 6]);
    expect(slice(sc).quarters.blacksmith).toEqual([0, 1]);
    // Red scored: no entry into the City; blue's turn.
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
  });

  test('note 8: red moves a follower out onto the road, blue keeps the majority and scores; red, who used a follower from the City, may not enter it though it scored nothing (2nd-edition rules, note 8: "Pokud hráč použije družiníka, který se již nachází ve městě Carcassonne, pak profituje z hodnocení a nemůže do města Carcassonne přesunout dalšího družiníka")', () => {
    const sc = example2();
    sc.play({ type: 'count/move-out', player: 1, count: 1 });
    sc.events = [];
    sc.play({ type: 'count/move-out', player: 0, count: 1 });
    // Blue's thief and the follower blue moved out outnumber red's one: blue scores, red nothing.
    expect(scoredOf(sc.events)).toEqual([[1, 3, 'road', 'completed']]);
    expect(sc.state.scores).toEqual([0, 3]);
    expect(sc.state.supply[0]).toBeGreaterThan(0);
    // Red scored nothing while blue scored, but red used a follower from the City: no entry.
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
    expect(slice(sc).movedOut).toBe(true);
  });

  test('note 8 concerns only the player who moves: blue moving a follower out does not keep red (who scored nothing) from entering', () => {
    const sc = example2();
    sc.play({ type: 'count/move-out', player: 1, count: 1 });
    sc.play({ type: 'count/move-out', player: 0, count: 0 });
    expect(sc.state.scores).toEqual([0, 3]);
    expect(sc.state.step).toEqual({ kind: 'count/enter', player: 0 });
    expect(slice(sc).movedOut).toBe(false);
  });

  test('the Count blocks its quarter: with the Count in the blacksmith nobody is asked, blue\'s thief scores alone, and red (who scored nothing) may enter (rules: "ze čtvrti, kde se nachází figurka hraběte, není dovoleno přemísťovat žádné družiníky")', () => {
    const sc = example2('blacksmith');
    expect(scoredOf(sc.events)).toEqual([[1, 3, 'road', 'completed']]);
    expect(slice(sc).quarters.blacksmith).toEqual([2, 1]);
    expect(sc.state.step).toEqual({ kind: 'count/enter', player: 0 });
  });

  test('a quarter feeds only its own kind: followers in the castle are not asked about a road (rules: "Ze zámku ... do města. Z kovárny ... na cestu.")', () => {
    const sc = rig(new Scenario(rules), { castle: [1, 1], cathedral: [1, 1], market: [1, 1] });
    play(sc, [FILLER, ['U', 2, 3, 1, 'r1'], ['A', 2, 4, 2]]);
    expect(scoredOf(sc.events)).toEqual([[1, 3, 'road', 'completed']]);
    expect(sc.state.step).toEqual({ kind: 'count/enter', player: 0 });
  });

  test('cathedral to cloister: a follower moved from the cathedral onto a completed cloister scores it (rules: "Z katedrály ... do kláštera"; official answer: a cloister may hold several monks)', () => {
    //  0,-2 E@3  1,-2 E@0  2,-2 E@0
    //  0,-1 E@3  1,-1 B    2,-1 E@1 <- P1 completes the empty cloister
    const sc = rig(new Scenario(rules), { cathedral: [1, 0] });
    play(sc, [
      ['B', 1, -1, 0],
      ['E', 0, -1, 3],
      ['E', 0, -2, 3],
      ['E', 1, -2, 0],
      ['E', 2, -2, 0],
      ['E', 2, -1, 1],
    ]);
    expect(sc.state.step).toEqual({ kind: 'count/move-out', player: 0, quarter: 'cathedral', feature: { kind: 'cloister', x: 1, y: -1, feature: 'm1' } });
    sc.play({ type: 'count/move-out', player: 0, count: 1 });
    expect(scoredOf(sc.events)).toEqual([[0, 9, 'cloister', 'completed']]);
    // P1 completed it and scored nothing while P0 scored: P1 may enter.
    expect(sc.state.step).toEqual({ kind: 'count/enter', player: 1 });
  });

  test('one tile completing a road and a city: each gets its own round (the road first, in the tile\'s feature order), and "scored nothing" looks at both (rules: "Pokud přiložením kartičky došlo k uzavření více území najednou, nesmíte získat žádné body při vyhodnocení žádného z nich")', () => {
    const r = rulesOf(count(), kingRobber());
    // P0: E@3 at 3,3 (city facing west) with a knight. P1: KR-02@1 at 2,3: its road north ends RS
    // (CO11 + KR-02: 2 tiles), its city east closes E@3's (2 tiles).
    const setUp = (): Scenario => play(rig(new Scenario(r), { blacksmith: [1, 1], castle: [0, 1] }, 'cathedral'), [['E', 3, 3, 3, 'c1'], ['KR-02', 2, 3, 1]]);
    const road = { kind: 'road', x: 2, y: 2, feature: 'r1' };
    const city = { kind: 'city', x: 3, y: 3, feature: 'c1' };

    // 1. P1 keeps out of both: P0 scores both, P1 nothing, so P1 may enter (once).
    let sc = setUp();
    expect(sc.state.step).toEqual({ kind: 'count/move-out', player: 0, quarter: 'blacksmith', feature: road });
    sc.play({ type: 'count/move-out', player: 0, count: 1 });
    expect(sc.state.step).toEqual({ kind: 'count/move-out', player: 1, quarter: 'blacksmith', feature: road });
    sc.play({ type: 'count/move-out', player: 1, count: 0 });
    expect(scoredOf(sc.events)).toEqual([[0, 2, 'road', 'completed']]);
    // The city's round: P0 has nobody in the castle, so only P1 is asked.
    expect(sc.state.step).toEqual({ kind: 'count/move-out', player: 1, quarter: 'castle', feature: city });
    sc.play({ type: 'count/move-out', player: 1, count: 0 });
    expect(scoredOf(sc.events)).toEqual([
      [0, 2, 'road', 'completed'],
      [0, 4, 'city', 'completed'],
    ]);
    expect(sc.state.step).toEqual({ kind: 'count/enter', player: 1 });
    sc.play({ type: 'count/enter', player: 1, quarter: 'market' });
    sc.play({ type: 'count/decline', player: 1 });
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 0 });

    // 2. P1 shares the city: P1 scored in one of the two scorings, so no entry.
    sc = setUp();
    sc.play({ type: 'count/move-out', player: 0, count: 0 });
    sc.play({ type: 'count/move-out', player: 1, count: 0 });
    sc.play({ type: 'count/move-out', player: 1, count: 1 });
    expect(scoredOf(sc.events)).toEqual([
      [0, 4, 'city', 'completed'],
      [1, 4, 'city', 'completed'],
    ]);
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 0 });
  });

  test.each<[string, number, readonly Turn[], readonly number[], readonly number[]]>([
    // 3 players: P0 lays the thief's road, P1 closes it: P2, P0, then P1.
    ['3 players: from the active player\'s left round to the active player, who is last (rules "Přesný průběh")', 3, [['U', 2, 3, 1, 'r1'], ['A', 2, 4, 2]], [1, 1, 1], [2, 0, 1]],
    // 4 players: P2 closes it: P3, P0, P1, then P2.
    ['4 players: P3, P0, P1, then the active P2', 4, [FILLER, ['U', 2, 3, 1, 'r1'], ['A', 2, 4, 2]], [1, 1, 1, 1], [3, 0, 1, 2]],
    // 4 players, P0 and P3 with nobody in the blacksmith: they are not asked.
    ['4 players: players with no follower in the quarter are skipped', 4, [FILLER, ['U', 2, 3, 1, 'r1'], ['A', 2, 4, 2]], [0, 2, 1, 0], [1, 2]],
  ])('move-out order, %s', (_name, players, turns, blacksmith, order) => {
    const sc = play(rig(new Scenario(rules, players), { blacksmith }), turns);
    const asked: number[] = [];
    while (sc.state.step.kind === 'count/move-out') {
      asked.push(sc.player);
      sc.play({ type: 'count/move-out', player: sc.player, count: 1 });
    }
    expect(asked).toEqual(order);
    expect(countEvents(sc.events).map((e) => e['player'])).toEqual(order);
  });
});

// ---------------------------------------------------------------------------------------------
// End of the game

describe('count: end of the game', () => {
  const FN = { x: 0, y: 0, feature: 'f1' };

  test('market round: from the left of the last placer, one follower at a time from the market onto any field, until every one has left the market; fields then score, other quarters nothing (rules "Z tržiště na louku": "Tak se pokračuje tak dlouho, dokud nejsou přemístěni všichni družiníci z tržiště")', () => {
    const sc = rig(new Scenario(rules), { market: [2, 1], castle: [1, 0] });
    placeLast(sc, FILLER); // P0 lays the last tile
    expect(sc.state.step).toEqual({ kind: 'count/to-field', player: 1 });
    const legal = moves(sc);
    // Every field on the board, named by its root segment; no decline: every market follower moves.
    expect(legal[0]).toEqual({ type: 'count/to-field', player: 1, ...FN });
    expect(legal.every((m) => m.type === 'count/to-field')).toBe(true);
    expect(whyIllegal(rules, sc.state, { type: 'count/decline', player: 1 })?.code).toBe('move/not-offered');
    const roots = legal.map((m) => featureAt(rules, sc.state, m as unknown as { x: number; y: number; feature: string }));
    expect(roots.every((f) => f.ok && f.value.kind === 'field')).toBe(true);
    // A field named by another of its segments is refused with its own code.
    expect(whyIllegal(rules, sc.state, { type: 'count/to-field', player: 1, x: 1, y: 0, feature: 'f1' })?.code).toBe('count/feature-name');
    expect(whyIllegal(rules, sc.state, { type: 'count/to-field', player: 1, x: 3, y: 0, feature: 'r1' })?.code).toBe('count/not-a-target');
    sc.events = [];
    sc.play({ type: 'count/to-field', player: 1, ...FN });
    expect(sc.state.step).toEqual({ kind: 'count/to-field', player: 0 });
    sc.play({ type: 'count/to-field', player: 0, ...FN });
    // P1 has nobody left in the market: P0 again, who must move the second one too.
    expect(sc.state.step).toEqual({ kind: 'count/to-field', player: 0 });
    sc.play({ type: 'count/to-field', player: 0, ...FN });
    expect(sc.state.step.kind).toBe('game-over');
    const field = { kind: 'field', ...FN };
    expect(countEvents(sc.events)).toEqual([
      { type: 'to-field', player: 1, feature: field },
      { type: 'to-field', player: 0, feature: field },
      { type: 'to-field', player: 0, feature: field },
    ]);
    // On FN, which touches the City: P0 two farmers, P1 one: P0 alone scores 3. The castle's
    // follower scores nothing.
    expect(scoredOf(sc.events)).toEqual([[0, 3, 'field', 'farm']]);
    expect(offBoardFollowers(rules, sc.state)).toEqual([1, 0]);
  });

  test('market round, 3 players: the player left of the last placer first, then in turn (rules: "Soused po levici hráče, který přiložil poslední kartičku ... začne")', () => {
    const sc = rig(new Scenario(rules, 3), { market: [1, 2, 1] });
    play(sc, [FILLER]);
    placeLast(sc, ['E', 1, -1, 0]); // P1 lays the last tile
    const asked: number[] = [];
    while (sc.state.step.kind === 'count/to-field') {
      asked.push(sc.player);
      sc.play({ type: 'count/to-field', player: sc.player, ...FN });
    }
    expect(asked).toEqual([2, 0, 1, 1]);
    expect(sc.state.step.kind).toBe('game-over');
  });

  test('market round: nothing moves while the Count stands on the market (rules: "Hrabě stále blokuje městskou čtvrť")', () => {
    const sc = rig(new Scenario(rules), { market: [2, 1] }, 'market');
    placeLast(sc, FILLER);
    expect(sc.state.step.kind).toBe('game-over');
    expect(countEvents(sc.events)).toEqual([]);
    expect(offBoardFollowers(rules, sc.state)).toEqual([2, 1]);
  });

  test('edition 1: every follower in an unblocked quarter must move, one at a time in turn, onto a matching unfinished feature or a field; no decline (older sheet: "musí hráči přemístit figurky ... postupně po jedné")', () => {
    const r = rulesOf(count({ edition: 1 }));
    const sc = rig(new Scenario(r), { castle: [1, 0], blacksmith: [1, 0], cathedral: [0, 1], market: [0, 1] }, 'blacksmith');
    play(sc, [['B', 1, -1, 0]]); // P0: an unfinished cloister north of CO2
    placeLast(sc, FILLER); // P1 lays the last tile: P0 begins
    expect(sc.state.step).toEqual({ kind: 'count/to-feature', player: 0 });
    // P0: the castle feeds the two unfinished city caps CS and CE; the blacksmith is blocked by the Count.
    expect(moves(sc)).toEqual([
      { type: 'count/to-feature', player: 0, x: 0, y: 2, feature: 'c1' },
      { type: 'count/to-feature', player: 0, x: 3, y: 2, feature: 'c1' },
    ]);
    expect(whyIllegal(r, sc.state, { type: 'count/to-feature', player: 0, x: 3, y: 0, feature: 'r1' })?.code).toBe('count/quarter-blocked');
    expect(whyIllegal(r, sc.state, { type: 'count/to-feature', player: 0, x: 0, y: 0, feature: 'f1' })?.code).toBe('count/no-followers');
    expect(whyIllegal(r, sc.state, { type: 'count/decline', player: 0 })?.code).toBe('move/not-offered');
    sc.play({ type: 'count/to-feature', player: 0, x: 3, y: 2, feature: 'c1' });
    // P1: the cathedral feeds the cloister, the market every field.
    expect(sc.state.step).toEqual({ kind: 'count/to-feature', player: 1 });
    expect(moves(sc)).toContainEqual({ type: 'count/to-feature', player: 1, x: 1, y: -1, feature: 'm1' });
    expect(moves(sc)).toContainEqual({ type: 'count/to-feature', player: 1, ...FN });
    sc.play({ type: 'count/to-feature', player: 1, x: 1, y: -1, feature: 'm1' });
    // P0 can move nothing more (the blacksmith is blocked): P1 again.
    expect(sc.state.step).toEqual({ kind: 'count/to-feature', player: 1 });
    sc.play({ type: 'count/to-feature', player: 1, ...FN });
    expect(sc.state.step.kind).toBe('game-over');
    expect(countEvents(sc.events)).toEqual([
      { type: 'to-feature', player: 0, quarter: 'castle', feature: { kind: 'city', x: 3, y: 2, feature: 'c1' } },
      { type: 'to-feature', player: 1, quarter: 'cathedral', feature: { kind: 'cloister', x: 1, y: -1, feature: 'm1' } },
      { type: 'to-feature', player: 1, quarter: 'market', feature: { kind: 'field', ...FN } },
    ]);
    // The cap CE (1 tile) gives P0 1; the cloister (3 neighbours) P1 4; FN (the City) P1 3.
    expect(scoredOf(sc.events)).toEqual([
      [0, 1, 'city', 'final'],
      [1, 4, 'cloister', 'final'],
      [1, 3, 'field', 'farm'],
    ]);
    expect(offBoardFollowers(r, sc.state)).toEqual([1, 0]);
  });
});

// ---------------------------------------------------------------------------------------------
// Options, combinations, random games

describe('count: options and combinations', () => {
  test.each<[string, unknown, string]>([
    ['an unknown edition', { edition: 3 }, 'count: edition must be 2 or 1, got 3'],
    ['an unknown Count movement', { countMoves: 'north' }, `count: countMoves must be one of 'free', 'clockwise', 'entered', got "north"`],
    ['an unknown option', { river: true }, 'count: unknown option \'river\' (options: edition, countMoves)'],
    ['options that are not an object', 'II', 'count: options must be an object such as { edition: 2, countMoves: \'free\' }, got "II"'],
  ])('options: %s is refused with options/expansion-options', (_name, options, message) => {
    const r = createRuleset({ game: 'classic', expansions: [count(options as CountOptions)] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toEqual({ code: 'options/expansion-options', message });
  });

  test('options: defaults are left out of the ruleset id', () => {
    expect(readableId(rulesOf(count()).id)).toBe('classic+count');
    expect(readableId(rulesOf(count({ edition: 2, countMoves: 'free' })).id)).toBe('classic+count');
    expect(readableId(rulesOf(count({ edition: 1, countMoves: 'entered' })).id)).toBe('classic+count{"countMoves":"entered","edition":1}');
  });

  test('random games with King and Robber Baron and Shrines: every step of the Count is reached, followers are conserved, scores are the sum of their events', () => {
    for (const options of [{}, { edition: 1 }, { countMoves: 'clockwise' }, { countMoves: 'entered' }] as CountOptions[]) {
      const r = rulesOf(count(options), kingRobber(), shrines());
      const seen = new Set<string>();
      const expected = ['count/enter', 'count/move-out', options.edition === 1 ? 'count/to-feature' : 'count/to-field'];
      if (options.countMoves === undefined) expected.push('count/move-count');
      // At least 12 games, and on until every step has been seen (at most 200).
      for (let i = 0; i < 200 && (i < 12 || !expected.every((k) => seen.has(k))); i++) {
        const players = 2 + (i % 4);
        const g = newGame(r, { players, seed: `count-random-${i}` });
        if (!g.ok) throw new Error(g.error.message);
        const sim = createSimulator(r, g.value, { events: true });
        if (!sim.ok) throw new Error(sim.error.message);
        const random = createRandomSource(`count-random-${i}`);
        const sums = new Array<number>(players).fill(0);
        while (!sim.value.isOver()) {
          seen.add(sim.value.state.step.kind);
          sim.value.playRandom(random);
          for (const e of sim.value.takeEvents()) if (e.type === 'scored') sums[e.player]! += e.points;
          const s = sim.value.state;
          const held = offBoardFollowers(r, s);
          for (let p = 0; p < players; p++) expect(s.supply[p]! + s.followers.filter((f) => f.player === p).length + held[p]!).toBe(7);
        }
        expect(sim.value.state.scores).toEqual(sums);
      }
      for (const k of expected) expect(seen, `${JSON.stringify(options)}: ${k}`).toContain(k);
      if (options.countMoves !== undefined) expect(seen).not.toContain('count/move-count');
    }
  });

  test('action codec: every legal move of the Count has its own id, and the id gives the move back (Expansion.actions)', () => {
    for (const options of [{}, { edition: 1 }] as CountOptions[]) {
      const r = rulesOf(count(options));
      const codec = r.expansions.find((e) => e.id === COUNT)!.actions!;
      const window = { x: -80, y: -80, width: 164, height: 163 };
      const size = codec.size(window);
      for (let i = 0; i < 8; i++) {
        const g = newGame(r, { players: 2 + (i % 3), seed: `codec-${i}` });
        if (!g.ok) throw new Error(g.error.message);
        let s: GameState = g.value;
        const random = createRandomSource(`codec-${i}`);
        while (s.step.kind !== 'game-over') {
          const legal = legalMoves(r, s);
          if (s.step.kind.startsWith('count/')) {
            const ids = legal.map((m) => codec.encode(r, s, m as never, window));
            expect(new Set(ids).size).toBe(ids.length);
            ids.forEach((id, k) => {
              expect(id >= 0 && id < size).toBe(true);
              expect(codec.decode(r, s, id, window)).toEqual(legal[k]);
            });
          }
          const next = applyMove(r, s, legal[random(legal.length)]!);
          if (!next.ok) throw new Error(next.error.message);
          s = next.value.state;
        }
      }
    }
  });
});
