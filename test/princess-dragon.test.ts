/**
 * The Princess and the Dragon: tiles, the volcano, the dragon's flight, the held-back dragon
 * tiles, the magic portal, the princess, the fairy, the cloister in a city and the tunnel, and the
 * interactions with the other modules. Sources, cited per row:
 * - the Slovak rulebook "Carcassonne - Princezná a drak" ("the rulebook", the authority);
 * - the Tower's Czech rulebook and its Q&A, for the combination ("the Tower's Q&A");
 * - the Count's 2nd-edition annotated rules, for the combinations ("the Count's rules");
 * - the tile reference, set `princess_dragon` (test/fixtures/classic-tiles.json).
 * Positions are built with rigged draws (test/helpers.ts); each row draws its board in a comment
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
  projectedScores,
  serializeState,
  whyIllegal,
  type GameEvent,
  type Move,
  type Rotation,
  type Ruleset,
} from '../src/index.js';
import {
  DRAGON_TILES,
  dragonTargets,
  heldBackTiles,
  PORTAL_TILES,
  PRINCESS_DRAGON_TILES,
  PRINCESS_TILES,
  princessDragon,
  VOLCANO_TILES,
  type PrincessDragonState,
} from '../src/expansions/princess-dragon/index.js';
import { tower, type TowerState } from '../src/expansions/tower/index.js';
import { challenges, shrines } from '../src/expansions/shrines/index.js';
import { COUNT, count, type CountState, type Quarter } from '../src/expansions/count/index.js';
import { cloneState } from '../src/core/engine/clone.js';
import { createResearchSimulator as createResearch } from '../src/ai/index.js';
import { createRandomSource, createSimulator } from '../src/index.js';
import { must, rigDraw, Scenario, scoredOf, readableId } from './helpers.js';
import { expectFeaturesMatch, expectPortsOwnedOnce, loadReferenceSet } from './reference.js';

const rules = must(createRuleset({ game: 'classic', expansions: [princessDragon()] }));
const optional = must(createRuleset({ game: 'classic', expansions: [princessDragon({ princess: 'optional' })] }));

const slice = (sc: Scenario): PrincessDragonState => sc.state.ext['princess-dragon'] as PrincessDragonState;
const field = (m: Move, k: string): unknown => (m as unknown as Record<string, unknown>)[k];
const eventsOf = (sc: Scenario, type: string): GameEvent[] => sc.events.filter((e) => e.type === type);

/** Places tile `id` (rigged draw), leaving whatever step follows. */
function lay(sc: Scenario, id: string, x: number, y: number, rotation: Rotation): Scenario {
  sc.state = rigDraw(sc.rules, sc.state, id);
  return sc.play({ type: 'place', player: sc.player, x, y, rotation });
}

/** The legal moves of one type, as `x,y` (and `feature`) strings. */
function targets(sc: Scenario, type: string): string[] {
  return legalMoves(sc.rules, sc.state).flatMap((m) =>
    m.type === type ? [`${field(m, 'x')},${field(m, 'y')}${field(m, 'feature') === undefined ? '' : ` ${field(m, 'feature')}`}${field(m, 'owner') === undefined ? '' : ` ${field(m, 'owner')}`}`] : [],
  );
}

/** Moves the dragon (the step's decider plays it). */
function fly(sc: Scenario, x: number, y: number): Scenario {
  return sc.play({ type: 'princess-dragon/move-dragon', player: sc.player, x, y });
}

describe('tiles (reference set "princess_dragon"; the rulebook: "30 nových kariet krajiny")', () => {
  const ref = loadReferenceSet('princess_dragon');
  test('tiles: 30 tiles of 29 kinds PD-01..PD-29, PD-11 twice; 102 tiles with the base game', () => {
    expect(PRINCESS_DRAGON_TILES.map(([id, c]) => [id, c])).toEqual(ref.tiles.map((t) => [t.id, t.count]));
    expect(PRINCESS_DRAGON_TILES.reduce((n, [, c]) => n + c, 0)).toBe(30);
    expect(rules.tileCount).toBe(72 + 30);
  });
  test.each(ref.tiles.map((t) => [t.id, t] as const))('tiles: %s has the reference features, port by port, and its symbol', (id, rt) => {
    const def = rules.tiles[rules.tileIndex[id]!]!.def;
    expectPortsOwnedOnce(def);
    expectFeaturesMatch(def, rt);
    expect(VOLCANO_TILES.includes(id)).toBe(rt.symbols.includes('volcano'));
    expect(DRAGON_TILES.includes(id)).toBe(rt.symbols.includes('dragon'));
    expect(PORTAL_TILES.includes(id)).toBe(rt.symbols.includes('magic_portal'));
    expect(Object.hasOwn(PRINCESS_TILES, id)).toBe(rt.symbols.includes('princess'));
    if (Object.hasOwn(PRINCESS_TILES, id)) {
      expect(rt.features.find((f) => (f as { princess?: boolean }).princess === true)?.id).toBe(PRINCESS_TILES[id]);
    }
  });
  test('tiles: 6 volcanoes, 12 dragon tiles, 6 portals, 6 princesses ("Sopka (6 kartičiek)", "Drak (12 kartičiek)", "Tajná chodba (6 kartičiek)", "Princezná (6 kartičiek)")', () => {
    const copies = (ids: readonly string[]): number => ids.reduce((n, id) => n + PRINCESS_DRAGON_TILES.find(([t]) => t === id)![1], 0);
    expect([copies(VOLCANO_TILES), copies(DRAGON_TILES), copies(PORTAL_TILES), copies(Object.keys(PRINCESS_TILES))]).toEqual([6, 12, 6, 6]);
  });
  test('tiles: the cloister in a city (PD-10): a monk and a knight on one tile, each scored on its own ("môže ju umiestniť buď na kláštor alebo na mesto")', () => {
    // PD-10 at 0,-1 turned 2: its city (south, west, east) joins D's cap; red puts a monk on the
    // cloister. Blue lays E turned 1 at -1,-1, its city cap joining from the west, with a knight.
    const sc = new Scenario(rules, 2, 'cloister-city');
    lay(sc, 'PD-10', 0, -1, 2).play({ type: 'deploy', player: 0, feature: 'm1' });
    lay(sc, 'E', -1, -1, 1).play({ type: 'deploy', player: 1, feature: 'c1' });
    const city = must(featureAt(rules, sc.state, { x: 0, y: -1, feature: 'c1' }));
    const cloister = must(featureAt(rules, sc.state, { x: 0, y: -1, feature: 'm1' }));
    expect([city.kind, cloister.kind]).toEqual(['city', 'cloister']);
    expect(city.followers).toEqual([{ player: 1, x: -1, y: -1, feature: 'c1' }]);
    expect(cloister.followers).toEqual([{ player: 0, x: 0, y: -1, feature: 'm1' }]);
    // If the game ended now: red's cloister 1 + 2 neighbours (D, E), blue's city 3 tiles: each on its own.
    expect(projectedScores(rules, sc.state)).toEqual([3, 3]);
  });
  test('tiles: the tunnel (PD-15): the road runs on under the city, and neither field is cut ("Cesta nie je prerušená, horná a dolná lúka tiež nie")', () => {
    // PD-15 at 1,0 turned 1: its road runs west-east, continuing D's road; its city runs north-south.
    const sc = new Scenario(rules, 2, 'tunnel');
    lay(sc, 'PD-15', 1, 0, 1);
    const road = must(featureAt(rules, sc.state, { x: 0, y: 0, port: 'E2' }));
    expect(road.tiles).toEqual([{ x: 0, y: 0 }, { x: 1, y: 0 }]);
    expect(road.open).toBe(2);
    // The field north of the road on PD-15 owns both its corners: one field.
    const north = must(featureAt(rules, sc.state, { x: 1, y: 0, feature: 'f1' }));
    expect(north.kind).toBe('field');
    const def = rules.tiles[rules.tileIndex['PD-15']!]!.def;
    expect(def.features.find((f) => f.id === 'f1')!.ports).toEqual(['N1', 'N3']);
  });
});

describe('the volcano ("Sopka")', () => {
  test('volcano: the dragon lands on it, and the player deploys nothing: no deploy step ("neumiestňuje v tomto ťahu žiadnu svoju figurku")', () => {
    const sc = new Scenario(rules, 2, 'volcano');
    expect(slice(sc).dragon).toBeNull();
    lay(sc, 'PD-01', 0, 1, 0);
    expect(slice(sc).dragon).toEqual({ x: 0, y: 1 });
    expect(eventsOf(sc, 'princess-dragon/dragon-landed')).toEqual([{ type: 'princess-dragon/dragon-landed', from: null, to: { x: 0, y: 1 } }]);
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
    // A later volcano brings it over "bez ohľadu na to, kde sa v tomto okamihu nachádza".
    lay(sc, 'PD-03', 0, -1, 2);
    expect(slice(sc).dragon).toEqual({ x: 0, y: -1 });
  });
});

describe('the dragon ("Drak")', () => {
  /**
   * The rulebook's four-player example: "Drak začína vpravo dole. Hráč A ťahá drakom hore, hráč B
   * doľava, hráč C dole, hráč D vľavo - nesmie vpravo. Potom je na rade opäť hráč A a ťahá hore,
   * hráč B tiež hore a pohyb draka končí. Modrá a červená figurka sa vrátia hráčom do zásoby."
   * A 3x3 square x 0..2, y 0..2 with its north-east corner left empty, the volcano bottom right:
   *
   *       -2   -1    0    1    2
   *   0   PD   U*    D    U    .          * green thief on the road at -1,0
   *   1             B*   B*   B          * red farmer at 0,1, blue monk at 1,1
   *   2             B    E    V(olcano)
   *
   * The empty corner keeps the monk's cloister open (7 neighbours), so that it is the dragon,
   * not a scoring, that sends the monk home. A (player 0) then lays a dragon tile at -2,0.
   */
  function example(): Scenario {
    const sc = new Scenario(rules, 4, 'four-players');
    sc.place('U', 1, 0, 0); // A
    sc.place('B', 1, 1, 0, 'm1'); // B: blue monk
    sc.place('B', 0, 1, 0, 'f1'); // C: red farmer
    sc.place('U', -1, 0, 0, 'r1'); // D: green thief
    sc.place('B', 2, 1, 0); // A
    sc.place('B', 0, 2, 0); // B
    sc.place('E', 1, 2, 2); // C
    lay(sc, 'PD-01', 2, 2, 0); // D: the volcano, the dragon lands; no action
    lay(sc, 'PD-12', -2, 0, 0).play({ type: 'pass', player: 0 }); // A: a dragon tile
    return sc;
  }

  test('flight: the four-player example of the rulebook, step by step (up, left, down, left: not right, up, up)', () => {
    const sc = example();
    expect(sc.state.step).toMatchObject({ kind: 'princess-dragon/dragon', player: 0, steps: 0 });
    expect(targets(sc, 'princess-dragon/move-dragon')).toEqual(['2,1', '1,2']);
    fly(sc, 2, 1); // A: up
    expect(sc.state.step).toMatchObject({ player: 1, steps: 1 });
    fly(sc, 1, 1); // B: left; the blue monk goes home
    expect(sc.state.step).toMatchObject({ player: 2, steps: 2 });
    fly(sc, 1, 2); // C: down
    // D: left only: right is where the dragon started ("nesmie vpravo"), up where it has been.
    expect(sc.state.step).toMatchObject({ player: 3, steps: 3 });
    expect(targets(sc, 'princess-dragon/move-dragon')).toEqual(['0,2']);
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/move-dragon', player: 3, x: 2, y: 2 })?.code).toBe('princess-dragon/visited');
    fly(sc, 0, 2); // D: left
    fly(sc, 0, 1); // A: up; the red farmer goes home
    fly(sc, 0, 0); // B: up, the sixth step: the flight ends
    expect(slice(sc).dragon).toEqual({ x: 0, y: 0 });
    expect(slice(sc).flight).toBeNull();
    expect(eventsOf(sc, 'princess-dragon/flight-ended')).toEqual([{ type: 'princess-dragon/flight-ended', steps: 6, at: { x: 0, y: 0 } }]);
    const back = sc.events.filter((e) => e.type === 'follower-returned').map((e) => [(e as { player: number }).player, (e as { at: { x: number; y: number } }).at]);
    expect(back).toEqual([
      [1, { kind: 'cloister', x: 1, y: 1, feature: 'm1' }],
      [2, { kind: 'field', x: 0, y: 1, feature: 'f1' }],
    ]);
    // The green thief at -1,0 was never entered: it stays. The turn passes to B. Nobody scored:
    // the monk's cloister was still open, so the dragon, not a scoring, sent the monk home.
    expect(sc.state.followers.map((f) => f.player)).toEqual([3]);
    expect(sc.state.scores).toEqual([0, 0, 0, 0]);
    expect(sc.events.some((e) => e.type === 'scored')).toBe(false);
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
  });

  test('flight: moves of the wrong player, onto an empty cell, not next to the dragon, are refused ("presne o jedno pole (kartu) zvislo alebo vodorovne")', () => {
    const sc = example();
    const before = serializeState(sc.state);
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/move-dragon', player: 1, x: 2, y: 1 })?.code).toBe('princess-dragon/not-your-turn');
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/move-dragon', player: 0, x: 3, y: 2 })?.code).toBe('princess-dragon/no-tile');
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/move-dragon', player: 0, x: 1, y: 1 })?.code).toBe('princess-dragon/not-adjacent');
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/move-dragon', player: 0, x: 2 })?.code).toBe('princess-dragon/malformed');
    expect(whyIllegal(rules, sc.state, { type: 'pass', player: 0 })?.code).toBe('move/wrong-step');
    // The placing player passed (the turn's action): a fairy move now comes after it.
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/fairy', player: 0, x: 1, y: 1 })?.code).toBe('princess-dragon/action-taken');
    const r = applyMove(rules, sc.state, { type: 'princess-dragon/move-dragon', player: 0, x: 1, y: 1 } as Move);
    expect(r.ok).toBe(false);
    expect(serializeState(sc.state)).toBe(before);
  });

  test('flight: a dead end stops it early ("Slepá ulička ... je ťah draka na konci")', () => {
    // A line of tiles west of D: the volcano at -2,0; a dragon tile at 1,0: the dragon can only go
    // east (-1,0, then 0,0 D, then 1,0) and then nowhere: 3 steps.
    const sc = new Scenario(rules, 2, 'dead-end');
    sc.place('U', -1, 0, 0);
    lay(sc, 'PD-05', -2, 0, 0);
    lay(sc, 'PD-12', 1, 0, 0).play({ type: 'pass', player: 0 });
    fly(sc, -1, 0);
    fly(sc, 0, 0);
    fly(sc, 1, 0);
    expect(eventsOf(sc, 'princess-dragon/flight-ended')).toEqual([{ type: 'princess-dragon/flight-ended', steps: 3, at: { x: 1, y: 0 } }]);
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
  });

  test('flight: the fairy blocks the dragon ("Drak nesmie vstúpiť na kartu, kde stojí víla")', () => {
    // Red's farmer on U at -1,0; red moves the fairy there; the dragon at -2,0 then cannot go east.
    const sc = new Scenario(rules, 2, 'fairy-blocks');
    sc.place('U', -1, 0, 0, 'f1');
    lay(sc, 'PD-05', -2, 0, 0); // blue: the volcano
    lay(sc, 'U', 1, 0, 0).play({ type: 'princess-dragon/fairy', player: 0, x: -1, y: 0 });
    expect(slice(sc).fairy).toEqual({ x: -1, y: 0 });
    lay(sc, 'PD-11', -2, 1, 0).play({ type: 'pass', player: 1 });
    // From -2,0: east is the fairy's tile, south is the dragon tile just laid.
    expect(targets(sc, 'princess-dragon/move-dragon')).toEqual(['-2,1']);
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/move-dragon', player: 1, x: -1, y: 0 })?.code).toBe('princess-dragon/fairy-blocks');
  });

  test('draw: before the first volcano dragon tiles are held back; they come back when it is laid ("otvorene odkladá stranou ... sa znovu zamiešajú")', () => {
    const g = must(newGame(rules, { players: 2, seed: 'held' }));
    expect(heldBackTiles(rules, g)).toEqual(Object.fromEntries(DRAGON_TILES.map((id) => [id, id === 'PD-11' ? 2 : 1])));
    // The research interface's draw never offers a dragon tile then, and the chances of the others add up.
    const research = createResearch(rules, g, { chance: 'explicit' });
    while (!research.isChanceNode()) research.applyAction(research.legalActions()[0]!);
    const outcomes = research.chanceOutcomes();
    expect(outcomes.some((o) => DRAGON_TILES.includes(o.label))).toBe(false);
    expect(outcomes.reduce((p, o) => p + o.probability, 0)).toBeCloseTo(1, 12);
    // Once a volcano lies, nothing is held back.
    const sc = new Scenario(rules, 2, 'held');
    lay(sc, 'PD-01', 0, 1, 0);
    expect(heldBackTiles(rules, sc.state)).toEqual({});
  });

  test('draw: in 100 seeded games no dragon tile is laid before the first volcano, and every game ends', () => {
    const dragons = new Set(DRAGON_TILES);
    const volcanoes = new Set(VOLCANO_TILES);
    for (let i = 0; i < 100; i++) {
      const sim = must(createSimulator(rules, must(newGame(rules, { players: 2 + (i % 4), seed: `held-${i}` }))));
      sim.playout(createRandomSource(`held-${i}`));
      const ids = sim.state.tiles.map((t) => t.id);
      const firstVolcano = ids.findIndex((id) => volcanoes.has(id));
      const firstDragon = ids.findIndex((id) => dragons.has(id));
      if (firstDragon >= 0) expect(firstVolcano).toBeGreaterThanOrEqual(0);
      if (firstDragon >= 0) expect(firstDragon).toBeGreaterThan(firstVolcano);
      expect(sim.isOver()).toBe(true);
    }
  });
});

describe('the magic portal ("Tajná chodba")', () => {
  test('portal: the follower may go onto an unoccupied, unfinished feature of any tile, however far ("na túto alebo akúkoľvek inú skôr umiestnenú kartu")', () => {
    // Red's knight on E at 0,-1... D's city and E's cap: red lays E at 1,-1? Board: U at 1,0 with blue's
    // thief; a portal tile PD-19 laid at -1,0 by red.
    const sc = new Scenario(rules, 2, 'portal');
    sc.place('U', 1, 0, 0);
    sc.place('U', 2, 0, 0, 'r1'); // blue's thief on the road D-U-U
    lay(sc, 'PD-19', -1, 0, 0); // red: three roads end at a junction; D's road ends there too
    const portal = targets(sc, 'princess-dragon/portal');
    // Every tile but the portal tile itself; D's city (open), its fields; not the road (blue's thief is on it).
    expect(portal).toContain('0,0 c1');
    expect(portal).toContain('2,0 f1');
    expect(portal.some((t) => t.startsWith('0,0 r1') || t.startsWith('1,0 r1') || t.startsWith('2,0 r1'))).toBe(false);
    expect(portal.some((t) => t.startsWith('-1,0'))).toBe(false);
    sc.play({ type: 'princess-dragon/portal', player: 0, x: 0, y: 0, feature: 'c1' });
    expect(must(featureAt(rules, sc.state, { x: 0, y: 0, feature: 'c1' })).followers).toEqual([{ player: 0, x: 0, y: 0, feature: 'c1' }]);
    expect(sc.state.supply).toEqual([6, 6]);
    expect(eventsOf(sc, 'follower-deployed')).toContainEqual({ type: 'follower-deployed', player: 0, at: { kind: 'city', x: 0, y: 0, feature: 'c1' } });
  });

  test('portal: refused onto an occupied or a completed feature, onto the portal tile, and on a tile with no portal ("Nesmie ... na už ohodnotené územie alebo na také územie, kde už stojí iná figúrka")', () => {
    // E at 0,-1 turned 2 closes D's city (2 tiles, scored, nobody on it).
    const sc = new Scenario(rules, 2, 'portal-refused');
    sc.place('E', 0, -1, 2);
    sc.place('U', 1, 0, 0, 'r1'); // blue's thief
    lay(sc, 'PD-19', -1, 0, 0);
    const base = { type: 'princess-dragon/portal', player: 0 } as const;
    expect(whyIllegal(rules, sc.state, { ...base, x: 0, y: 0, feature: 'c1' })?.code).toBe('princess-dragon/completed');
    expect(whyIllegal(rules, sc.state, { ...base, x: 1, y: 0, feature: 'r1' })?.code).toBe('princess-dragon/occupied');
    expect(whyIllegal(rules, sc.state, { ...base, x: -1, y: 0, feature: 'f1' })?.code).toBe('princess-dragon/use-deploy');
    expect(whyIllegal(rules, sc.state, { ...base, x: 0, y: 0, feature: 'x9' })?.code).toBe('princess-dragon/no-feature');
    expect(whyIllegal(rules, sc.state, { ...base, x: 9, y: 9, feature: 'c1' })?.code).toBe('princess-dragon/no-feature');
    sc.play({ type: 'pass', player: 0 });
    lay(sc, 'U', 2, 0, 0);
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/portal', player: 1, x: 0, y: 0, feature: 'f2' })?.code).toBe('princess-dragon/no-portal');
  });
});

describe('the princess ("Princezná")', () => {
  test('princess: joining a city with knights, the player must send one home and takes no other action ("musí jedného rytiera ... vrátiť"; "nesmie v tomto prípade umiestniť žiadnu svoju figúrku")', () => {
    // G at 0,-1 (city N-S, joined to D's cap); blue's knight on it; red lays the princess PD-26
    // (city N, E, W as printed) turned 2 at 0,-2: its city opens south onto G's: a city with a knight.
    const sc = new Scenario(rules, 2, 'princess');
    sc.place('U', 1, 0, 0);
    sc.place('G', 0, -1, 1, 'c1'); // blue's knight
    lay(sc, 'PD-26', 0, -2, 2);
    expect(sc.state.step).toMatchObject({ kind: 'deploy', player: 0 });
    expect(legalMoves(rules, sc.state)).toEqual([{ type: 'princess-dragon/princess', player: 0, x: 0, y: -1, feature: 'c1', owner: 1 }]);
    // Deploying, passing, moving the fairy: refused with the princess's code.
    expect(whyIllegal(rules, sc.state, { type: 'deploy', player: 0, feature: 'f1' })?.code).toBe('princess-dragon/princess-turn');
    expect(whyIllegal(rules, sc.state, { type: 'pass', player: 0 })?.code).toBe('princess-dragon/princess-turn');
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/princess', player: 0, x: 1, y: 0, feature: 'r1', owner: 1 })?.code).toBe('princess-dragon/not-a-knight');
    sc.play({ type: 'princess-dragon/princess', player: 0, x: 0, y: -1, feature: 'c1', owner: 1 });
    expect(sc.state.supply).toEqual([7, 7]);
    expect(must(featureAt(rules, sc.state, { x: 0, y: -1, feature: 'c1' })).followers).toEqual([]);
    expect(eventsOf(sc, 'princess-dragon/princess')).toEqual([{ type: 'princess-dragon/princess', player: 0, owner: 1, x: 0, y: -1, feature: 'c1' }]);
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
  });

  test('princess: joining a city without knights (or not a city) is a normal turn ("smie na túto kartu normálne umiestniť vlastnú figúrku")', () => {
    const sc = new Scenario(rules, 2, 'princess-free');
    sc.place('U', 1, 0, 0);
    sc.place('G', 0, -1, 1); // nobody on it
    lay(sc, 'PD-26', 0, -2, 2);
    expect(legalMoves(rules, sc.state).map((m) => m.type)).toEqual(['deploy', 'deploy', 'pass']);
  });

  test("princess: princessDragon({ princess: 'optional' }) (later editions): the removal is one more choice, deploying and passing stay", () => {
    const sc = new Scenario(optional, 2, 'princess');
    sc.place('U', 1, 0, 0);
    sc.place('G', 0, -1, 1, 'c1');
    lay(sc, 'PD-26', 0, -2, 2);
    expect(legalMoves(optional, sc.state).map((m) => m.type)).toEqual(['deploy', 'princess-dragon/princess', 'pass']);
    expect(readableId(optional.id)).toBe('classic+princess-dragon{"princess":"optional"}');
    expect(createRuleset({ game: 'classic', expansions: [princessDragon({ princess: 'never' } as never)] }).ok).toBe(false);
  });

  test("princess: a follower on a tower in her city is not a knight (the Tower's Q&A: \"město a věž se počítají jako různé regiony\")", () => {
    // TO-15 (a city cap with a foundation in it) joined to a city the princess then joins: only the knight is offered.
    const r = must(createRuleset({ game: 'classic', expansions: [princessDragon(), tower()] }));
    const sc = new Scenario(r, 2, 'princess-tower');
    sc.place('U', 1, 0, 0);
    lay(sc, 'G', 0, -1, 1).play({ type: 'deploy', player: 1, feature: 'c1' }); // blue's knight
    lay(sc, 'TO-02', 1, 1, 0).play({ type: 'tower/build', player: 0, x: 1, y: 1 });
    lay(sc, 'U', -1, 0, 0).play({ type: 'tower/cap', player: 1, x: 1, y: 1 });
    lay(sc, 'PD-26', 0, -2, 2);
    expect(legalMoves(r, sc.state)).toEqual([{ type: 'princess-dragon/princess', player: 0, x: 0, y: -1, feature: 'c1', owner: 1 }]);
  });
});

describe('the fairy ("Víla")', () => {
  test('fairy: instead of deploying, onto a tile with one of one\'s followers; then 1 point at the start of one\'s turn ("dostane tento hráč hneď jeden bod")', () => {
    const sc = new Scenario(rules, 2, 'fairy');
    sc.place('U', 1, 0, 0, 'r1'); // red's thief
    sc.place('U', -1, 0, 0);
    lay(sc, 'B', 1, 1, 0);
    // Red could deploy (a monk or a farmer on B) and does not: the fairy may go to 1,0 (red's thief), not to empty tiles.
    expect(targets(sc, 'princess-dragon/fairy')).toEqual(['1,0']);
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/fairy', player: 0, x: -1, y: 0 })?.code).toBe('princess-dragon/fairy-no-follower');
    sc.play({ type: 'princess-dragon/fairy', player: 0, x: 1, y: 0 });
    expect(slice(sc).fairy).toEqual({ x: 1, y: 0 });
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/fairy', player: 1, x: 1, y: 0 })?.code).toBe('princess-dragon/place-first');
    // Blue's turn started with nothing for blue; when it ends, red's starts: red's thief is on the fairy's tile: 1 point.
    expect(sc.state.scores).toEqual([0, 0]);
    sc.place('U', -2, 0, 0);
    expect(sc.state.scores).toEqual([1, 0]);
    expect(scoredOf(sc.events)).toEqual([[0, 1, 'princess-dragon/fairy', 'princess-dragon/fairy']]);
  });

  test('fairy: 3 points when the feature holding the follower on her tile is scored, majority or not; the follower returns, the fairy stays ("dostane tri body, nezávisle na tom")', () => {
    // Red's thief on U at 1,0 with the fairy; the road D-U is closed by red laying W at 2,0 and A... : W at 2,0
    // (junction, roads E, S, W: its west road ends the road from D's east at 2,0) and the road's west end at -1,0.
    const sc = new Scenario(rules, 2, 'fairy-3');
    sc.place('U', 1, 0, 0, 'r1');
    sc.place('U', -1, 0, 0);
    lay(sc, 'B', 1, 1, 0).play({ type: 'princess-dragon/fairy', player: 0, x: 1, y: 0 });
    lay(sc, 'W', -2, 0, 0).play({ type: 'pass', player: 1 }); // blue closes the west end: W's east road ends at its junction
    expect(sc.state.scores).toEqual([1, 0]); // red's turn started with the fairy's point
    sc.place('W', 2, 0, 0); // red closes the east end: the road W-U-D-U-W (5 tiles) is complete
    const roads = scoredOf(sc.events).filter((s) => s[2] === 'road' || s[3] === 'princess-dragon/fairy');
    expect(roads).toContainEqual([0, 3, 'road', 'princess-dragon/fairy']);
    expect(roads).toContainEqual([0, 5, 'road', 'completed']);
    expect(slice(sc).fairy).toEqual({ x: 1, y: 0 });
    expect(sc.state.followers).toEqual([]);
  });

  test('fairy: not on a volcano turn, not when the player could not deploy ("nie je teda možné vílu presunúť, keď hráč umiestňuje kartu so sopkou")', () => {
    const sc = new Scenario(rules, 2, 'fairy-not');
    sc.place('U', 1, 0, 0, 'r1');
    sc.place('U', -1, 0, 0);
    lay(sc, 'PD-01', 1, 1, 0);
    // The volcano: no deploy step at all, so no fairy either: the turn passed.
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
    expect(slice(sc).fairy).toBeNull();
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/fairy', player: 1, x: 1, y: 0 })?.code).toBe('princess-dragon/place-first');
  });

  test('fairy: 3 points at the final scoring too, and projectedScores counts them', () => {
    const sc = new Scenario(rules, 2, 'fairy-final');
    sc.place('U', 1, 0, 0, 'r1');
    sc.place('U', -1, 0, 0);
    lay(sc, 'B', 1, 1, 0).play({ type: 'princess-dragon/fairy', player: 0, x: 1, y: 0 });
    const projected = projectedScores(rules, sc.state);
    // Red's thief on the open road D-U-U (3 tiles): 3 points, plus 3 from the fairy.
    expect(projected[0]).toBe(3 + 3);
  });
});

/**
 * Rigs the City of Carcassonne (rule tests only, like `rigDraw`; test/count.test.ts has the same):
 * followers of each player into quarters, taken from their supplies, and the Count where wanted.
 */
function rigCity(sc: Scenario, quarters: Partial<Record<Quarter, readonly number[]>>, at: Quarter): Scenario {
  const s = cloneState(sc.state);
  const c = s.ext[COUNT] as CountState;
  for (const [q, counts] of Object.entries(quarters) as [Quarter, readonly number[]][]) {
    counts.forEach((n, p) => {
      c.quarters[q][p]! += n;
      s.supply[p]! -= n;
    });
  }
  c.count = at;
  sc.state = s;
  return sc;
}

describe('with the other modules (hook order: Tower 50, Count 70, Princess and Dragon 80)', () => {
  test('tower: the capture comes before the flight (the Tower\'s Q&A: "Nejdříve je uvězněna figurka, až poté nastává pohyb draka")', () => {
    const r = must(createRuleset({ game: 'classic', expansions: [princessDragon(), tower()] }));
    const sc = new Scenario(r, 2, 'capture-then-fly');
    sc.place('U', -1, 0, 0);
    sc.place('B', 0, 1, 0, 'm1'); // blue's monk
    lay(sc, 'PD-05', -2, 0, 0); // red: the volcano
    sc.place('TO-02', 1, 1, 0); // blue
    // Red lays a dragon tile (PD-12 at 1,0) and builds on TO-02 at 1,1, capturing blue's monk at 0,1; then the dragon flies.
    lay(sc, 'PD-12', 1, 0, 0).play({ type: 'tower/build', player: 0, x: 1, y: 1 });
    sc.play({ type: 'tower/capture', player: 0, x: 0, y: 1, feature: 'm1', owner: 1 });
    expect(sc.state.step).toMatchObject({ kind: 'princess-dragon/dragon', player: 0 });
    fly(sc, -1, 0);
    expect(sc.events.map((e) => e.type).filter((t) => t === 'tower/captured' || t === 'princess-dragon/dragon-moved')).toEqual(['tower/captured', 'princess-dragon/dragon-moved']);
  });

  test('tower: the dragon sends a follower on a tower top home (the Tower\'s Q&A: "Drak létá, takže ano"); the fairy may join a tower top ("Ano, je to možné")', () => {
    const r = must(createRuleset({ game: 'classic', expansions: [princessDragon(), tower()] }));
    const sc = new Scenario(r, 2, 'dragon-top');
    lay(sc, 'TO-02', 0, 1, 0).play({ type: 'tower/build', player: 0, x: 0, y: 1 });
    lay(sc, 'U', 1, 0, 0).play({ type: 'tower/cap', player: 1, x: 0, y: 1 });
    // Blue could deploy next turn and moves the fairy onto the tower's tile, where only its tower-top follower stands.
    lay(sc, 'PD-05', -1, 0, 0); // red: volcano at -1,0
    lay(sc, 'B', 1, 1, 0);
    expect(targets(sc, 'princess-dragon/fairy')).toEqual(['0,1']);
    sc.play({ type: 'pass', player: 1 });
    // Red lays a dragon tile at 2,0; the dragon at -1,0 flies east to 0,0 then... 0,1 is the tower.
    lay(sc, 'PD-12', 2, 0, 0).play({ type: 'pass', player: 0 });
    fly(sc, 0, 0);
    fly(sc, 0, 1);
    expect((sc.state.ext['tower'] as TowerState).towers[0]!.top).toBe(-1);
    expect(eventsOf(sc, 'tower/top-returned')).toEqual([{ type: 'tower/top-returned', player: 1, x: 0, y: 1 }]);
    expect(offBoardFollowers(r, sc.state)).toEqual([0, 0]);
    expect(sc.state.supply[1]).toBe(7);
  });

  test('tower: on a volcano turn no tower action either (the issue: "nor take another module\'s action")', () => {
    const r = must(createRuleset({ game: 'classic', expansions: [princessDragon(), tower()] }));
    const sc = new Scenario(r, 2, 'volcano-tower');
    sc.place('TO-02', 0, 1, 0);
    lay(sc, 'PD-05', 1, 0, 0);
    // Blue has pieces and a foundation lies on the board, yet the turn passed at once.
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 0 });
    expect((sc.state.ext['tower'] as TowerState).towers[0]!.height).toBe(0);
  });

  test('shrines: the dragon eating a monk ends its challenge (the Count\'s rules: "Drak sežere jednoho z nich")', () => {
    const r = must(createRuleset({ game: 'classic', expansions: [princessDragon(), shrines()] }));
    const sc = new Scenario(r, 2, 'dragon-challenge');
    sc.place('B', 0, 1, 0, 'm1'); // red's monk
    sc.place('SH-01', 1, 1, 0, 'h1'); // blue's heretic
    expect(challenges(r, sc.state)).toHaveLength(1);
    lay(sc, 'PD-05', -1, 0, 0); // red: volcano at -1,0
    lay(sc, 'PD-12', 1, 0, 0).play({ type: 'pass', player: 1 }); // blue: dragon tile
    fly(sc, 0, 0); // blue
    fly(sc, 0, 1); // red moves it onto its own monk: the flight's order, not a choice of victims
    expect(challenges(r, sc.state)).toEqual([]);
  });

  test('count: the dragon flies over the City\'s rim squares like any tile; followers in the quarters are out of its reach (the Count\'s rules: "Drak může létat vně města Carcassonne, považovat oblasti krajiny za normální kartičky ...")', () => {
    const r = must(createRuleset({ game: 'classic', expansions: [princessDragon(), count()] }));
    const sc = new Scenario(r, 2, 'dragon-city');
    // The City lies at 0..3, 0..2; its north strip is a field. A volcano at 1,-1, a dragon tile at 2,-1.
    lay(sc, 'PD-01', 1, -1, 0);
    lay(sc, 'PD-11', 2, -1, 2).play({ type: 'pass', player: 1 });
    expect(targets(sc, 'princess-dragon/move-dragon')).toEqual(['2,-1', '1,0']);
    fly(sc, 1, 0);
    expect(slice(sc).dragon).toEqual({ x: 1, y: 0 });
  });
});

describe('the fairy with the Count of Carcassonne (issue 26, A)', () => {
  const withCount = must(createRuleset({ game: 'classic', expansions: [princessDragon(), count()] }));

  /**
   * The City lies at x 0..3, y 0..2; its north strip is a field. Red (0) puts a farmer on E at
   * 1,-1 (its city cap facing north, its field joining the strip), then moves the fairy there.
   * Blue (1) closes that city with E at 1,-2 facing south: two tiles, nobody on them. The city's
   * root segment is E at 1,-1, the fairy's tile: a follower moved out of the castle stands there.
   *
   *        0    1    2
   *  -2         E        (blue closes the city)
   *  -1         E*       * red's farmer, the fairy
   *   0  CO1  CO2  CO3 ...
   */
  function closing(castle: readonly number[]): Scenario {
    const sc = new Scenario(withCount, 2, 'fairy-count');
    lay(sc, 'E', 1, -1, 0).play({ type: 'deploy', player: 0, feature: 'f1' });
    lay(sc, 'U', -1, 0, 0).play({ type: 'pass', player: 1 });
    lay(sc, 'U', -2, 0, 0).play({ type: 'princess-dragon/fairy', player: 0, x: 1, y: -1 });
    rigCity(sc, { castle }, 'cathedral');
    lay(sc, 'E', 1, -2, 2).play({ type: 'pass', player: 1 });
    return sc;
  }

  test('fairy and Count: a follower moved out of the castle onto the fairy\'s tile earns her 3 points (the rulebook, "Víla": "Pri hodnotení oblastí ... hráč, ktorého figúrka stojí na poličku s vílou, dostane tri body"; the Count\'s rules: "ještě před přidělením bodů ... Teprve poté se provede vyhodnocení")', () => {
    const sc = closing([1, 0]);
    expect(sc.state.step).toEqual({ kind: 'count/move-out', player: 0, quarter: 'castle', feature: { kind: 'city', x: 1, y: -1, feature: 'c1' } });
    sc.play({ type: 'count/move-out', player: 0, count: 1 });
    // The follower stands on the city's root segment, E at 1,-1, by the fairy: the city's 4 points and her 3.
    expect(scoredOf(sc.events).filter((e) => e[2] === 'city')).toEqual([
      [0, 3, 'city', 'princess-dragon/fairy'],
      [0, 4, 'city', 'completed'],
    ]);
    expect(sc.state.scores).toEqual([7, 0]);
    expect(slice(sc).fairy).toEqual({ x: 1, y: -1 });
  });

  test('fairy and Count: two followers moved out by her earn their player 3 points once ("hráč ... dostane tri body")', () => {
    const sc = closing([2, 0]);
    sc.play({ type: 'count/move-out', player: 0, count: 2 });
    expect(scoredOf(sc.events).filter((e) => e[3] === 'princess-dragon/fairy' && e[2] === 'city')).toEqual([[0, 3, 'city', 'princess-dragon/fairy']]);
    expect(sc.state.scores).toEqual([7, 0]);
    // All of them went home after the scoring; the farmer stays by the fairy.
    expect(sc.state.supply).toEqual([6, 7]);
  });

  test('fairy and Count: a follower moved out stands on the city\'s root segment, its oldest tile: away from the fairy on another of its tiles, it earns nothing from her (the reading, docs/expansions/princess-dragon.md)', () => {
    // E at 1,-1 (nobody), then G at 1,-2 (city north-south) with red's farmer east of it and the
    // fairy there; blue closes the city E-G-E with E at 1,-3. Its root segment is E at 1,-1.
    const sc = new Scenario(withCount, 2, 'fairy-count-away');
    lay(sc, 'E', 1, -1, 0).play({ type: 'pass', player: 0 });
    lay(sc, 'U', -1, 0, 0).play({ type: 'pass', player: 1 });
    lay(sc, 'G', 1, -2, 1).play({ type: 'deploy', player: 0, feature: 'f1' });
    lay(sc, 'U', -2, 0, 0).play({ type: 'pass', player: 1 });
    lay(sc, 'U', -3, 0, 0).play({ type: 'princess-dragon/fairy', player: 0, x: 1, y: -2 });
    rigCity(sc, { castle: [1, 0] }, 'cathedral');
    lay(sc, 'E', 1, -3, 2).play({ type: 'pass', player: 1 });
    sc.play({ type: 'count/move-out', player: 0, count: 1 });
    expect(must(featureAt(withCount, sc.state, { x: 1, y: -2, feature: 'f1' })).followers).toEqual([{ player: 0, x: 1, y: -2, feature: 'f1' }]);
    expect(scoredOf(sc.events).filter((e) => e[2] === 'city')).toEqual([[0, 6, 'city', 'completed']]);
  });

  test('fairy and Count: at the final scoring too, a player\'s followers by her on one field earn 3 once, the market\'s followers included ("hráč ... dostane tri body")', () => {
    // F at 1,-1 (a city west-east, its north field cut off from the City's strips: its root is
    // F's own segment) with red's farmer on the north field and the fairy there; red has two
    // followers in the market; blue lays the last tile; red moves both onto that field.
    const sc = new Scenario(withCount, 2, 'fairy-count-final');
    lay(sc, 'F', 1, -1, 0).play({ type: 'deploy', player: 0, feature: 'f1' });
    lay(sc, 'U', -1, 0, 0).play({ type: 'pass', player: 1 });
    lay(sc, 'U', -2, 0, 0).play({ type: 'princess-dragon/fairy', player: 0, x: 1, y: -1 });
    rigCity(sc, { market: [2, 0] }, 'castle');
    const s = cloneState(rigDraw(withCount, sc.state, 'U'));
    s.bag.fill(0);
    s.bagSize = 0;
    sc.state = s;
    sc.play({ type: 'place', player: 1, x: -3, y: 0, rotation: 0 }).play({ type: 'pass', player: 1 });
    sc.play({ type: 'count/to-field', player: 0, x: 1, y: -1, feature: 'f1' });
    sc.play({ type: 'count/to-field', player: 0, x: 1, y: -1, feature: 'f1' });
    expect(sc.state.step.kind).toBe('game-over');
    expect(scoredOf(sc.events).filter((e) => e[3] === 'princess-dragon/fairy' && e[2] === 'field')).toEqual([[0, 3, 'field', 'princess-dragon/fairy']]);
  });
});

describe('the dragon and the City of Carcassonne (issue 26, B)', () => {
  const withCount = must(createRuleset({ game: 'classic', expansions: [princessDragon(), count()] }));

  /**
   * The City at x 0..3, y 0..2; its centre squares CO6 (1,1) and CO7 (2,1) are all city. Red (0)
   * deploys through a portal (PD-20 north of the City) onto CO9's field, and moves the fairy
   * onto CO9; blue lays the volcano PD-03 at 0,3 (its city closes the cap CS), the dragon lands;
   * red lays the dragon tile PD-11 at 2,3 (its road continuing the stub RS):
   *
   *        0    1    2    3
   *  -1         P             P: the portal PD-20
   *   0  CO1  CO2  CO3  CO4
   *   1  CO5  CO6  CO7  CO8   CO6, CO7: the centre, all city
   *   2  CO9* CO10 CO11 CO12  * red's farmer, the fairy
   *   3  V    B    D          V: the volcano, B: a cloister, D: the dragon tile
   *
   * The flight: 0,3 (start) -> 1,3 -> 2,3 -> CO11 (2,2), next to CO7 -> CO10 (1,2), next to CO6.
   */
  function flight(): Scenario {
    const sc = new Scenario(withCount, 2, 'dragon-centre');
    lay(sc, 'PD-20', 1, -1, 0).play({ type: 'princess-dragon/portal', player: 0, x: 0, y: 2, feature: 'f1' });
    lay(sc, 'B', 1, 3, 0).play({ type: 'pass', player: 1 });
    lay(sc, 'U', -1, 0, 0).play({ type: 'princess-dragon/fairy', player: 0, x: 0, y: 2 });
    lay(sc, 'PD-03', 0, 3, 0); // blue: the volcano; no action
    expect(slice(sc).dragon).toEqual({ x: 0, y: 3 });
    lay(sc, 'PD-11', 2, 3, 2).play({ type: 'pass', player: 0 });
    fly(sc, 1, 3); // red
    fly(sc, 2, 3); // blue
    return sc;
  }

  test('dragon: next to a centre square of the City it cannot step onto it (the Count\'s rules: "Drak může létat vně města Carcassonne, považovat oblasti krajiny za normální kartičky"; "Do města Carcassonne nelze umístit draka ani vílu")', () => {
    const sc = flight();
    fly(sc, 2, 2); // red: onto CO11, a rim square with landscape (the road stub RS, the fields)
    expect(slice(sc).dragon).toEqual({ x: 2, y: 2 });
    // North is CO7, all city: not offered, and refused. East CO12 and west CO10 are rim squares.
    expect(targets(sc, 'princess-dragon/move-dragon')).toEqual(['3,2', '1,2']);
    expect(dragonTargets(withCount, sc.state)).toEqual([{ x: 3, y: 2 }, { x: 1, y: 2 }]);
    expect(whyIllegal(withCount, sc.state, { type: 'princess-dragon/move-dragon', player: 1, x: 2, y: 1 })?.code).toBe('princess-dragon/city-centre');
    // The research interface's actions agree: only the two moves.
    const research = createResearch(withCount, sc.state);
    expect(research.legalActions()).toHaveLength(2);
  });

  test('dragon: with no step left but into the centre of the City, the flight ends ("Slepá ulička: Ak drak vstúpil na pole, z ktorého nemôže podľa pravidiel ďalej pokračovať ... je ťah draka na konci")', () => {
    const sc = flight();
    fly(sc, 2, 2); // red: CO11
    fly(sc, 1, 2); // blue: CO10; north CO6 (centre), east visited, south 1,3 visited, west CO9 the fairy's
    expect(eventsOf(sc, 'princess-dragon/flight-ended')).toEqual([{ type: 'princess-dragon/flight-ended', steps: 4, at: { x: 1, y: 2 } }]);
    expect(slice(sc).flight).toBeNull();
    expect(sc.state.step).toMatchObject({ kind: 'place-tile', player: 1 });
  });

  test('dragon: random games with the Count never take it into the centre of the City (playRandom and playout, whose deploy step is counted and drawn apart)', () => {
    let steps = 0;
    for (let i = 0; i < 24; i++) {
      const sim = must(createSimulator(withCount, must(newGame(withCount, { players: 2 + (i % 3), seed: `centre-${i}` })), { events: true }));
      const random = createRandomSource(`centre-${i}`);
      if (i % 2 === 0) while (!sim.isOver()) sim.playRandom(random);
      else sim.playout(random);
      for (const e of sim.takeEvents()) {
        if (e.type !== 'princess-dragon/dragon-moved') continue;
        steps++;
        const to = (e as unknown as { to: { x: number; y: number } }).to;
        expect(to.y === 1 && (to.x === 1 || to.x === 2), `game ${i}: the dragon entered ${to.x},${to.y}`).toBe(false);
      }
    }
    expect(steps).toBeGreaterThan(100);
  });
});

describe('the dragon\'s tile (issue 26, C)', () => {
  test('portal: a follower may go onto a feature of the dragon\'s tile (the rulebook, "Tajná chodba": "Nesmie teda figúrku umiestniť na už ohodnotené územie alebo na také územie, kde už stojí iná figúrka"; nothing keeps followers off the dragon\'s tile)', () => {
    // D at 0,0; U at 1,0; the volcano PD-01 at 0,1 brings the dragon; red lays the portal PD-19 at
    // -1,0 and deploys onto the volcano's field, under the dragon.
    const sc = new Scenario(rules, 2, 'dragon-tile');
    sc.place('U', 1, 0, 0);
    lay(sc, 'PD-01', 0, 1, 0);
    expect(slice(sc).dragon).toEqual({ x: 0, y: 1 });
    lay(sc, 'PD-19', -1, 0, 0);
    expect(targets(sc, 'princess-dragon/portal')).toContain('0,1 f1');
    expect(whyIllegal(rules, sc.state, { type: 'princess-dragon/portal', player: 0, x: 0, y: 1, feature: 'f1' })).toBeNull();
    sc.play({ type: 'princess-dragon/portal', player: 0, x: 0, y: 1, feature: 'f1' });
    expect(sc.state.followers).toEqual([{ player: 0, tile: 2, local: 0 }]);
    expect(slice(sc).dragon).toEqual({ x: 0, y: 1 });
  });
});

describe('views and saved states', () => {
  test('observe: the dragon, the fairy and a flight are public, shown whole to every viewer', () => {
    const sc = new Scenario(rules, 4, 'view');
    sc.place('U', -1, 0, 0);
    lay(sc, 'PD-05', -2, 0, 0);
    lay(sc, 'PD-12', 1, 0, 0).play({ type: 'pass', player: 2 });
    for (const viewer of [0, 1, 2, 3, null]) expect(observe(rules, sc.state, viewer).ext['princess-dragon']).toEqual(sc.state.ext['princess-dragon']);
    expect(slice(sc).flight).toEqual({ visited: [{ x: -2, y: 0 }] });
  });
});

describe('saved states', () => {
  test('a game with the dragon and the fairy round-trips; tampered Princess and Dragon data is refused', async () => {
    const { parseState } = await import('../src/index.js');
    let s = must(newGame(rules, { players: 3, seed: 'save-pd' }));
    for (let i = 0; i < 600 && s.step.kind !== 'game-over'; i++) {
      const moves = legalMoves(rules, s);
      const pick = moves.find((m) => m.type === 'princess-dragon/fairy') ?? moves[(i * 7) % moves.length]!;
      s = must(applyMove(rules, s, pick)).state;
    }
    const text = serializeState(s);
    expect(serializeState(must(parseState(rules, text)))).toBe(text);
    const pd = s.ext['princess-dragon'] as PrincessDragonState;
    expect(pd.dragon).not.toBeNull();
    expect(pd.fairy).not.toBeNull();
    for (const tamper of [
      (x: PrincessDragonState) => (x.dragon = { x: x.dragon!.x + 1, y: x.dragon!.y }),
      (x: PrincessDragonState) => (x.fairy = null),
      (x: PrincessDragonState) => (x.flight = { visited: [] }),
    ]) {
      const j = JSON.parse(text) as { state: { ext: { 'princess-dragon': PrincessDragonState } } };
      tamper(j.state.ext['princess-dragon']);
      expect(parseState(rules, JSON.stringify(j)).ok).toBe(false);
    }
  });
});
