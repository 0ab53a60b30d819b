/**
 * King and Robber Baron (`meeplekit/expansions/king-robber`): one hand-worked position per rule,
 * each row citing its source:
 * - the expansions digest, "King and Robber Baron" ("the digest");
 * - the Czech original at the end of the Czech rulebook of The Castle, "Carcassonne Král &
 *   Zvěď" ("the original"): "V okamžiku, kdy některý hráč dokončí město, vezme si krále. Jakmile
 *   však jiný hráč uzavře větší město (= položí poslední kartu), putuje král k němu. Kdo má na
 *   konci hry krále, dostane za každé uzavřené město 1 bod." and "Loupeživý rytíř funguje stejně
 *   jako král, avšak na cestě.";
 * - the 2nd-edition annotated rules, the Czech 2nd-edition rules of the Count, King and Robber and Shrines, "Král"
 *   ("the annotated rules"): the King goes to the player who completes the first city "whether or
 *   not they scored points" ("přitom je jedno, zda zároveň získal nějaké body, nebo ne"); a later
 *   larger city ("rozkládající se na více kartičkách": more tiles) takes it, its completer
 *   "takes the King (or keeps it)".
 * docs/expansions/king-robber.md maps every rule to its code and to the row here.
 *
 * Drawing conventions as in test/classic-rules.test.ts: x grows east, y grows south; the start
 * tile D lies at 0,0 unturned (city cap north, road west-east, field south). `Id@r` is a tile
 * turned r quarter turns clockwise (printed side s goes to side s + r). Players alternate 0, 1,
 * 0, 1, ...; the draw is rigged (test/helpers.ts `Scenario`).
 */
import { describe, expect, test } from 'vitest';
import {
  createRandomSource,
  createRuleset,
  createSimulator,
  featureAt,
  legalMoves,
  newGame,
  projectedScores,
  tileDefs,
  type FeatureInfo,
  type GameEvent,
  type Ruleset,
  type TileDef,
} from '../src/index.js';
import { KING_ROBBER, KING_ROBBER_TILES, kingRobber, type KingRobberState } from '../src/expansions/king-robber/index.js';
import { Scenario, play, playLast, rigDraw, scoredOf, sortedScored, type Turn, readableId } from './helpers.js';
import { expectFeaturesMatch, expectPortsOwnedOnce, loadReferenceSet, sortedIds } from './reference.js';
import { byDepth } from './depth.js';

function kingRobberRules(): Ruleset {
  const r = createRuleset({ game: 'classic', expansions: [kingRobber()] });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

const rules = kingRobberRules();

// ---------------------------------------------------------------------------------------------
// Helpers

/** A King or Robber Baron event reduced to [type, player, from, tiles]. */
type Taken = readonly [type: 'king' | 'robber', player: number, from: number, tiles: number];

function takenOf(events: readonly GameEvent[]): Taken[] {
  const out: Taken[] = [];
  for (const e of events) {
    if (e.type === 'king-robber/king-taken' || e.type === 'king-robber/robber-taken') {
      const x = e as unknown as { player: number; from: number; tiles: number };
      out.push([e.type === 'king-robber/king-taken' ? 'king' : 'robber', x.player, x.from, x.tiles]);
    }
  }
  return out;
}

function slice(sc: Scenario): KingRobberState {
  return sc.state.ext[KING_ROBBER] as KingRobberState;
}

function feature(sc: Scenario, x: number, y: number, id: string): FeatureInfo {
  const r = featureAt(rules, sc.state, { x, y, feature: id });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

function cells(f: FeatureInfo): string[] {
  return f.tiles.map((c) => `${c.x},${c.y}`).sort();
}

// ---------------------------------------------------------------------------------------------
// Positions used by several rows

/**
 * Three cities, completed in this order:
 *   -1,-2 E@2         1,-2 E@2       (caps facing south)
 *   -1,-1 F@1  0,-1 E@2  1,-1 E@0    (F@1: city N-S with pennant)
 *   -1,0  D@0  0,0  D    1,0 U@0  2,0 U@0
 * 1. P0 E@2 at 0,-1 closes the start city D+E: 2 tiles (the first city).
 * 4. P1 E@2 at 1,-2 closes E@0+E@2: 2 tiles (equal, not larger).
 * 8. P1 E@2 at -1,-2 closes D@0+F@1+E@2: 3 tiles (larger).
 * Nobody deploys.
 */
const THREE_CITIES: readonly Turn[] = [
  ['E', 0, -1, 2], // P0: closes the start city (2 tiles)
  ['E', 1, -1, 0], // P1: a cap, open north
  ['U', 1, 0, 0], // P0: road
  ['E', 1, -2, 2], // P1: closes the 2-tile city 1,-1 + 1,-2
  ['D', -1, 0, 0], // P0: a second D west of the start tile, its cap open north
  ['F', -1, -1, 1], // P1: city N-S above it
  ['U', 2, 0, 0], // P0: road
  ['E', -1, -2, 2], // P1: closes D@0 + F@1 + E@2 (3 tiles)
];

/**
 * Three roads, completed in this order:
 *   -1,0 A@3   0,0 D   1,0 A@1                                   (road A-D-A: 3 tiles)
 *   -1,1 W@0   0,1 U@0  1,1 W@0  2,1 U@0  3,1 U@0  4,1 L@0       (roads W-U-W: 3, W-U-U-L: 4)
 *              0,2 B
 * A is the cloister with a road ending at it; W and L end every road at their junction.
 */
const THREE_ROADS: readonly Turn[] = [
  ['A', 1, 0, 1], // P0: road end east of the start tile
  ['A', -1, 0, 3], // P1: road end west: closes A-D-A (3 tiles)
  ['W', -1, 1, 0], // P0
  ['U', 0, 1, 0], // P1
  ['W', 1, 1, 0], // P0: closes W-U-W (3 tiles: equal)
  ['U', 2, 1, 0], // P1
  ['U', 3, 1, 0], // P0
  ['B', 0, 2, 0], // P1: a cloister, touching no road
  ['L', 4, 1, 0], // P0: closes W-U-U-L (4 tiles: larger)
];

// ---------------------------------------------------------------------------------------------
// The King

describe('king-robber: the King', () => {
  test('king: the first completed city gives the King to whoever placed its closing tile, even with no follower on it (nobody scores) (digest "King"; annotated rules "Král")', () => {
    //   0,-1 E@2   cap facing south
    //   0,0  D     its cap: the city D+E is complete, 2 tiles, nobody on it
    const sc = play(new Scenario(rules), [['E', 0, -1, 2]]);
    expect(scoredOf(sc.events)).toEqual([]);
    expect(takenOf(sc.events)).toEqual([['king', 0, -1, 2]]);
    expect(sc.events.find((e) => e.type === 'king-robber/king-taken')).toEqual({ type: 'king-robber/king-taken', player: 0, from: -1, tiles: 2 });
    expect(slice(sc)).toEqual({ king: 0, kingTiles: 2, robber: -1, robberTiles: 0 });
    // The event comes after the city's completion and before the turn ends.
    const types = sc.events.map((e) => e.type).filter((t) => t !== 'tile-drawn');
    expect(types).toEqual(['tile-placed', 'feature-completed', 'king-robber/king-taken', 'turn-ended']);
  });

  test("king: completing a city that holds another player's knight gives the King to the completer, the points to the knight's owner (digest \"King\": whether or not they score)", () => {
    //   0,-2 E@2   P0 closes the city (no follower of P0's on it)
    //   0,-1 F@1   P1's knight: city N-S with a pennant
    //   0,0  D     the city's south end
    //        1,0 U@0 (P0, first turn)
    const sc = play(new Scenario(rules), [
      ['U', 1, 0, 0],
      ['F', 0, -1, 1, 'c1'],
      ['E', 0, -2, 2],
    ]);
    // 3 tiles + 1 pennant = 8 for P1's knight; the King goes to P0, who placed the last tile.
    expect(scoredOf(sc.events)).toEqual([[1, 8, 'city', 'completed']]);
    expect(takenOf(sc.events)).toEqual([['king', 0, -1, 3]]);
    expect(sc.state.scores).toEqual([0, 8]);
    expect(slice(sc)).toMatchObject({ king: 0, kingTiles: 3 });
  });

  test('king: a later city of the same size does not take it; a strictly larger one does (digest "King": strictly larger; original "větší město")', () => {
    const sc = new Scenario(rules);
    play(sc, THREE_CITIES.slice(0, 1));
    expect(takenOf(sc.events)).toEqual([['king', 0, -1, 2]]);
    // P1 closes a second 2-tile city: equal, not larger; the King stays with P0, no event.
    play(sc, THREE_CITIES.slice(1, 4));
    expect(feature(sc, 1, -2, 'c1')).toMatchObject({ kind: 'city', complete: true });
    expect(cells(feature(sc, 1, -2, 'c1'))).toEqual(['1,-1', '1,-2']);
    expect(takenOf(sc.events)).toEqual([['king', 0, -1, 2]]);
    expect(slice(sc)).toMatchObject({ king: 0, kingTiles: 2 });
    // P1 closes a 3-tile city: the King passes from P0 to P1.
    play(sc, THREE_CITIES.slice(4));
    expect(cells(feature(sc, -1, -2, 'c1'))).toEqual(['-1,-1', '-1,-2', '-1,0']);
    expect(takenOf(sc.events)).toEqual([
      ['king', 0, -1, 2],
      ['king', 1, 0, 3],
    ]);
    expect(slice(sc)).toEqual({ king: 1, kingTiles: 3, robber: -1, robberTiles: 0 });
    expect(scoredOf(sc.events)).toEqual([]);
  });

  test('king: when the holder completes a larger city, the King stays and its record grows: an event with from = player (annotated rules "Král": "či si ji ponechá nadále")', () => {
    //   0,-1 E@2 closes D+E (2 tiles): King to P0.  Then the 3-tile city of THREE_CITIES is
    //   closed by P0 instead of P1 (one neutral turn shifts who places what).
    const sc = play(new Scenario(rules), [
      ['E', 0, -1, 2], // P0: King (2)
      ['D', -1, 0, 0], // P1
      ['F', -1, -1, 1], // P0
      ['U', 1, 0, 0], // P1
      ['E', -1, -2, 2], // P0: closes 3 tiles
    ]);
    expect(takenOf(sc.events)).toEqual([
      ['king', 0, -1, 2],
      ['king', 0, 0, 3],
    ]);
    expect(slice(sc)).toMatchObject({ king: 0, kingTiles: 3 });
  });

  test('king: one tile completing two cities at once hands the King over once, for the larger city (3 tiles, not 2 then 3) (digest "King": the token lies on the largest completed city)', () => {
    //   0,-3 E@2               cap facing south
    //   0,-2 F@1   1,-2 B      F@1: city N-S
    //   0,-1 H@2   1,-1 B      H: two caps, N and S, separate cities (turned 2: c1 faces S)
    //   0,0  D     1,0  U@0
    // H@2 closes H.c1+D (2 tiles) and H.c2+F@1+E@2 (3 tiles) with one placement. Its c1, the
    // smaller city, comes first in the tile's feature order: the King must still be handed over
    // once, for the larger city.
    const sc = play(new Scenario(rules), [
      ['U', 1, 0, 0], // P0
      ['B', 1, -1, 0], // P1
      ['B', 1, -2, 0], // P0
      ['F', 0, -2, 1], // P1
      ['E', 0, -3, 2], // P0
      ['H', 0, -1, 2], // P1: closes both cities
    ]);
    expect(sc.events.filter((e) => e.type === 'feature-completed').map((e) => e.type === 'feature-completed' && e.tiles).sort()).toEqual([2, 3]);
    expect(takenOf(sc.events)).toEqual([['king', 1, -1, 3]]);
    expect(slice(sc)).toMatchObject({ king: 1, kingTiles: 3 });
  });

  test('king: size is counted in tiles, not points: a later 3-tile city with a pennant (8 points) does not beat a 3-tile city without (6 points) (annotated rules "Král" and note 14)', () => {
    //   -1,-2 E@2   0,-2 E@2
    //   -1,-1 F@1   0,-1 G@1      G@1: city N-S, no pennant; F@1: city N-S with a pennant
    //   -1,0  D@0   0,0  D   1,0 U@0
    const sc = play(new Scenario(rules), [
      ['G', 0, -1, 1], // P0
      ['U', 1, 0, 0], // P1
      ['E', 0, -2, 2], // P0: closes D+G+E: 3 tiles, 6 points: King to P0
      ['D', -1, 0, 0], // P1
      ['F', -1, -1, 1, 'c1'], // P0: a knight on the pennant city
      ['E', -1, -2, 2], // P1: closes D@0+F+E: 3 tiles + pennant, 8 points for P0's knight
    ]);
    expect(cells(feature(sc, -1, -1, 'c1'))).toEqual(['-1,-1', '-1,-2', '-1,0']);
    expect(feature(sc, -1, -1, 'c1')).toMatchObject({ complete: true, pennants: 1 });
    expect(scoredOf(sc.events)).toEqual([[0, 8, 'city', 'completed']]);
    expect(takenOf(sc.events)).toEqual([['king', 0, -1, 3]]);
    expect(slice(sc)).toMatchObject({ king: 0, kingTiles: 3 });
  });

  test('king: a city is measured in distinct tiles: KR-05 crossed twice by one city counts once (6 tiles, 12 points, King with record 6) (original "Pak se tato karta počítá jako 1 bod")', () => {
    // KR-05@0 at 0,-1: c2 (N-S) continues the start city, c1 (W-E) is a separate city.
    // A ring of N tiles joins c2's north end to c1's east end; E@1 at -1,-1 closes c1's west end:
    //   0,-2 N@2  1,-2 N@3
    //   0,-1 KR-05  1,-1 N@0        -1,-1 E@1 (cap facing east) closes
    //   0,0  D
    // One city: D, KR-05, N@2, N@3, N@0, E@1 = 6 distinct tiles (KR-05 once), 12 points.
    const sc = play(new Scenario(rules), [
      ['KR-05', 0, -1, 0, 'c2'], // P0: knight on the N-S city
      ['N', 0, -2, 2], // P1
      ['N', 1, -2, 3], // P0
      ['N', 1, -1, 0], // P1: joins c2 and c1 through the ring; c1's west end still open
    ]);
    expect(feature(sc, 0, -1, 'c1')).toEqual(feature(sc, 0, -1, 'c2'));
    expect(feature(sc, 0, -1, 'c1')).toMatchObject({ complete: false, open: 3 });
    play(sc, [['E', -1, -1, 1]]); // P0 closes it
    const city = feature(sc, 0, -1, 'c1');
    expect(city).toMatchObject({ kind: 'city', complete: true, pennants: 0 });
    expect(cells(city)).toEqual(['-1,-1', '0,-1', '0,-2', '0,0', '1,-1', '1,-2']);
    expect(sc.events.filter((e) => e.type === 'feature-completed')).toEqual([
      { type: 'feature-completed', feature: { kind: 'city', x: 0, y: 0, feature: 'c1' }, tiles: 6 },
    ]);
    expect(scoredOf(sc.events)).toEqual([[0, 12, 'city', 'completed']]);
    expect(takenOf(sc.events)).toEqual([['king', 0, -1, 6]]);
  });
});

// ---------------------------------------------------------------------------------------------
// The Robber Baron

describe('king-robber: the Robber Baron', () => {
  test("robber: the first completed road gives the Robber Baron to its completer, not to the thief's owner who scores it (digest \"Robber Baron: the same for roads\"; original \"Loupeživý rytíř funguje stejně jako král, avšak na cestě\")", () => {
    //   -1,0 A@3   0,0 D   1,0 A@1     P0's thief on A@1's road; P1 closes the road: 3 tiles
    const sc = play(new Scenario(rules), [
      ['A', 1, 0, 1, 'r1'],
      ['A', -1, 0, 3],
    ]);
    expect(scoredOf(sc.events)).toEqual([[0, 3, 'road', 'completed']]);
    expect(takenOf(sc.events)).toEqual([['robber', 1, -1, 3]]);
    expect(sc.events.find((e) => e.type === 'king-robber/robber-taken')).toEqual({ type: 'king-robber/robber-taken', player: 1, from: -1, tiles: 3 });
    expect(slice(sc)).toEqual({ king: -1, kingTiles: 0, robber: 1, robberTiles: 3 });
  });

  test('robber: a later road of the same length does not take it; a strictly longer one does (digest "Robber Baron")', () => {
    const sc = new Scenario(rules);
    play(sc, THREE_ROADS.slice(0, 2));
    expect(takenOf(sc.events)).toEqual([['robber', 1, -1, 3]]);
    // P0 closes W-U-W: 3 tiles, equal: nothing changes.
    play(sc, THREE_ROADS.slice(2, 5));
    expect(feature(sc, 0, 1, 'r1')).toMatchObject({ kind: 'road', complete: true });
    expect(cells(feature(sc, 0, 1, 'r1'))).toEqual(['-1,1', '0,1', '1,1']);
    expect(takenOf(sc.events)).toEqual([['robber', 1, -1, 3]]);
    // P0 closes W-U-U-L: 4 tiles: the Robber Baron passes from P1 to P0.
    play(sc, THREE_ROADS.slice(5));
    expect(cells(feature(sc, 2, 1, 'r1'))).toEqual(['1,1', '2,1', '3,1', '4,1']);
    expect(takenOf(sc.events)).toEqual([
      ['robber', 1, -1, 3],
      ['robber', 0, 1, 4],
    ]);
    expect(slice(sc)).toEqual({ king: -1, kingTiles: 0, robber: 0, robberTiles: 4 });
  });

  test('robber and king: one tile completing a city and a road hands over both, each against its own record (digest "King and Robber Baron")', () => {
    //   0,-1 F@1   1,-1 E@2       F@1: city N-S on D's cap (open north); E@2: cap facing south
    //   -1,0 A@3   0,0 D   1,0 KR-03@0
    // KR-03 (city cap north, a road from the west ending at the city gate, a separate curve E-S)
    // closes the city E@2 + KR-03 (2 tiles) and the road A-D-KR-03 (3 tiles) at once.
    const sc = play(new Scenario(rules), [
      ['A', -1, 0, 3], // P0: road end west of the start tile
      ['F', 0, -1, 1], // P1
      ['E', 1, -1, 2], // P0
      ['KR-03', 1, 0, 0], // P1: closes both
    ]);
    expect(cells(feature(sc, 1, 0, 'c1'))).toEqual(['1,-1', '1,0']);
    expect(feature(sc, 1, 0, 'c1')).toMatchObject({ complete: true });
    expect(cells(feature(sc, 1, 0, 'r1'))).toEqual(['-1,0', '0,0', '1,0']);
    expect(feature(sc, 1, 0, 'r1')).toMatchObject({ complete: true });
    // KR-03's curve is a road of its own, still open.
    expect(feature(sc, 1, 0, 'r2')).toMatchObject({ complete: false, open: 2 });
    expect([...takenOf(sc.events)].sort()).toEqual([
      ['king', 1, -1, 2],
      ['robber', 1, -1, 3],
    ]);
    expect(slice(sc)).toEqual({ king: 1, kingTiles: 2, robber: 1, robberTiles: 3 });
  });
});

// ---------------------------------------------------------------------------------------------
// Final scoring

describe('king-robber: final scoring', () => {
  test('final: the King scores 1 per completed city on the board, whoever completed it (3 cities: 3 points; reason king-robber/king, feature null) (digest "Final scoring"; original "za každé uzavřené město 1 bod")', () => {
    const sc = play(new Scenario(rules), THREE_CITIES);
    expect(slice(sc)).toMatchObject({ king: 1 });
    // P0's last tile: B below the start tile, completing nothing.
    playLast(sc, ['B', 0, 1, 0]);
    expect(scoredOf(sc.events)).toEqual([[1, 3, 'king-robber/king', 'king-robber/king']]);
    const king = sc.events.find((e) => e.type === 'scored');
    expect(king).toEqual({ type: 'scored', player: 1, points: 3, reason: 'king-robber/king', feature: null });
    expect(sc.state.scores).toEqual([0, 3]);
    expect(sc.state.step).toEqual({ kind: 'game-over', winners: [1] });
  });

  test('final: the Robber Baron scores 1 per completed road on the board (3 roads: 3 points; reason king-robber/robber, feature null) (digest "Final scoring")', () => {
    const sc = play(new Scenario(rules), THREE_ROADS);
    expect(slice(sc)).toMatchObject({ robber: 0, king: -1 });
    // P1's last tile: U@0 at 5,1 extends L's east road (open), completing nothing.
    playLast(sc, ['U', 5, 1, 0]);
    expect(scoredOf(sc.events)).toEqual([[0, 3, 'king-robber/robber', 'king-robber/robber']]);
    expect(sc.events.find((e) => e.type === 'scored')).toEqual({ type: 'scored', player: 0, points: 3, reason: 'king-robber/robber', feature: null });
    expect(sc.state.scores).toEqual([3, 0]);
  });

  test('final: both holders score after the base final scoring, which is unchanged (knight, King and Robber Baron together) (digest "Final scoring")', () => {
    // P0 closes D's city (King, 1 city) and later holds a knight on an open city; P1 closes a
    // road (Robber Baron, 1 road).
    const sc = play(new Scenario(rules), [
      ['E', 0, -1, 2], // P0: King (city D+E)
      ['A', 1, 0, 1], // P1
      ['E', 1, -1, 0, 'c1'], // P0: knight on an open cap north of A@1's field... (cap faces N)
      ['A', -1, 0, 3], // P1: closes A-D-A: Robber Baron
    ]);
    expect(slice(sc)).toEqual({ king: 0, kingTiles: 2, robber: 1, robberTiles: 3 });
    playLast(sc, ['B', 0, 1, 0]); // P0
    // Base final scoring first (P0's open cap: 1 tile = 1), then the King (1 city), then the
    // Robber Baron (1 road).
    const finals = sc.events.filter((e) => e.type === 'scored');
    expect(finals).toEqual([
      { type: 'scored', player: 0, points: 1, reason: 'final', feature: { kind: 'city', x: 1, y: -1, feature: 'c1' } },
      { type: 'scored', player: 0, points: 1, reason: 'king-robber/king', feature: null },
      { type: 'scored', player: 1, points: 1, reason: 'king-robber/robber', feature: null },
    ]);
    expect(sc.state.scores).toEqual([2, 1]);
  });

  // Fixed core bug (src/core/engine/query.ts projectedScores): the projection ran only the base
  // game's final scoring, not the expansions' finalScoring hooks (the King's and the Robber
  // Baron's points).
  test('final: projectedScores before the last tile includes the King\'s points (3 cities: [0, 3]) (digest "Final scoring")', () => {
    const sc = play(new Scenario(rules), THREE_CITIES);
    expect(projectedScores(rules, sc.state)).toEqual([0, 3]);
  });

  test('final: when nobody completed a city or a road, nobody holds the King or the Robber Baron and nobody scores for them (digest "Final scoring")', () => {
    const sc = play(new Scenario(rules), [['U', 1, 0, 0]]);
    playLast(sc, ['B', 0, 1, 0]);
    expect(slice(sc)).toEqual({ king: -1, kingTiles: 0, robber: -1, robberTiles: 0 });
    expect(takenOf(sc.events)).toEqual([]);
    expect(scoredOf(sc.events)).toEqual([]);
    expect(sc.state.scores).toEqual([0, 0]);
  });
});

// ---------------------------------------------------------------------------------------------
// The five tiles

describe('king-robber: the tiles', () => {
  test('tiles: 5 extra land tiles KR-01..KR-05, one each, shuffled into the bag: 77 tiles in all (digest "5 extra land tiles shuffled in")', () => {
    const defs = tileDefs(rules);
    const kr = defs.filter((d) => d.id.startsWith('KR-'));
    expect(kr.map((d) => [d.id, d.count])).toEqual([
      ['KR-01', 1],
      ['KR-02', 1],
      ['KR-03', 1],
      ['KR-04', 1],
      ['KR-05', 1],
    ]);
    expect(rules.tileCount).toBe(77);
    const g = newGame(rules, { players: 2, seed: 'kr-bag' });
    if (!g.ok) throw new Error(g.error.message);
    expect(g.value.bag.reduce((a, b) => a + b, 0)).toBe(75); // 77 - start tile - first draw
    expect(readableId(rules.id)).toBe('classic+king-robber');
    expect(rules.options).toEqual({ game: 'classic', expansions: [{ id: 'king-robber', options: {} }] });
    expect(KING_ROBBER_TILES.map(([id]) => id)).toEqual(['KR-01', 'KR-02', 'KR-03', 'KR-04', 'KR-05']);
  });

  test('tiles: KR-05 holds two separate cities crossing on a bridge: a knight on one does not block the other (original "2 oddělené části města")', () => {
    // KR-05@0 at 0,-1: c2 (N-S) joins the start city; c1 (W-E) is a city of its own.
    const sc = new Scenario(rules);
    sc.state = rigDraw(rules, sc.state, 'KR-05');
    sc.play({ type: 'place', player: 0, x: 0, y: -1, rotation: 0 });
    expect(legalMoves(rules, sc.state).map((m) => (m.type === 'deploy' ? m.feature : m.type))).toEqual(['c1', 'c2', 'f1', 'f2', 'pass']);
    expect(cells(feature(sc, 0, -1, 'c2'))).toEqual(['0,-1', '0,0']);
    expect(cells(feature(sc, 0, -1, 'c1'))).toEqual(['0,-1']);
    expect(feature(sc, 0, -1, 'c1')).not.toEqual(feature(sc, 0, -1, 'c2'));
    sc.play({ type: 'deploy', player: 0, feature: 'c2' });
    // P1 closes c1 on both sides (E@1 west, then E@3 east by P1 again two turns later) and may
    // put a knight on c1 although P0 stands on c2, on the same tile.
    play(sc, [
      ['E', -1, -1, 1, 'c1'], // P1: cap facing east, knight: it joins c1 (one knight, P1's)
    ]);
    expect(feature(sc, 0, -1, 'c1').followers).toEqual([{ player: 1, x: -1, y: -1, feature: 'c1' }]);
    expect(feature(sc, 0, -1, 'c2').followers).toEqual([{ player: 0, x: 0, y: -1, feature: 'c2' }]);
  });

  test('tiles: the two inner meadows of KR-05 take farmers, and each scores 3 per completed city it touches: both crossing cities, 6 (digest "both inner fields can take farmers")', () => {
    //   0,-2 E@2 (cap S)
    //   -1,-1 E@1 (cap E)   0,-1 KR-05 (P0's farmer on f1)   1,-1 E@3 (cap W)
    //   0,0 D
    const sc = play(new Scenario(rules), [
      ['KR-05', 0, -1, 0, 'f1'], // P0
      ['E', 0, -2, 2], // P1: closes c2 = D + KR-05 + E (3 tiles): King to P1
      ['E', -1, -1, 1], // P0
    ]);
    const f1 = feature(sc, 0, -1, 'f1');
    expect(f1).toMatchObject({ kind: 'field', open: 0, majority: [0] });
    expect(cells(f1)).toEqual(['0,-1']);
    // The two inner meadows are separate from each other.
    expect(feature(sc, 0, -1, 'f2')).toMatchObject({ kind: 'field', followers: [] });
    // P1 closes c1 (E@1 + KR-05 + E@3: 3 tiles, not larger than 3): the King stays with P1.
    playLast(sc, ['E', 1, -1, 3]);
    expect(takenOf(sc.events)).toEqual([['king', 1, -1, 3]]);
    expect(sortedScored(scoredOf(sc.events))).toEqual(
      sortedScored([
        [0, 6, 'field', 'farm'], // f1 touches both completed cities
        [1, 2, 'king-robber/king', 'king-robber/king'], // 2 completed cities
      ]),
    );
    expect(sc.state.scores).toEqual([6, 2]);
  });
});

// ---------------------------------------------------------------------------------------------
// The tiles against the reference

const ours: readonly TileDef[] = tileDefs(rules).filter((d) => d.id.startsWith('KR-'));

describe('king-robber tiles: our table against test/fixtures/classic-tiles.json (set "king_robber")', () => {
  test('tiles: the same 5 tiles KR-01..KR-05, one of each', () => {
    const set = loadReferenceSet('king_robber');
    expect([set.expected_total, set.total, set.distinct]).toEqual([5, 5, 5]);
    expect(sortedIds(set.tiles.map((t) => t.id))).toEqual(sortedIds(ours.map((t) => t.id)));
    for (const t of ours) expect(t.count, t.id).toBe(set.tiles.find((r) => r.id === t.id)!.count);
  });

  test.each(ours.map((t) => [t.id, t] as const))('tiles: %s has the reference features (id, kind, ports, pennants, adjacent cities)', (id, tile) => {
    const ref = loadReferenceSet('king_robber').tiles.find((t) => t.id === id)!;
    expectFeaturesMatch(tile, ref, (f, rf) => {
      // Inner fields (KR-05) own no port: they touch no edge of the tile.
      if (rf.inner_only === true) expect(f.ports, `${id} ${rf.id} is inner`).toEqual([]);
    });
    expectPortsOwnedOnce(tile);
  });

  test('tiles: KR-05 is the only tile with inner fields, and both touch both of its cities', () => {
    const inner = loadReferenceSet('king_robber').tiles.flatMap((t) => t.features.filter((f) => f.inner_only === true).map((f) => `${t.id}/${f.id}`));
    expect(inner).toEqual(['KR-05/f1', 'KR-05/f2']);
    const kr05 = ours.find((t) => t.id === 'KR-05')!;
    for (const id of ['f1', 'f2']) {
      const f = kr05.features.find((x) => x.id === id)!;
      expect(f.ports).toEqual([]);
      expect(sortedIds(f.adjacent)).toEqual(['c1', 'c2']);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Random games

describe('king-robber: seeded random games', () => {
  test('random: 200 seeded random games (2 and 4 players) reach game over; every score equals the sum of its scored events; the holders and final King/Robber points agree with the events', () => {
    let handOvers = 0;
    let placed = 0;
    // 200 games in the full tier, 40 in the fast one (test/depth.ts).
    const games = byDepth(200, 40);
    for (let i = 0; i < games; i++) {
      const players = i % 2 === 0 ? 2 : 4;
      const g = newGame(rules, { players, seed: `kr-random-${i}` });
      if (!g.ok) throw new Error(g.error.message);
      const sim = createSimulator(rules, g.value, { events: true });
      if (!sim.ok) throw new Error(sim.error.message);
      const random = createRandomSource(`kr-moves-${i}`);
      const events: GameEvent[] = [];
      let moves = 0;
      while (!sim.value.isOver()) {
        sim.value.playRandom(random);
        events.push(...sim.value.takeEvents());
        if (++moves > 1000) throw new Error(`game ${i} does not end`);
      }
      const end = sim.value.state;
      expect(end.step.kind, `game ${i}`).toBe('game-over');
      placed += end.tiles.length;
      const sums = new Array<number>(players).fill(0);
      for (const e of events) if (e.type === 'scored') sums[e.player]! += e.points;
      expect(end.scores, `game ${i}: scores = sum of scored events`).toEqual(sums);
      // Hand-overs: records strictly grow; the last event names the holder.
      const taken = takenOf(events);
      handOvers += taken.length;
      const s = end.ext[KING_ROBBER] as KingRobberState;
      for (const kind of ['king', 'robber'] as const) {
        const list = taken.filter((t) => t[0] === kind);
        for (let k = 1; k < list.length; k++) {
          expect(list[k]![3], `game ${i} ${kind} record grows`).toBeGreaterThan(list[k - 1]![3]);
          expect(list[k]![2], `game ${i} ${kind} from = previous holder`).toBe(list[k - 1]![1]);
        }
        const holder = list.length === 0 ? -1 : list[list.length - 1]![1];
        expect(kind === 'king' ? s.king : s.robber, `game ${i} ${kind} holder`).toBe(holder);
        const reason = `king-robber/${kind}`;
        const bonus = events.filter((e) => e.type === 'scored' && e.reason === reason);
        if (holder < 0) expect(bonus).toEqual([]);
        else {
          // 1 point per completed city (road) on the board: one feature-completed event each.
          const done = events.filter((e) => e.type === 'feature-completed' && e.feature.kind === (kind === 'king' ? 'city' : 'road')).length;
          expect(bonus, `game ${i} ${kind} final`).toEqual([{ type: 'scored', player: holder, points: done, reason, feature: null }]);
        }
      }
    }
    // The games are real: (almost) every tile placed, and the King and the Robber Baron moved.
    expect(placed).toBeGreaterThan(games * 70);
    expect(handOvers).toBeGreaterThan(games);
  });
});
