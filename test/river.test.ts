/**
 * The River expansion (River I, River II, both): one row per rule, each citing its source:
 * the expansions digest, section "River" ("the digest"); the Czech River I text in
 * the Czech rulebook of The Castle, "Carcassonne Řeka" ("the Czech text": "žádné zpětné
 * obrátky" = no U-turns); the tile reference the tile reference "B1"/"B2"; and
 * the published rulings listed in docs/expansions/river.md ("Rulings"):
 * - Hans im Glück's answer in the Big Box River FAQ (quoted on modernjive.com/carcassonne/
 *   carcassonnetheriver.htm, papageek.com/car/river.htm and Wikicarpedia "River"): only
 *   *immediate* U-turns are forbidden, i.e. two curves in a row turning the same way; a straight
 *   tile between them breaks the row.
 * - River II rules (Wikicarpedia "River (1st edition)"; the German rule sheet "Der Fluss II"):
 *   the fork is placed first, the volcano lake last, the other tiles (the lake at a city among
 *   them) are shuffled; the two branches may never be joined.
 * - A river tile that fits nowhere is discarded like any tile, even if a branch then stays
 *   without a lake (the CAR ruling quoted in farin/JCloisterZone#155).
 *
 * Conventions: x grows east, y grows south; the spring lies at 0,0 unturned, its river leaving
 * east. A tile turned r quarter turns clockwise has its printed side s on side s + r (N->E->S->W).
 * Tiles are named by their reference ids (R1-xx, R2-xx) and drawn with `Scenario`
 * (test/helpers.ts), which rigs each draw; the draw that follows a move is the real one.
 */
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  createRandomSource,
  createRuleset,
  createSimulator,
  featureAt,
  legalMoves,
  newGame,
  tileDefs,
  whyIllegal,
  PORTS,
  type GameEvent,
  type GameState,
  type Immutable,
  type Rotation,
  type Ruleset,
  type TileDef,
} from '../src/index.js';
import {
  RIVER_I_TILES,
  RIVER_II_TILES,
  river,
  riverTiles,
  type RiverRole,
  type RiverEnd,
  type RiverSet,
  type RiverState,
} from '../src/expansions/river/index.js';
import { Scenario, rigDraw, readableId } from './helpers.js';
import { REFERENCE, expectFeaturesMatch, referenceSets, type RefSet } from './reference.js';
import { byDepth } from './depth.js';

function riverRules(set: RiverSet): Ruleset {
  const r = createRuleset({ game: 'classic', expansions: [river({ set })] });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const RULES: Readonly<Record<RiverSet, Ruleset>> = { I: riverRules('I'), II: riverRules('II'), both: riverRules('both') };
const SETS = ['I', 'II', 'both'] as const;

/** The river slice of a state. */
const slice = (s: Immutable<GameState>): RiverState => s.ext['river'] as RiverState;

/** The open ends of the river, in branch order. */
const openEnds = (s: Immutable<GameState>): RiverEnd[] => Object.values(slice(s).ends);

/** Places tile `id` (rigged draw) without deploying: the state is left at the deploy step, if any. */
function placeOnly(sc: Scenario, id: string, x: number, y: number, rotation: Rotation): Scenario {
  sc.state = rigDraw(sc.rules, sc.state, id);
  return sc.play({ type: 'place', player: sc.player, x, y, rotation });
}

/** Why placing tile `id` (rigged draw) at x,y turned `rotation` is illegal, or null. */
function placeError(sc: Scenario, id: string, x: number, y: number, rotation: Rotation): { code: string; message: string } | null {
  const s = rigDraw(sc.rules, sc.state, id);
  const step = s.step as { player: number };
  return whyIllegal(sc.rules, s, { type: 'place', player: step.player, x, y, rotation });
}

/**
 * Why placing tile `id` at x,y would be illegal if it were drawn now (the state may be at its
 * deploy step: the draw has not happened yet), or null.
 */
function placeErrorNow(rules: Ruleset, state: Immutable<GameState>, id: string, x: number, y: number, rotation: Rotation): { code: string; message: string } | null {
  const s = JSON.parse(JSON.stringify(state)) as GameState;
  s.bag[rules.tileIndex[id]!]!--;
  s.step = { kind: 'place-tile', player: 0, tile: id };
  return whyIllegal(rules, s, { type: 'place', player: 0, x, y, rotation });
}

/** Draw roles by tile id, for a set. */
function roles(set: RiverSet): ReadonlyMap<string, RiverRole> {
  return new Map(riverTiles(set).map(([id, , , role]) => [id, role]));
}

// ---------------------------------------------------------------------------------------------

describe('river: set-up', () => {
  test.each([
    ['I', 'R1-01', 12],
    ['II', 'R2-01', 12],
    ['both', 'R1-01', 22],
  ] as const)('spring: with set %s the spring %s is the start tile at 0,0, the four D tiles go into the bag, %i river tiles (digest: play starts with the spring)', (set, spring, count) => {
    const rules = RULES[set];
    const g = newGame(rules, { players: 2, seed: 'spring' });
    if (!g.ok) throw new Error(g.error.message);
    const s = g.value;
    expect(s.tiles).toEqual([{ id: spring, kind: rules.tileIndex[spring], x: 0, y: 0, rotation: 0, player: -1, node: 0 }]);
    // The spring's river leaves east: one open end, at 1,0, flowing east.
    expect(slice(s)).toEqual({ ends: { '1': { x: 1, y: 0, flow: 'E', turn: null } }, branches: 1 });
    // The base start tile is an ordinary land tile now (the Czech text: the normal start tile may
    // be added; we shuffle it in with the land tiles): all 4 D are in the bag, none is drawn yet.
    expect(s.bag[rules.tileIndex['D']!]).toBe(4);
    const riverCount = tileDefs(rules).reduce((n, t) => n + (t.features.some((f) => f.kind === 'river') ? t.count : 0), 0);
    expect(riverCount).toBe(count);
    expect(rules.tileCount).toBe(72 + count);
    // The first draw is a river tile: River II's fork, or a River I course tile.
    const first = (s.step as { tile: string }).tile;
    if (set === 'I') expect(roles(set).get(first)).toBe('course');
    else expect(first).toBe('R2-02');
  });

  test("set 'both': 22 river tiles with one spring (R1-01), no River I lake, River II's fork and two lakes (reference B2: one spring and one lake set aside)", () => {
    const ids = tileDefs(RULES.both).map((t) => t.id);
    expect(ids).toContain('R1-01');
    expect(ids).not.toContain('R2-01');
    expect(ids).not.toContain('R1-02');
    expect(ids.filter((id) => /^R\d-/.test(id)).length).toBe(20); // R1-07 and R1-10 have 2 copies
    expect(RULES.both.tileCount).toBe(72 + 22);
    expect([...roles('both')].filter(([, r]) => r === 'spring').map(([id]) => id)).toEqual(['R1-01']);
    expect([...roles('both')].filter(([, r]) => r === 'lake').map(([id]) => id)).toEqual(['R2-03']);
    expect([...roles('both')].filter(([, r]) => r === 'fork').map(([id]) => id)).toEqual(['R2-02']);
  });
});

describe('river: draw order', () => {
  // Digest: the river tiles are placed first, one per turn, the lake last, then the normal game.
  // River II rules: the fork right after the spring; the volcano lake last.
  test.each(SETS.flatMap((set) => [2, 4].map((players) => [set, players] as const)))(
    'draw order (set %s, %i players, 30 seeded games): fork first, then course tiles, the lake last among river tiles, land tiles only after every river tile',
    (set, players) => {
      const rules = RULES[set];
      const role = roles(set);
      for (let i = 0; i < 30; i++) {
        const g = newGame(rules, { players, seed: `order-${set}-${i}` });
        if (!g.ok) throw new Error(g.error.message);
        const drawn: string[] = [(g.value.step as { tile: string }).tile];
        const sim = createSimulator(rules, g.value, { events: true });
        if (!sim.ok) throw new Error(sim.error.message);
        const random = createRandomSource(`order-${i}`);
        while (!sim.value.isOver()) {
          sim.value.playRandom(random);
          for (const e of sim.value.takeEvents()) if (e.type === 'tile-drawn') drawn.push(e.tile);
        }
        // Rank in the draw order: fork 0, course 1, lake 2, land 3; the sequence must not go down.
        const rank = drawn.map((id) => {
          const r = role.get(id);
          return r === undefined ? 3 : { spring: -1, fork: 0, course: 1, lake: 2 }[r];
        });
        expect(rank, `seed order-${set}-${i}: ${drawn.join(' ')}`).toEqual([...rank].sort((a, b) => a - b));
        if (set !== 'I') expect(drawn[0]).toBe('R2-02');
        expect(drawn.length).toBe(rules.tileCount - 1);
      }
    },
  );
});

describe('river: placement', () => {
  test('continue: a river tile laid away from the open end (water facing only empty cells) is refused with place/forbidden; legal moves offer only the open end (digest: each tile continues the river)', () => {
    const sc = new Scenario(RULES.I);
    // R1-07 (straight, printed W-E) on top of the spring: its south field meets the spring's field.
    const e = placeError(sc, 'R1-07', 0, -1, 0);
    expect(e?.code).toBe('place/forbidden');
    expect(e?.message).toMatch(/continue the river/);
    const s = rigDraw(RULES.I, sc.state, 'R1-07');
    const cells = new Set(legalMoves(RULES.I, s).map((m) => (m.type === 'place' ? `${m.x},${m.y},${m.rotation}` : '')));
    expect([...cells].sort()).toEqual(['1,0,0', '1,0,2']);
  });

  test('straight: a straight river tile continues the river; the open end moves on, flowing the same way (digest)', () => {
    const sc = new Scenario(RULES.I).place('R1-07', 1, 0, 0);
    expect(openEnds(sc.state)).toEqual([{ x: 2, y: 0, flow: 'E', turn: null }]);
    // The bridge R1-06 (river printed N-S) turned once carries the river on W-E.
    sc.place('R1-06', 2, 0, 1);
    expect(openEnds(sc.state)).toEqual([{ x: 3, y: 0, flow: 'E', turn: null }]);
  });

  test('no U-turn: a right curve right after a right curve is refused with place/forbidden (the Czech text: "žádné zpětné obrátky"; digest: two successive curves turning the same way)', () => {
    //   spring -> R1-10@0 at 1,0 (W->S: flowing east, turns right) -> R1-10@1 at 1,1 (N->W: right again)
    const sc = new Scenario(RULES.I).place('R1-10', 1, 0, 0);
    expect(openEnds(sc.state)).toEqual([{ x: 1, y: 1, flow: 'S', turn: 'right' }]);
    const e = placeError(sc, 'R1-10', 1, 1, 1);
    expect(e?.code).toBe('place/forbidden');
    expect(e?.message).toMatch(/U-turn/);
  });

  test('no U-turn: the same curve turned the other way (left after right) is accepted', () => {
    const sc = new Scenario(RULES.I).place('R1-10', 1, 0, 0);
    expect(placeError(sc, 'R1-10', 1, 1, 2)).toBeNull();
    sc.place('R1-10', 1, 1, 2); // N->E: flowing south, turns left
    expect(openEnds(sc.state)).toEqual([{ x: 2, y: 1, flow: 'E', turn: 'left' }]);
  });

  test('no U-turn: left after left is refused too, right after left accepted', () => {
    //   spring -> R1-10@1 at 1,0 (W->N: flowing east, turns left) -> at 1,-1: S->W left again (refused), S->E right (accepted)
    const sc = new Scenario(RULES.I).place('R1-10', 1, 0, 1);
    expect(openEnds(sc.state)).toEqual([{ x: 1, y: -1, flow: 'N', turn: 'left' }]);
    expect(placeError(sc, 'R1-10', 1, -1, 0)?.code).toBe('place/forbidden');
    expect(placeError(sc, 'R1-10', 1, -1, 3)).toBeNull();
  });

  test('no U-turn, ruling: a straight tile between two curves breaks the row; right, straight, right is accepted (Hans im Glück: only immediate U-turns are forbidden)', () => {
    const sc = new Scenario(RULES.I).place('R1-10', 1, 0, 0).place('R1-07', 1, 1, 1);
    expect(openEnds(sc.state)).toEqual([{ x: 1, y: 2, flow: 'S', turn: null }]);
    expect(placeError(sc, 'R1-10', 1, 2, 1)).toBeNull();
    sc.place('R1-10', 1, 2, 1);
    expect(openEnds(sc.state)).toEqual([{ x: 0, y: 2, flow: 'W', turn: 'right' }]);
  });

  test('land tiles cannot be placed against an open river end: edge mismatch (edge classes: river meets only river)', () => {
    const sc = new Scenario(RULES.I);
    for (const id of ['B', 'U', 'E']) {
      const s = rigDraw(RULES.I, sc.state, id);
      for (const rotation of [0, 1, 2, 3] as const) {
        expect(whyIllegal(RULES.I, s, { type: 'place', player: 0, x: 1, y: 0, rotation })?.code).toBe('place/edge-mismatch');
      }
      expect(legalMoves(RULES.I, s).some((m) => m.type === 'place' && m.x === 1 && m.y === 0)).toBe(false);
    }
  });

  test('unplaceable: a river tile or lake that fits nowhere is discarded and the game goes on (classic rule; CAR ruling for river tiles, JCloisterZone#155)', () => {
    // A legal river (right, straight, right is allowed) whose open end 4,0 faces the city of
    // R1-08 at 3,0 on its west side: neither the last course tile (R1-06) nor the lake fit there.
    //   y=-2:        R1-10  R1-04  R1-09
    //   y=-1:        R1-05         R1-03
    //   y= 0: spring R1-07 R1-07 R1-08 [end] R1-10
    const sc = new Scenario(RULES.I);
    sc.place('R1-07', 1, 0, 0).place('R1-07', 2, 0, 0).place('R1-08', 3, 0, 2).place('R1-05', 3, -1, 3).place('R1-10', 3, -2, 3);
    sc.place('R1-04', 4, -2, 0).place('R1-09', 5, -2, 0).place('R1-03', 5, -1, 1).place('R1-10', 5, 0, 1);
    expect(openEnds(sc.state)).toEqual([{ x: 4, y: 0, flow: 'W', turn: 'right' }]);
    const discarded = sc.events.flatMap((e) => (e.type === 'tile-discarded' ? [e.tile] : []));
    expect(discarded).toEqual(['R1-06', 'R1-02']);
    expect(RULES.I.tileIndex['R1-02']).toBeDefined();
    expect(sc.state.discarded[RULES.I.tileIndex['R1-02']!]).toBe(1);
    // The normal game goes on with a land tile; the river end stays open.
    expect(roles('I').has((sc.state.step as { tile: string }).tile)).toBe(false);
  });
});

describe('river: River II fork and lakes', () => {
  test('fork: right after the spring the fork splits the river; both branches continue (River II rules: tiles go on either branch)', () => {
    const sc = new Scenario(RULES.II).place('R2-02', 1, 0, 0);
    // Flowing east into the fork from the west: the north branch turns left, the east one goes on
    // as a new branch.
    expect(slice(sc.state)).toEqual({
      ends: { '1': { x: 1, y: -1, flow: 'N', turn: 'left' }, '2': { x: 2, y: 0, flow: 'E', turn: null } },
      branches: 2,
    });
    // North branch: a left curve would be a U-turn; the right curve is fine. East branch: straight.
    expect(placeError(sc, 'R2-12', 1, -1, 0)?.code).toBe('place/forbidden');
    sc.place('R2-12', 1, -1, 3).place('R2-06', 2, 0, 0);
    expect(openEnds(sc.state)).toEqual([
      { x: 2, y: -1, flow: 'E', turn: 'right' },
      { x: 3, y: 0, flow: 'E', turn: null },
    ]);
  });

  test('fork closed by both lakes: the volcano lake R2-03 and the lake at a city R2-04 each close a branch; no open end is left (reference B2)', () => {
    const sc = new Scenario(RULES.II).place('R2-02', 1, 0, 0).place('R2-12', 1, -1, 3).place('R2-06', 2, 0, 0);
    sc.place('R2-03', 2, -1, 0);
    expect(openEnds(sc.state)).toEqual([{ x: 3, y: 0, flow: 'E', turn: null }]);
    // Place the last lake, and before the draw check that no river tile may continue any more.
    placeOnly(sc, 'R2-04', 3, 0, 0);
    expect(openEnds(sc.state)).toEqual([]);
    expect(placeErrorNow(sc.rules, sc.state, 'R2-10', -1, 0, 0)?.code).toBe('place/forbidden');
    const r = featureAt(RULES.II, sc.state, { x: 1, y: 0, feature: 'w1' });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.kind).toBe('river');
    expect(r.value.tiles.length).toBe(6); // spring, fork, curve, straight, both lakes
  });

  test('branches may not be joined: a tile whose water meets both branches is refused with place/forbidden (River II rules)', () => {
    // North branch: fork, then R2-12 turning right -> flows east into 2,-1.
    // East branch: R2-10 at 2,0 turning left -> flows north into 2,-1 as well.
    const sc = new Scenario(RULES.II).place('R2-02', 1, 0, 0).place('R2-12', 1, -1, 3);
    placeOnly(sc, 'R2-10', 2, 0, 0);
    expect(openEnds(sc.state)).toEqual([
      { x: 2, y: -1, flow: 'E', turn: 'right' },
      { x: 2, y: -1, flow: 'N', turn: 'left' },
    ]);
    const e = placeErrorNow(sc.rules, sc.state, 'R2-11', 2, -1, 0); // water S and W: meets both branches
    expect(e?.code).toBe('place/forbidden');
    expect(e?.message).toMatch(/join/);
    // Both branches now end in the same cell, which no tile may fill: every river tile left is
    // discarded when drawn, and the land tiles follow (classic rule for tiles that fit nowhere).
    sc.play({ type: 'pass', player: sc.player });
    const discarded = sc.events.flatMap((ev) => (ev.type === 'tile-discarded' ? [ev.tile] : []));
    expect(discarded.sort()).toEqual(['R2-03', 'R2-04', 'R2-05', 'R2-06', 'R2-07', 'R2-08', 'R2-09', 'R2-11']);
    expect(roles('II').has((sc.state.step as { tile: string }).tile)).toBe(false);
  });

  test('lake at a city: River II shuffles R2-04 in with the course tiles, so it may be drawn before the other course tiles and close a branch early (River II rules: only the volcano lake is set aside)', () => {
    const role = roles('II');
    expect(role.get('R2-04')).toBe('course');
    expect(role.get('R2-03')).toBe('lake');
    // Over seeded games, R2-04 is drawn at various places among the 8 other course tiles.
    const places = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const g = newGame(RULES.II, { players: 2, seed: `city-lake-${i}` });
      if (!g.ok) throw new Error(g.error.message);
      const sim = createSimulator(RULES.II, g.value, { events: true });
      if (!sim.ok) throw new Error(sim.error.message);
      const random = createRandomSource(`city-lake-${i}`);
      const drawn: string[] = [];
      while (drawn.length < 10) {
        sim.value.playRandom(random);
        for (const e of sim.value.takeEvents()) if (e.type === 'tile-drawn') drawn.push(e.tile);
      }
      const course = drawn.filter((id) => role.get(id) === 'course');
      places.add(course.indexOf('R2-04'));
      expect(drawn.indexOf('R2-03')).toBe(9); // after the 9 course tiles: the volcano lake comes last
    }
    expect(Math.min(...places)).toBeLessThan(4);
  });
});

describe('river: followers and fields', () => {
  test('no follower on water: deploying on the river feature is refused with deploy/unknown-feature (digest; the Czech text: "Na řeku se figurky nepokládají")', () => {
    const sc = placeOnly(new Scenario(RULES.I), 'R1-07', 1, 0, 0);
    expect(sc.state.step.kind).toBe('deploy');
    const e = whyIllegal(RULES.I, sc.state, { type: 'deploy', player: 0, feature: 'w1' });
    expect(e?.code).toBe('deploy/unknown-feature');
    const targets = legalMoves(RULES.I, sc.state).flatMap((m) => (m.type === 'deploy' ? [m.feature] : []));
    expect(targets.sort()).toEqual(['f1', 'f2']);
  });

  test('followers on river tiles: knights, thieves, monks and farmers as usual (digest: followers may be deployed on river tiles)', () => {
    const sc = placeOnly(new Scenario(RULES.I), 'R1-05', 1, 0, 0);
    const targets = legalMoves(RULES.I, sc.state).flatMap((m) => (m.type === 'deploy' ? [m.feature] : []));
    expect(targets.sort()).toEqual(['f1', 'f2', 'f3', 'm1', 'r1']);
    sc.play({ type: 'deploy', player: 0, feature: 'm1' });
    expect(sc.state.supply[0]).toBe(6);
  });

  test('fields: the river splits fields like a road; a farmer on the north bank does not hold the south bank (reference B1: rivers separate fields exactly like roads)', () => {
    // spring, bridge R1-06 at 1,0 (its road cuts each bank off from the spring's field), then two
    // straights R1-07 at 2,0 and 3,0. Player 1 puts a farmer on the north bank at 2,0 (f1).
    const sc = new Scenario(RULES.I).place('R1-06', 1, 0, 1).place('R1-07', 2, 0, 0, 'f1');
    placeOnly(sc, 'R1-07', 3, 0, 0);
    expect(sc.player).toBe(0);
    expect(whyIllegal(RULES.I, sc.state, { type: 'deploy', player: 0, feature: 'f1' })?.code).toBe('deploy/feature-occupied');
    expect(whyIllegal(RULES.I, sc.state, { type: 'deploy', player: 0, feature: 'f2' })).toBeNull();
    sc.play({ type: 'deploy', player: 0, feature: 'f2' });
    const north = featureAt(RULES.I, sc.state, { x: 3, y: 0, feature: 'f1' });
    const south = featureAt(RULES.I, sc.state, { x: 3, y: 0, feature: 'f2' });
    if (!north.ok || !south.ok) throw new Error('featureAt failed');
    expect(north.value.counts).toEqual([0, 1]);
    expect(south.value.counts).toEqual([1, 0]);
  });

  test("fields: the spring's field goes round the source, so next to it both banks are one field (reference B1; Hans im Glück ruling: the farm goes around the spring)", () => {
    const sc = new Scenario(RULES.I).place('R1-07', 1, 0, 0, 'f1');
    const south = featureAt(RULES.I, sc.state, { x: 1, y: 0, feature: 'f2' });
    if (!south.ok) throw new Error(south.error.message);
    expect(south.value.counts).toEqual([1, 0]);
  });
});

describe('river: options', () => {
  test.each([
    ["set 'III'", () => river({ set: 'III' } as never), /set must be one of 'I', 'II', 'both', got 'III'/],
    ['unknown key', () => river({ sett: 'I' } as never), /unknown option 'sett' \(options: set\)/],
    ['options not an object', () => river(42 as never), /options must be an object/],
  ] as const)('options: %s is refused with options/expansion-options', (_, make, message) => {
    const r = createRuleset({ game: 'classic', expansions: [make()] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('options/expansion-options');
    expect(r.error.message).toMatch(/^river: /);
    expect(r.error.message).toMatch(message);
  });

  test.each([
    [undefined, 'I'],
    [{}, 'I'],
    [{ set: 'I' }, 'I'],
    [{ set: 'II' }, 'II'],
    [{ set: 'both' }, 'both'],
  ] as const)('options: %j are recorded as plain JSON { set: %s } in the ruleset id and spec', (options, set) => {
    const r = createRuleset({ game: 'classic', expansions: [river(options)] });
    if (!r.ok) throw new Error(r.error.message);
    expect(readableId(r.value.id)).toBe(`classic+river{"set":"${set}"}`);
    expect(r.value.options.expansions).toEqual([{ id: 'river', options: { set } }]);
  });
});

// ---------------------------------------------------------------------------------------------
// The tile tables against the reference (like classic-tiles.test.ts for the base set).

const refSets: ReadonlyMap<string, RefSet> = referenceSets();


describe('river tiles: our tables against test/fixtures/classic-tiles.json (sets river1, river2)', () => {
  const tables = [
    ['river1', RIVER_I_TILES, 'I'],
    ['river2', RIVER_II_TILES, 'II'],
  ] as const;

  test.each(tables)('tiles: set %s has the same ids and counts, 12 tiles', (key, table, set) => {
    const ref = refSets.get(key);
    expect(ref, `missing set ${key} in ${REFERENCE}`).toBeDefined();
    expect(table.map(([id, count]) => [id, count])).toEqual(ref!.tiles.map((t) => [t.id, t.count]));
    expect(ref!.total).toBe(12);
    expect(table.reduce((n, [, c]) => n + c, 0)).toBe(12);
    // Roles: spring, fork and lakes as in the reference, except that River II's lake at a city
    // (R2-04) is drawn among the course tiles (River II rules); it still ends its branch.
    for (const [id, , , role] of table) {
      const r = ref!.tiles.find((t) => t.id === id)!.river_role ?? 'course';
      expect(role, id).toBe(id === 'R2-04' ? 'course' : r);
    }
    expect(tileDefs(RULES[set]).filter((t) => t.id.startsWith(set === 'I' ? 'R1-' : 'R2-')).length).toBe(table.length);
  });

  const defs: [string, TileDef][] = [
    ...tileDefs(RULES.I).filter((t) => t.id.startsWith('R1-')),
    ...tileDefs(RULES.II).filter((t) => t.id.startsWith('R2-')),
  ].map((t) => [t.id, t]);

  test.each(defs)('tiles: %s has the reference features (id, type, ports, pennants, adjacent cities)', (id, tile) => {
    const ref = refSets.get(id.startsWith('R1-') ? 'river1' : 'river2')!.tiles.find((t) => t.id === id);
    expect(ref, `reference has no tile ${id}`).toBeDefined();
    expectFeaturesMatch(tile, ref!);
    const ports = tile.features.flatMap((f) => f.ports);
    expect(new Set(ports).size).toBe(12);
  });
});

// ---------------------------------------------------------------------------------------------
// Seeded random games: 200 per set and player count.

const SIDE_STEP = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
] as const;

/** The kind on side `side` of a placed tile (the owner of the middle port), by the public tile defs. */
function edgeKind(def: TileDef, rotation: number, side: number): string {
  const printed = PORTS[(side * 3 + 1 - 3 * rotation + 12) % 12]!;
  return def.features.find((f) => f.ports.includes(printed))!.kind;
}

/**
 * Checks a finished game: every tile placed or discarded; all river tiles placed before any land
 * tile; shared edges match; every river tile but the spring continued exactly one open end; no
 * two curves in a row turn the same way on any branch (checked from the board alone).
 */
function checkRiverGame(rules: Ruleset, s: Immutable<GameState>, label: string): void {
  expect(s.step.kind, label).toBe('game-over');
  expect(s.tiles.length + s.discarded.reduce((n, c) => n + c, 0), label).toBe(rules.tileCount);
  const defs = new Map(tileDefs(rules).map((d) => [d.id, d]));
  const at = new Map(s.tiles.map((t, i) => [`${t.x},${t.y}`, i]));
  const isRiver = (id: string): boolean => defs.get(id)!.features.some((f) => f.kind === 'river');
  const firstLand = s.tiles.findIndex((t) => !isRiver(t.id));
  expect(s.tiles.slice(firstLand).some((t) => isRiver(t.id)), `${label}: river tile after a land tile`).toBe(false);
  // turnOut.get(`${tile},${side}`): how the river turned on leaving tile by side (null: straight).
  const turnOut = new Map<string, 'left' | 'right' | null>();
  s.tiles.forEach((t, i) => {
    const def = defs.get(t.id)!;
    const water: number[] = [];
    for (let side = 0; side < 4; side++) {
      const [dx, dy] = SIDE_STEP[side]!;
      const j = at.get(`${t.x + dx},${t.y + dy}`);
      const mine = edgeKind(def, t.rotation, side);
      if (j !== undefined) {
        const o = s.tiles[j]!;
        expect(edgeKind(defs.get(o.id)!, o.rotation, (side + 2) % 4), `${label}: ${t.id} at ${t.x},${t.y} side ${side}`).toBe(mine);
      }
      if (mine === 'river') water.push(side);
    }
    if (water.length === 0 || i === 0) return;
    const upstream = water.filter((side) => {
      const [dx, dy] = SIDE_STEP[side]!;
      const j = at.get(`${t.x + dx},${t.y + dy}`);
      return j !== undefined && j < i;
    });
    expect(upstream.length, `${label}: ${t.id} at ${t.x},${t.y} continues ${upstream.length} ends`).toBe(1);
    const entry = upstream[0]!;
    const [dx, dy] = SIDE_STEP[entry]!;
    const before = turnOut.get(`${at.get(`${t.x + dx},${t.y + dy}`)},${(entry + 2) % 4}`) ?? null;
    const flow = (entry + 2) % 4;
    for (const side of water) {
      if (side === entry) continue;
      const d = (side - flow + 4) % 4;
      const turn = d === 1 ? 'right' : d === 3 ? 'left' : null;
      if (turn !== null) expect(turn, `${label}: U-turn at ${t.x},${t.y}`).not.toBe(before);
      turnOut.set(`${i},${side}`, turn);
    }
  });
}

function isDeepFrozen(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true;
  return Object.isFrozen(v) && Object.values(v).every(isDeepFrozen);
}

describe('river: seeded random games', () => {
  test.each(SETS.flatMap((set) => [2, 4].map((players) => [set, players] as const)))(
    'random games (set %s, %i players): 200 seeded games end with every tile placed or discarded, matching edges, and a river without U-turns',
    (set, players) => {
      const rules = RULES[set];
      // 200 games in the full tier, 40 in the fast one (test/depth.ts).
      for (let i = 0; i < byDepth(200, 40); i++) {
        const seed = `river-${set}-${players}-${i}`;
        const g = newGame(rules, { players, seed });
        if (!g.ok) throw new Error(g.error.message);
        const sim = createSimulator(rules, g.value);
        if (!sim.ok) throw new Error(sim.error.message);
        const random = createRandomSource(seed);
        let moves = 0;
        while (!sim.value.isOver()) {
          sim.value.playRandom(random);
          if (++moves > 1000) throw new Error(`${seed}: the game does not end`);
        }
        checkRiverGame(rules, sim.value.state, seed);
      }
    },
  );

  test("placementCells (the open ends) leaves every legal move list as the whole frontier's search gives it, and playouts that search only the ends play legal games", () => {
    // The same module without the member: the core then searches every open cell for river tiles.
    const { placementCells, ...rest } = river({ set: 'both' });
    expect(placementCells).toBeTypeOf('function');
    const plain = createRuleset({ game: 'classic', expansions: [rest] });
    if (!plain.ok) throw new Error(plain.error.message);
    const rules = RULES.both;
    for (let i = 0; i < 30; i++) {
      const seed = `cells-${i}`;
      const g = newGame(rules, { players: 2, seed });
      if (!g.ok) throw new Error(g.error.message);
      const sim = createSimulator(rules, g.value);
      if (!sim.ok) throw new Error(sim.error.message);
      const random = createRandomSource(seed);
      // Through the river phase and some way past it: the same lists, move for move.
      for (let m = 0; m < 80 && !sim.value.isOver(); m++) {
        const state = sim.value.state;
        expect(legalMoves(rules, state)).toEqual(legalMoves(plain.value, { ...state, ruleset: plain.value.id }));
        sim.value.playRandom(random);
      }
      // A playout draws river placements among the ends only: its moves replay as legal ones.
      const playout = createSimulator(rules, g.value);
      if (!playout.ok) throw new Error(playout.error.message);
      playout.value.playout(createRandomSource(`${seed}-playout`));
      let state: GameState = g.value;
      for (const move of playout.value.state.moves) {
        const r = applyMove(rules, state, move);
        if (!r.ok) throw new Error(`${seed}: ${r.error.message}`);
        state = r.value.state;
      }
      checkRiverGame(rules, state, seed);
    }
  });

  test('random games: the immer path (applyMove) reaches the same state as the simulator, river slice included, and every state is deeply frozen', () => {
    const rules = RULES.both;
    const g = newGame(rules, { players: 3, seed: 'paths' });
    if (!g.ok) throw new Error(g.error.message);
    let state: GameState = g.value;
    const events: GameEvent[] = [];
    const sim = createSimulator(rules, state);
    if (!sim.ok) throw new Error(sim.error.message);
    const random = createRandomSource('paths');
    while (!sim.value.isOver()) {
      const move = sim.value.playRandom(random);
      const r = applyMove(rules, state, move);
      if (!r.ok) throw new Error(r.error.message);
      state = r.value.state;
      expect(isDeepFrozen(state)).toBe(true);
      events.push(...r.value.events);
    }
    expect(JSON.stringify(state)).toBe(JSON.stringify(sim.value.state));
    expect(events.some((e) => e.type === 'tile-placed' && e.tile === 'R2-02')).toBe(true);
  });
});
