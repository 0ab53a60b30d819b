/**
 * The Tower: tiles, pieces, the turn's action, captures, prisoners and ransom, and the
 * interactions with the other modules. Sources, cited per row:
 * - the Czech rulebook "Carcassonne Věž" (MINDOK, © 2006 Hans im Glück), "the rulebook" (the
 *   authority), with its questions and answers ("Q&A");
 * - the expansions digest, "The Tower" ("the digest");
 * - the Count's 2nd-edition annotated rules for the combinations ("the Count's rules");
 * - the tile reference, set `tower` (test/fixtures/classic-tiles.json).
 * Positions are built with rigged draws (test/helpers.ts), the board drawn in each row's comment
 * (x grows east, y south; D is the start tile at 0,0: city north, road west-east).
 */
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  createRuleset,
  featureAt,
  legalMoves,
  newGame,
  observe,
  offBoardFollowers,
  parseState,
  projectedScores,
  serializeState,
  whyIllegal,
  type GameEvent,
  type Move,
  type Rotation,
  type Ruleset,
} from '../src/index.js';
import { challenges, shrines } from '../src/expansions/shrines/index.js';
import { count } from '../src/expansions/count/index.js';
import { river } from '../src/expansions/river/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { captureTargets, reachOf, TOWER_PIECES, TOWER_TILES, tower, towerAt, type TowerState } from '../src/expansions/tower/index.js';
import { cellKey, keyX, keyY } from '../src/core/state.js';
import { rigDraw, must, Scenario, scoredOf, readableId } from './helpers.js';
import { expectFeaturesMatch, expectPortsOwnedOnce, loadReferenceSet } from './reference.js';

const rules = must(createRuleset({ game: 'classic', expansions: [tower()] }));
const debtRules = must(createRuleset({ game: 'classic', expansions: [tower({ ransomDebt: true })] }));
const classicOnly = must(createRuleset({ game: 'classic' }));

const slice = (sc: Scenario): TowerState => sc.state.ext['tower'] as TowerState;

/** Places tile `id` (rigged draw) and leaves the deploy step open (or whatever follows the placement). */
function lay(sc: Scenario, id: string, x: number, y: number, rotation: Rotation): Scenario {
  sc.state = rigDraw(sc.rules, sc.state, id);
  sc.play({ type: 'place', player: sc.player, x, y, rotation });
  return sc;
}

/** Lays a tile and builds on the tower at `tx, ty` as the turn's action. */
function layAndBuild(sc: Scenario, id: string, x: number, y: number, rotation: Rotation, tx: number, ty: number): Scenario {
  lay(sc, id, x, y, rotation);
  return sc.play({ type: 'tower/build', player: sc.player, x: tx, y: ty });
}

/** Cells as `x,y` strings, for readable expectations. */
const cells = (keys: readonly number[]): string[] => keys.map((k) => `${keyX(k)},${keyY(k)}`);

/** The capture targets offered now, as `x,y feature owner`. */
function offered(sc: Scenario): string[] {
  return legalMoves(sc.rules, sc.state).flatMap((m) => (m.type === 'tower/capture' ? [`${field(m, 'x')},${field(m, 'y')} ${field(m, 'feature')} ${field(m, 'owner')}`] : []));
}

/** A field of a move of any type. */
const field = (m: Move, k: string): unknown => (m as unknown as Record<string, unknown>)[k];

const eventsOf = (sc: Scenario, type: string): GameEvent[] => sc.events.filter((e) => e.type === type);

/**
 * Board A (the capture pictures). Blue (player 1) has a farmer on the foundation tile TO-02 at
 * 0,1, monks on the cloisters B at -1,1, 1,1 and 0,2, knights on the city caps E at 2,1 and
 * -2,1; red (player 0) has a thief on the road curve V at 0,3. Red's other tiles are straight
 * roads U west and east of D.
 *
 *        -2   -1    0    1    2
 *   0    U    U    D    U
 *   1    E*   B*   T*   B*   E*       (T: the foundation TO-02)
 *   2              B*
 *   3              V+                 (* blue's follower, + red's)
 */
function boardA(r: Ruleset = rules): Scenario {
  const sc = new Scenario(r, 2, 'tower-a');
  sc.place('U', -1, 0, 0);
  sc.place('TO-02', 0, 1, 0, 'f1');
  sc.place('U', 1, 0, 0);
  sc.place('B', -1, 1, 0, 'm1');
  sc.place('U', -2, 0, 0);
  sc.place('B', 1, 1, 0, 'm1');
  sc.place('U', -3, 0, 0);
  sc.place('B', 0, 2, 0, 'm1');
  sc.place('U', -4, 0, 0);
  sc.place('E', 2, 1, 0, 'c1');
  sc.place('V', 0, 3, 0, 'r1');
  sc.place('E', -2, 1, 3, 'c1');
  return sc;
}

describe('tower tiles (reference set "tower"; the rulebook: "18 karet krajiny se základy věží")', () => {
  const ref = loadReferenceSet('tower');
  test('tiles: 18 tiles of 17 kinds TO-01..TO-17, TO-01 twice; 90 tiles in the bag with the base game', () => {
    expect(TOWER_TILES.map(([id]) => id)).toEqual(ref.tiles.map((t) => t.id));
    expect(TOWER_TILES.reduce((n, [, c]) => n + c, 0)).toBe(18);
    expect(TOWER_TILES.map(([id, c]) => [id, c])).toEqual(ref.tiles.map((t) => [t.id, t.count]));
    expect(rules.tileCount).toBe(72 + 18);
  });
  test.each(ref.tiles.map((t) => [t.id, t] as const))('tiles: %s has the reference features, port by port, and a tower foundation', (id, rt) => {
    const def = rules.tiles[rules.tileIndex[id]!]!.def;
    expectPortsOwnedOnce(def);
    expectFeaturesMatch(def, rt);
    expect(rt.symbols).toContain('tower_foundation');
  });
  test('tiles: TO-08 (the bridge) keeps one road running north-south over one city: "Na kartě s mostem cesta nekončí, pokračuje přes město dále"', () => {
    // D at 0,0 (road W-E); TO-08 turned 1 at 1,0: its road runs W-E, continuing D's road over its city.
    const sc = new Scenario(rules, 2, 'bridge');
    lay(sc, 'TO-08', 1, 0, 1);
    const road = must(featureAt(rules, sc.state, { x: 0, y: 0, port: 'E2' }));
    expect(road.kind).toBe('road');
    expect(road.tiles).toEqual([{ x: 0, y: 0 }, { x: 1, y: 0 }]);
    const city = must(featureAt(rules, sc.state, { x: 1, y: 0, feature: 'c1' }));
    expect([city.kind, city.open]).toEqual(['city', 6]);
  });
  test('tiles: every foundation tile laid adds an empty foundation (height 0) at its cell; the list is kept by cell', () => {
    const sc = new Scenario(rules, 2, 'found');
    lay(sc, 'TO-02', 0, 1, 0).play({ type: 'pass', player: 0 });
    lay(sc, 'TO-03', 0, 2, 0).play({ type: 'pass', player: 1 });
    lay(sc, 'TO-01', 0, -1, 2).play({ type: 'pass', player: 0 });
    expect(slice(sc).towers).toEqual([
      { x: 0, y: -1, height: 0, top: -1 },
      { x: 0, y: 1, height: 0, top: -1 },
      { x: 0, y: 2, height: 0, top: -1 },
    ]);
  });
});

describe('set-up (the rulebook, "Příprava hry": 2 hráči 10, 3 hráči 9, 4 hráči 7, 5 hráčů 6 dílků)', () => {
  test.each([
    [2, 10],
    [3, 9],
    [4, 7],
    [5, 6],
  ])('pieces: %i players get %i tower pieces each', (players, pieces) => {
    const g = must(newGame(rules, { players, seed: 'p' }));
    expect((g.ext['tower'] as TowerState).pieces).toEqual(new Array(players).fill(pieces));
    expect(TOWER_PIECES[players]).toBe(pieces);
  });
  test('pieces: six players are refused: the 6-player row needs Inns and Cathedrals ("pouze s prvním rozšířením")', () => {
    const g = newGame(rules, { players: 6, seed: 'p' });
    expect(g.ok).toBe(false);
    expect(rules.maxPlayers).toBe(5);
  });
});

describe('the action: one of four alternatives (the rulebook, "Průběh hry": "má 4 možnosti")', () => {
  test('action: after placing, a follower, a piece on ANY foundation or tower on the board, a follower on top of ANY tower, or pass', () => {
    // Two foundations: TO-02 at 0,1 (empty) and TO-03 at 0,2 (height 1 after red builds on it).
    const sc = new Scenario(rules, 2, 'alts');
    lay(sc, 'TO-02', 0, 1, 0).play({ type: 'pass', player: 0 });
    layAndBuild(sc, 'TO-03', 0, 2, 0, 0, 2); // blue builds on the tile it just laid: nobody in reach
    expect(slice(sc).towers[1]).toEqual({ x: 0, y: 2, height: 1, top: -1 });
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 0 });
    lay(sc, 'U', 1, 0, 0);
    expect(legalMoves(rules, sc.state).map((m) => `${m.type} ${field(m, 'feature') ?? ''}${field(m, 'x') ?? ''},${field(m, 'y') ?? ''}`)).toEqual([
      'deploy r1,', 'deploy f1,', 'deploy f2,',
      // A piece on either foundation, wherever it lies (not only the tile just placed)...
      'tower/build 0,1', 'tower/build 0,2',
      // ... a follower only on a tower (height 1 or more), never on an empty foundation.
      'tower/cap 0,2',
      'pass ,',
    ]);
  });

  test('action: a follower on top closes the tower: no piece may go on it ("a tím zabránit další stavbě této věže"), and it stays', () => {
    const sc = new Scenario(rules, 2, 'cap');
    lay(sc, 'TO-02', 0, 1, 0).play({ type: 'tower/build', player: 0, x: 0, y: 1 });
    lay(sc, 'U', 1, 0, 0).play({ type: 'tower/cap', player: 1, x: 0, y: 1 });
    expect(slice(sc).towers[0]).toEqual({ x: 0, y: 1, height: 1, top: 1 });
    expect(sc.state.supply).toEqual([7, 6]);
    expect(offBoardFollowers(rules, sc.state)).toEqual([0, 1]);
    lay(sc, 'U', -1, 0, 0);
    expect(legalMoves(rules, sc.state).some((m) => m.type === 'tower/build' || m.type === 'tower/cap')).toBe(false);
    expect(whyIllegal(rules, sc.state, { type: 'tower/build', player: 0, x: 0, y: 1 })?.code).toBe('tower/capped');
    expect(whyIllegal(rules, sc.state, { type: 'tower/cap', player: 0, x: 0, y: 1 })?.code).toBe('tower/capped');
    expect(eventsOf(sc, 'tower/capped')).toEqual([{ type: 'tower/capped', player: 1, x: 0, y: 1 }]);
  });

  test('action: one action per turn: after a piece, every other alternative is refused (Q&A: "obojí jsou alternativy umístění figurky")', () => {
    const sc = boardA();
    layAndBuild(sc, 'U', -5, 0, 0, 0, 1);
    expect(sc.state.step).toMatchObject({ kind: 'tower/capture', player: 0, x: 0, y: 1, height: 1 });
    expect(whyIllegal(rules, sc.state, { type: 'tower/build', player: 0, x: 0, y: 1 })?.code).toBe('tower/action-taken');
    expect(whyIllegal(rules, sc.state, { type: 'tower/cap', player: 0, x: 0, y: 1 })?.code).toBe('tower/action-taken');
    expect(whyIllegal(rules, sc.state, { type: 'deploy', player: 0, feature: 'r1' })?.code).toBe('move/wrong-step');
    expect(whyIllegal(rules, sc.state, { type: 'pass', player: 0 })?.code).toBe('move/wrong-step');
    sc.play({ type: 'tower/decline', player: 0 });
    // The turn is over: blue's turn; red may not act, and blue must place first.
    expect(whyIllegal(rules, sc.state, { type: 'tower/build', player: 0, x: 0, y: 1 })?.code).toBe('tower/not-your-turn');
    expect(whyIllegal(rules, sc.state, { type: 'tower/build', player: 1, x: 0, y: 1 })?.code).toBe('tower/place-first');
  });

  test('action: bad tower moves are refused with their own codes, the state unchanged', () => {
    const sc = boardA();
    lay(sc, 'U', -5, 0, 0);
    const before = serializeState(sc.state);
    const rows: [Record<string, unknown>, string][] = [
      [{ type: 'tower/build', player: 0, x: 5, y: 5 }, 'tower/no-foundation'],
      [{ type: 'tower/cap', player: 0, x: 0, y: 1 }, 'tower/no-tower'],
      [{ type: 'tower/build', player: 1, x: 0, y: 1 }, 'tower/not-your-turn'],
      [{ type: 'tower/build', player: 0, x: 0 }, 'tower/malformed'],
      [{ type: 'tower/build', player: 0, x: 0, y: 1, height: 3 }, 'tower/malformed'],
      [{ type: 'tower/fly', player: 0 }, 'tower/unknown-move'],
      [{ type: 'tower/capture', player: 0, x: 0, y: 1, feature: 'f1', owner: 1 }, 'tower/no-capture'],
      [{ type: 'tower/decline', player: 0 }, 'tower/no-capture'],
      [{ type: 'tower/ransom', player: 0, captor: 1 }, 'tower/not-held'],
    ];
    for (const [move, code] of rows) {
      expect(whyIllegal(rules, sc.state, move)?.code, JSON.stringify(move)).toBe(code);
      const r = applyMove(rules, sc.state, move as Move);
      expect(r.ok ? null : r.error.code).toBe(code);
    }
    expect(serializeState(sc.state)).toBe(before);
  });

  test('action: no piece left: tower/no-pieces (each player has 10 in a 2-player game)', () => {
    const sc = new Scenario(rules, 2, 'pieces');
    lay(sc, 'TO-02', 0, 1, 0).play({ type: 'tower/build', player: 0, x: 0, y: 1 });
    const s = structuredClone(sc.state);
    (s.ext['tower'] as TowerState).pieces[1] = 0;
    sc.state = s;
    lay(sc, 'U', 1, 0, 0);
    expect(legalMoves(rules, sc.state).some((m) => m.type === 'tower/build')).toBe(false);
    expect(whyIllegal(rules, sc.state, { type: 'tower/build', player: 1, x: 0, y: 1 })?.code).toBe('tower/no-pieces');
  });
});

describe('capture (the rulebook, "Umístění dílku věže a uvěznění figurky")', () => {
  test('capture: the first floor reaches the tower\'s own tile and the four next to it (the first picture: "z karty, na které je věž, nebo z jedné ze čtyř sousedních karet")', () => {
    const sc = boardA();
    layAndBuild(sc, 'U', -5, 0, 0, 0, 1);
    expect(eventsOf(sc, 'tower/built')).toEqual([{ type: 'tower/built', player: 0, x: 0, y: 1, height: 1 }]);
    expect(cells(reachOf(sc.state, 0, 1, 1))).toEqual(['0,0', '-1,1', '0,1', '1,1', '0,2']);
    // Blue's followers there, by cell; the knights two cells away and red's own thief are not offered.
    expect(offered(sc)).toEqual(['-1,1 m1 1', '0,1 f1 1', '1,1 m1 1', '0,2 m1 1']);
  });

  test('capture: the second floor reaches the nine cells of the cross (the second picture: "z jednoho z devíti možných polí")', () => {
    const sc = boardA();
    layAndBuild(sc, 'U', -5, 0, 0, 0, 1).play({ type: 'tower/decline', player: 0 });
    lay(sc, 'U', -6, 0, 0).play({ type: 'pass', player: 1 });
    layAndBuild(sc, 'U', -7, 0, 0, 0, 1);
    // The cross of height 2 has nine cells; 0,-1 is empty (north of D), so eight hold tiles.
    expect(cells(reachOf(sc.state, 0, 1, 2))).toEqual(['0,0', '-2,1', '-1,1', '0,1', '1,1', '2,1', '0,2', '0,3']);
    expect(offered(sc)).toEqual(['-2,1 c1 1', '-1,1 m1 1', '0,1 f1 1', '1,1 m1 1', '2,1 c1 1', '0,2 m1 1']);
  });

  test('capture: never across an empty cell ("Tyto možnosti nemohou přesahovat mezery v krajině")', () => {
    // T at 0,1; blue's monk at 2,1 with 1,1 empty. Height 2 cannot reach it; once 1,1 holds a tile, height 3 can.
    const sc = new Scenario(rules, 2, 'gap');
    sc.place('TO-02', 0, 1, 0);
    sc.place('U', 1, 0, 0);
    sc.place('U', 2, 0, 0);
    sc.place('B', 2, 1, 0, 'm1');
    layAndBuild(sc, 'U', -1, 0, 0, 0, 1);
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 }); // nobody in reach: no capture step
    sc.place('U', -2, 0, 0);
    layAndBuild(sc, 'U', -3, 0, 0, 0, 1);
    expect(slice(sc).towers[0]!.height).toBe(2);
    expect(cells(reachOf(sc.state, 0, 1, 2))).toEqual(['0,0', '0,1']);
    expect(captureTargets(rules, sc.state, 0, 1, 2, 0)).toEqual([]);
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
    sc.place('B', 1, 1, 0); // fills the gap
    layAndBuild(sc, 'U', -4, 0, 0, 0, 1);
    expect(offered(sc)).toEqual(['2,1 m1 1']);
    expect(whyIllegal(rules, sc.state, { type: 'tower/capture', player: 0, x: 3, y: 1, feature: 'm1', owner: 1 })?.code).toBe('tower/out-of-range');
  });

  test('capture: the capture takes the follower off its feature and holds it; others are refused (own follower, out of reach, nobody there)', () => {
    const sc = boardA();
    layAndBuild(sc, 'U', -5, 0, 0, 0, 1);
    expect(whyIllegal(rules, sc.state, { type: 'tower/capture', player: 0, x: 0, y: 3, feature: 'r1', owner: 0 })?.code).toBe('tower/own-follower');
    expect(whyIllegal(rules, sc.state, { type: 'tower/capture', player: 0, x: 2, y: 1, feature: 'c1', owner: 1 })?.code).toBe('tower/out-of-range');
    expect(whyIllegal(rules, sc.state, { type: 'tower/capture', player: 0, x: 0, y: 0, feature: 'c1', owner: 1 })?.code).toBe('tower/no-follower-there');
    sc.play({ type: 'tower/capture', player: 0, x: 1, y: 1, feature: 'm1', owner: 1 });
    expect(eventsOf(sc, 'tower/captured')).toEqual([{ type: 'tower/captured', player: 0, owner: 1, x: 1, y: 1, feature: 'm1' }]);
    expect(must(featureAt(rules, sc.state, { x: 1, y: 1, feature: 'm1' })).followers).toEqual([]);
    expect(slice(sc).prisoners).toEqual([[0, 1], [0, 0]]);
    // Blue: 6 deployed, one now a prisoner; its supply does not get it back.
    expect(sc.state.supply).toEqual([6, 1]);
    expect(offBoardFollowers(rules, sc.state)).toEqual([0, 1]);
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
  });

  test('capture: a follower on top of a tower can be captured (Q&A "Mohou být uvězněny figurky na věžích? Ano."); the tower may then grow again', () => {
    // Red's tower at 0,1 and a second foundation TO-03 at 1,1; blue caps the tower on 1,1, red's
    // 0,1 (height 2... 1 is enough: 1,1 is next to it) takes blue's follower off the top.
    const sc = new Scenario(rules, 2, 'top');
    lay(sc, 'TO-02', 0, 1, 0).play({ type: 'tower/build', player: 0, x: 0, y: 1 });
    layAndBuild(sc, 'TO-03', 1, 1, 0, 1, 1);
    sc.place('U', 1, 0, 0);
    lay(sc, 'U', -1, 0, 0).play({ type: 'tower/cap', player: 1, x: 1, y: 1 });
    expect(slice(sc).towers[1]).toEqual({ x: 1, y: 1, height: 1, top: 1 });
    layAndBuild(sc, 'U', -2, 0, 0, 0, 1);
    expect(offered(sc)).toEqual(['1,1 top 1']);
    sc.play({ type: 'tower/capture', player: 0, x: 1, y: 1, feature: 'top', owner: 1 });
    expect(slice(sc).towers[1]).toEqual({ x: 1, y: 1, height: 1, top: -1 });
    expect(slice(sc).prisoners).toEqual([[0, 1], [0, 0]]);
    expect(offBoardFollowers(rules, sc.state)).toEqual([0, 1]);
    // Nothing stands on it any more: it may grow (the reading in docs/expansions/tower.md).
    lay(sc, 'U', -3, 0, 0);
    expect(legalMoves(rules, sc.state).some((m) => m.type === 'tower/build' && field(m, 'x') === 1 && field(m, 'y') === 1)).toBe(true);
  });

  test('capture: before the scoring ("ještě dříve, než se na konci kola počítají body"): a knight captured out of the city the same tile completes scores nothing', () => {
    // Blue's knight on G at 0,-1 (city D-G open to the north); red lays E at 0,-2 closing the city
    // (3 tiles, 6 points) and, as its action, builds on TO-02 at 1,-1, taking the knight first.
    const sc = new Scenario(rules, 2, 'before-scoring');
    sc.place('U', 1, 0, 0);
    sc.place('G', 0, -1, 1, 'c1');
    sc.place('TO-02', 1, -1, 0);
    sc.place('U', -1, 0, 0);
    layAndBuild(sc, 'E', 0, -2, 2, 1, -1);
    expect(offered(sc)).toEqual(['0,-1 c1 1']);
    sc.play({ type: 'tower/capture', player: 0, x: 0, y: -1, feature: 'c1', owner: 1 });
    const completed = eventsOf(sc, 'feature-completed');
    expect(completed).toHaveLength(1);
    expect(scoredOf(sc.events)).toEqual([]);
    expect(sc.state.scores).toEqual([0, 0]);
    // The same turn without the capture scores blue 6.
    const other = new Scenario(rules, 2, 'before-scoring');
    other.place('U', 1, 0, 0);
    other.place('G', 0, -1, 1, 'c1');
    other.place('TO-02', 1, -1, 0);
    other.place('U', -1, 0, 0);
    layAndBuild(other, 'E', 0, -2, 2, 1, -1).play({ type: 'tower/decline', player: 0 });
    expect(other.state.scores).toEqual([0, 6]);
  });
});

describe('prisoners (the rulebook, "Věžňové")', () => {
  test('exchange: two players holding each other\'s followers exchange them at once ("okamžitě si je navzájem vymění")', () => {
    // Board A: red takes blue's monk at 1,1 (height 1); blue builds the same tower to height 2 and takes red's thief at 0,3.
    const sc = boardA();
    layAndBuild(sc, 'U', -5, 0, 0, 0, 1).play({ type: 'tower/capture', player: 0, x: 1, y: 1, feature: 'm1', owner: 1 });
    layAndBuild(sc, 'U', -6, 0, 0, 0, 1);
    expect(offered(sc)).toEqual(['0,3 r1 0']);
    sc.play({ type: 'tower/capture', player: 1, x: 0, y: 3, feature: 'r1', owner: 0 });
    expect(eventsOf(sc, 'tower/exchanged')).toEqual([{ type: 'tower/exchanged', players: [0, 1] }]);
    expect(slice(sc).prisoners).toEqual([[0, 0], [0, 0]]);
    // Both followers are back in their owners' supplies.
    expect(sc.state.supply).toEqual([7, 2]);
    expect(offBoardFollowers(rules, sc.state)).toEqual([0, 0]);
  });

  test('exchange: one for one; a second prisoner held the same way stays (the large-follower Q&A: "jako jedna obyčejná figurka")', () => {
    // Red takes two of blue's followers (turns at heights 1 and 3), then blue takes one of red's: one pair is exchanged.
    const sc = boardA();
    layAndBuild(sc, 'U', -5, 0, 0, 0, 1).play({ type: 'tower/capture', player: 0, x: 1, y: 1, feature: 'm1', owner: 1 });
    lay(sc, 'U', -6, 0, 0).play({ type: 'pass', player: 1 });
    layAndBuild(sc, 'U', -7, 0, 0, 0, 1).play({ type: 'tower/capture', player: 0, x: -1, y: 1, feature: 'm1', owner: 1 });
    expect(slice(sc).prisoners).toEqual([[0, 2], [0, 0]]);
    layAndBuild(sc, 'V', -8, 0, 2, 0, 1);
    expect(offered(sc)).toEqual(['0,3 r1 0']);
    sc.play({ type: 'tower/capture', player: 1, x: 0, y: 3, feature: 'r1', owner: 0 });
    expect(slice(sc).prisoners).toEqual([[0, 1], [0, 0]]);
  });

  test('ransom: 3 points to the captor, and the freed follower is deployed the same turn ("může být ihned v tomto kole umístěna do krajiny")', () => {
    // With ransomDebt, so that blue (0 points) may pay. Red holds one of blue's followers; blue deploys its last
    // follower in supply, then in its next turn pays at the deploy step and deploys the freed one.
    const sc = boardA(debtRules);
    layAndBuild(sc, 'U', -5, 0, 0, 0, 1).play({ type: 'tower/capture', player: 0, x: 1, y: 1, feature: 'm1', owner: 1 });
    sc.place('B', -1, 2, 0, 'm1');
    expect(sc.state.supply[1]).toBe(0);
    sc.place('U', -6, 0, 0);
    lay(sc, 'E', 1, 2, 1);
    // No follower to deploy, but the step is open (a tower piece is possible) and the ransom is offered in it.
    expect(legalMoves(debtRules, sc.state).map((m) => m.type)).toEqual(['tower/build', 'tower/ransom', 'pass']);
    sc.play({ type: 'tower/ransom', player: 1, captor: 0 });
    expect(sc.state.step).toMatchObject({ kind: 'deploy', player: 1 });
    expect(sc.state.supply[1]).toBe(1);
    expect(slice(sc).prisoners).toEqual([[0, 0], [0, 0]]);
    sc.play({ type: 'deploy', player: 1, feature: 'c1' });
    expect(sc.state.supply[1]).toBe(0);
    expect(sc.state.scores).toEqual([3, -3]);
    expect(scoredOf(sc.events)).toEqual([
      [1, -3, 'tower/ransom', 'tower/ransom'],
      [0, 3, 'tower/ransom', 'tower/ransom'],
    ]);
    expect(eventsOf(sc, 'tower/ransomed')).toEqual([{ type: 'tower/ransomed', player: 1, captor: 0 }]);
  });

  test('ransom: once per turn (Q&A: "Provádí se jedenkrát za tah. Kdykoli v průběhu tahu hráče."), at any step of one\'s own turn', () => {
    const sc = boardA(debtRules);
    layAndBuild(sc, 'U', -5, 0, 0, 0, 1).play({ type: 'tower/capture', player: 0, x: 1, y: 1, feature: 'm1', owner: 1 });
    lay(sc, 'U', -6, 0, 0).play({ type: 'pass', player: 1 });
    layAndBuild(sc, 'U', -7, 0, 0, 0, 1).play({ type: 'tower/capture', player: 0, x: -1, y: 1, feature: 'm1', owner: 1 });
    // Blue's turn, before placing: the ransom is offered at the place-tile step too.
    sc.state = rigDraw(debtRules, sc.state, 'V');
    expect(legalMoves(debtRules, sc.state).filter((m) => m.type === 'tower/ransom')).toEqual([{ type: 'tower/ransom', player: 1, captor: 0 }]);
    sc.play({ type: 'tower/ransom', player: 1, captor: 0 });
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
    expect(legalMoves(debtRules, sc.state).some((m) => m.type === 'tower/ransom')).toBe(false);
    expect(whyIllegal(debtRules, sc.state, { type: 'tower/ransom', player: 1, captor: 0 })?.code).toBe('tower/ransom-paid');
    sc.play({ type: 'place', player: 1, x: -8, y: 0, rotation: 2 });
    expect(whyIllegal(debtRules, sc.state, { type: 'tower/ransom', player: 1, captor: 0 })?.code).toBe('tower/ransom-paid');
    sc.play({ type: 'pass', player: 1 });
    // Red's turn: a ransom for blue now is out of turn; next turn blue may pay again.
    expect(whyIllegal(debtRules, sc.state, { type: 'tower/ransom', player: 1, captor: 0 })?.code).toBe('tower/not-your-turn');
    sc.place('X', -8, -1, 0);
    expect(legalMoves(debtRules, sc.state).filter((m) => m.type === 'tower/ransom')).toEqual([{ type: 'tower/ransom', player: 1, captor: 0 }]);
  });

  test('ransom: by default a player needs 3 points to pay (the reading of "se posune na počítadle bodů o tři body zpět"); tower({ ransomDebt: true }) lets anyone pay', () => {
    const sc = boardA();
    layAndBuild(sc, 'U', -5, 0, 0, 0, 1).play({ type: 'tower/capture', player: 0, x: 1, y: 1, feature: 'm1', owner: 1 });
    sc.state = rigDraw(rules, sc.state, 'X');
    expect(sc.state.scores[1]).toBe(0);
    expect(legalMoves(rules, sc.state).some((m) => m.type === 'tower/ransom')).toBe(false);
    expect(whyIllegal(rules, sc.state, { type: 'tower/ransom', player: 1, captor: 0 })?.code).toBe('tower/not-enough-points');
    // With 3 points blue may pay, and ends at 0.
    const s = structuredClone(sc.state);
    s.scores[1] = 3;
    expect(legalMoves(rules, s).filter((m) => m.type === 'tower/ransom')).toEqual([{ type: 'tower/ransom', player: 1, captor: 0 }]);
    expect(must(applyMove(rules, s, { type: 'tower/ransom', player: 1, captor: 0 })).state.scores).toEqual([3, 0]);
    expect(createRuleset({ game: 'classic', expansions: [tower({ ransomDebt: 'yes' } as never)] }).ok).toBe(false);
    expect(readableId(debtRules.id)).toBe('classic+tower{"ransomDebt":true}');
    expect(readableId(rules.id)).toBe('classic+tower');
  });
});

describe('views, saved states, queries', () => {
  test('observe: towers, heights, tops, prisoners and pieces are public, shown whole to every viewer', () => {
    const sc = boardA();
    layAndBuild(sc, 'U', -5, 0, 0, 0, 1).play({ type: 'tower/capture', player: 0, x: 1, y: 1, feature: 'm1', owner: 1 });
    for (const viewer of [0, 1, null]) expect(observe(rules, sc.state, viewer).ext['tower']).toEqual(sc.state.ext['tower']);
  });

  test('saved states: a game with towers round-trips; tampered Tower data is refused', () => {
    let s = must(newGame(rules, { players: 2, seed: 'save' }));
    for (let i = 0; i < 400 && s.step.kind !== 'game-over'; i++) {
      const moves = legalMoves(rules, s);
      const build = moves.find((m) => m.type === 'tower/build' || m.type === 'tower/capture');
      s = must(applyMove(rules, s, build ?? moves[i % moves.length]!)).state;
    }
    const text = serializeState(s);
    expect(serializeState(must(parseState(rules, text)))).toBe(text);
    const t = (s.ext['tower'] as TowerState);
    expect(t.towers.some((x) => x.height > 0)).toBe(true);
    for (const tamper of [
      (x: TowerState) => (x.pieces[0] = x.pieces[0]! + 1),
      (x: TowerState) => (x.towers[0]!.height += 1),
      (x: TowerState) => (x.prisoners[0]![1] = x.prisoners[0]![1]! + 1),
      (x: TowerState) => (x.ransomTurn = x.ransomTurn + 1),
    ]) {
      const j = JSON.parse(text) as { state: { ext: { tower: TowerState } } };
      tamper(j.state.ext.tower);
      const r = parseState(rules, JSON.stringify(j));
      expect(r.ok, String(tamper)).toBe(false);
    }
  });

  test('projectedScores: followers on tower tops and prisoners score nothing at the end', () => {
    const sc = boardA();
    layAndBuild(sc, 'U', -5, 0, 0, 0, 1);
    const before = projectedScores(rules, sc.state);
    // The monk at 1,1 would score its unfinished cloister: itself and 5 neighbours (D, U at 1,0, T, E at 2,1, B at 0,2).
    sc.play({ type: 'tower/capture', player: 0, x: 1, y: 1, feature: 'm1', owner: 1 });
    const captured = projectedScores(rules, sc.state);
    expect(before[1]! - captured[1]!).toBe(6);
    // A follower put on top of the tower scores nothing either.
    lay(sc, 'X', -6, 0, 0).play({ type: 'tower/cap', player: 1, x: 0, y: 1 });
    expect(projectedScores(rules, sc.state)[1]).toBe(captured[1]);
  });
});

describe('with the other modules (hook order: River 10, King and Robber Baron 30, Shrines 40, Tower 50, Count 70)', () => {
  test('shrines: a captured monk or heretic ends its challenge; the other follower stays until its building is done (the Count\'s rules, Shrines: "Jednu z nich je zajat věží")', () => {
    const r = must(createRuleset({ game: 'classic', expansions: [shrines(), tower()] }));
    const sc = new Scenario(r, 2, 'challenge');
    sc.place('B', 0, 1, 0, 'm1'); // red's monk
    sc.place('SH-01', 1, 1, 0, 'h1'); // blue's heretic next to it: a challenge
    expect(challenges(r, sc.state)).toHaveLength(1);
    sc.place('TO-02', -1, 1, 0);
    sc.place('U', 1, 0, 0);
    layAndBuild(sc, 'U', -1, 0, 0, -1, 1);
    expect(sc.state.step.kind).toBe('place-tile'); // height 1: only red's own monk in reach
    sc.place('U', 2, 0, 0);
    layAndBuild(sc, 'U', -2, 0, 0, -1, 1);
    expect(offered(sc)).toEqual(['1,1 h1 1']);
    sc.play({ type: 'tower/capture', player: 0, x: 1, y: 1, feature: 'h1', owner: 1 });
    expect(challenges(r, sc.state)).toEqual([]);
    expect(must(featureAt(r, sc.state, { x: 0, y: 1, feature: 'm1' })).followers).toEqual([{ player: 0, x: 0, y: 1, feature: 'm1' }]);
  });

  test('count: a ransom paid in a turn is no scoring: an opponent gaining 3 from it gives no way into the City (the Count\'s rules, note 3: "zaplacení výkupného")', () => {
    const r = must(createRuleset({ game: 'classic', expansions: [count(), tower({ ransomDebt: true })] }));
    // The City lies at 0..3, 0..2; its north strip is a field. Red: TO-02 at 1,-1; blue: a monk on B at 2,-1;
    // red lays B at 0,-1 and builds at 1,-1, taking the monk.
    const sc = new Scenario(r, 2, 'count-ransom');
    sc.place('TO-02', 1, -1, 0);
    sc.place('B', 2, -1, 0, 'm1');
    layAndBuild(sc, 'B', 0, -1, 0, 1, -1);
    sc.play({ type: 'tower/capture', player: 0, x: 2, y: -1, feature: 'm1', owner: 1 });
    // Blue lays W at -1,0: its east road ends the City's west road stub: a completed road with nobody on it.
    lay(sc, 'W', -1, 0, 0);
    sc.play({ type: 'tower/ransom', player: 1, captor: 0 });
    sc.play({ type: 'pass', player: 1 });
    expect(eventsOf(sc, 'feature-completed').map((e) => (e as { feature: { kind: string } }).feature.kind)).toEqual(['road']);
    expect(sc.state.scores).toEqual([3, -3]);
    // No count/enter for blue: red's 3 points came from the ransom, not from the scoring.
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 0 });
    expect(sc.events.some((e) => e.type === 'count/entered')).toBe(false);
  });

  test('count: followers in the City\'s quarters are never in reach, and count in conservation as held off the board ("nelze zajmout žádného družiníka ve městě Carcassonne")', () => {
    const r = must(createRuleset({ game: 'classic', expansions: [count(), tower()] }));
    const sc = new Scenario(r, 2, 'count-reach');
    sc.place('TO-02', 1, -1, 0);
    const s = structuredClone(sc.state);
    // Put one of blue's followers into the castle quarter by hand (as count/enter would).
    (s.ext['count'] as { quarters: Record<string, number[]> }).quarters['castle']![1] = 1;
    s.supply[1]! -= 1;
    sc.state = s;
    layAndBuild(sc, 'B', 0, -1, 0, 1, -1);
    // The tower at 1,-1 reaches the City's square 1,0, but nothing in the quarters is offered.
    expect(reachOf(sc.state, 1, -1, 1).includes(cellKey(1, 0))).toBe(true);
    expect(sc.state.step.kind).toBe('place-tile');
    expect(offBoardFollowers(r, sc.state)).toEqual([0, 1]);
  });

  test('river and King and Robber Baron: every combination is accepted; no river tile has a foundation', () => {
    expect(createRuleset({ game: 'classic', expansions: [river(), kingRobber(), shrines(), tower()] }).ok).toBe(true);
    expect(createRuleset({ game: 'classic', expansions: [count(), kingRobber(), shrines(), tower()] }).ok).toBe(true);
    const ids = TOWER_TILES.map(([id]) => id);
    expect(ids.every((id) => id.startsWith('TO-'))).toBe(true);
  });
});

describe('towerAt: what a UI asks about a tower', () => {
  test('towerAt: height, top, reach now and with one more piece, and what the deciding player would capture', () => {
    const sc = boardA();
    lay(sc, 'U', -5, 0, 0);
    const empty = must(towerAt(rules, sc.state, 0, 1));
    expect([empty.height, empty.top, empty.reach]).toEqual([0, -1, []]);
    expect(empty.nextReach).toEqual([{ x: 0, y: 0 }, { x: -1, y: 1 }, { x: 0, y: 1 }, { x: 1, y: 1 }, { x: 0, y: 2 }]);
    // Red deciding: a piece here would threaten blue's four followers, as the capture step would list them.
    expect(empty.threats.map((t) => `${t.x},${t.y} ${t.feature}`)).toEqual(['-1,1 m1', '0,1 f1', '1,1 m1', '0,2 m1']);
    sc.play({ type: 'tower/build', player: 0, x: 0, y: 1 });
    expect(offered(sc)).toEqual(empty.threats.map((t) => `${t.x},${t.y} ${t.feature} ${t.owner}`));
    expect(towerAt(rules, sc.state, 5, 5)).toMatchObject({ ok: false, error: { code: 'tower/no-foundation' } });
    const plain = must(newGame(classicOnly, { players: 2, seed: 'x' }));
    expect(towerAt(rules, plain, 0, 1)).toMatchObject({ ok: false, error: { code: 'state/ruleset-mismatch' } });
    expect(towerAt(classicOnly, plain, 0, 1)).toMatchObject({ ok: false, error: { code: 'tower/no-foundation' } });
  });
});
