/**
 * The River with the Count of Carcassonne: one hand-worked position per rule. The rule is the
 * Count of Carcassonne rulebook (the older sheet), "Zvláštnosti při hraní hraběte v kombinaci s
 * ostatními rozšířeními", 4. "Řeka (Řeka II)": "Po rozložení města se pramen umístí tak, že řeka
 * pramení vedle města Carcassonne. Zde mohou vzniknout komplikace, zvláště teče-li řeka kolem
 * města. Proto tuto kombinaci příliš nedoporučujeme." (After the City is laid out, the spring is
 * placed so that the river springs beside the City of Carcassonne. Complications may arise,
 * especially when the river flows round the City; so we do not much recommend this combination.)
 * The 2nd-edition rules' footnote 1 quotes the original River II rules on this game: river tiles
 * that cannot be placed near the City leave the game and the game goes on ("Kartičky s řekou,
 * které nelze umístit, by měly být v souladu se základními pravidly ze hry odstraněny").
 * Our reading (docs/expansions/river.md, "Combined with the Count of Carcassonne"): the spring's placement
 * is part of the set-up, decided by the starting player, who then takes the first turn; no
 * follower goes on the spring, nothing is scored.
 *
 * The City lies at x 0..3, y 0..2 (CO1 CO2 CO3 CO4 / CO5 CO6 CO7 CO8 / CO9 CO10 CO11 CO12). Its rim
 * edges that are field from end to end (the only ones the spring's land sides fit): north of CO1,
 * CO2, CO3 (CO4's north edge carries the road stub RN); south of CO10 and CO12 (CO9's is the city
 * cap CS, CO11's the road stub RS); west of CO5 and CO9 (CO1's carries RW); east of CO4 and CO8
 * (CO12's is the city cap CE). The spring R1-01 / R2-01 is field all round but for the water on
 * its east side; turned r quarter turns clockwise, the water leaves by side r (0 N, 1 E, 2 S, 3 W)
 * plus one.
 */
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  buildPosition,
  createRandomSource,
  createRuleset,
  createSimulator,
  legalMoves,
  newGame,
  type GameEvent,
  type GameState,
  type Ruleset,
} from '../src/index.js';
import { applyAction, chanceOutcomes, moveToAction, newInitialState } from '../src/ai/index.js';
import { count } from '../src/expansions/count/index.js';
import { river, riverTiles, type RiverSet, type RiverState } from '../src/expansions/river/index.js';
import { must, readableId } from './helpers.js';

const SETS = ['I', 'II', 'both'] as const;

function rulesOf(set: RiverSet, countFirst = false): Ruleset {
  return must(createRuleset({ game: 'classic', expansions: countFirst ? [count(), river({ set })] : [river({ set }), count()] }));
}

const RULES: Readonly<Record<RiverSet, Ruleset>> = { I: rulesOf('I'), II: rulesOf('II'), both: rulesOf('both') };
const SPRING: Readonly<Record<RiverSet, string>> = { I: 'R1-01', II: 'R2-01', both: 'R1-01' };

/** The cells beside the City whose edge towards it is field from end to end (see the header). */
const FIELD_RIM: readonly (readonly [x: number, y: number, towardsCity: number])[] = [
  [0, -1, 2], [1, -1, 2], [2, -1, 2], // north of CO1, CO2, CO3: the City is to their south
  [1, 3, 0], [3, 3, 0], // south of CO10, CO12
  [-1, 1, 1], [-1, 2, 1], // west of CO5, CO9
  [4, 0, 3], [4, 1, 3], // east of CO4, CO8
];

const riverSlice = (s: GameState): RiverState => s.ext['river'] as RiverState;

describe('river with the Count: set-up (Count rules, combinations, 4: "Po rozložení města se pramen umístí")', () => {
  test.each(SETS)('river %s: the City is laid, the spring is not; it is the first tile drawn, for the starting player', (set) => {
    const rules = RULES[set];
    const s = must(newGame(rules, { players: 3, seed: 'set-up' }));
    expect(s.tiles.map((t) => t.id)).toEqual(['CO1', 'CO2', 'CO3', 'CO4', 'CO5', 'CO6', 'CO7', 'CO8', 'CO9', 'CO10', 'CO11', 'CO12']);
    expect(s.step).toEqual({ kind: 'place-tile', player: 0, tile: SPRING[set] });
    expect(s.turn).toBe(0);
    // Every river tile of the set is in the game (the spring drawn, the rest in the bag); the
    // base start tile D stays in the box, as the Count says.
    const riverIds = riverTiles(set).map(([id]) => id);
    for (const id of riverIds) expect(s.bag[rules.tileIndex[id]!]! + (id === SPRING[set] ? 1 : 0)).toBe(riverTiles(set).find(([x]) => x === id)![1]);
    expect(s.bag[rules.tileIndex['D']!]).toBe(3);
    expect(riverSlice(s)).toEqual({ ends: {}, branches: 0 });
  });

  test('the order the two modules are listed in does not matter: the same ruleset', () => {
    for (const set of SETS) expect(rulesOf(set, true).id).toBe(RULES[set].id);
    expect(readableId(RULES.II.id)).toBe('classic+river{"set":"II"}+count');
  });

  test('research interface: the first chance node has one outcome, the spring, with probability 1', () => {
    const start = newInitialState(RULES.I, { players: 2, seed: 'chance' });
    expect(chanceOutcomes(RULES.I, start).map((o) => [o.label, o.probability])).toEqual([['R1-01', 1]]);
  });

  test('chosen draws must begin with the spring (the River holds every other tile back until it lies)', () => {
    const r = newGame(RULES.I, { players: 2, seed: 'draws', draws: ['R1-07'] });
    expect(r.ok ? null : r.error.code).toBe('options/draws');
    expect(newGame(RULES.I, { players: 2, seed: 'draws', draws: ['R1-01', 'R1-07'] }).ok).toBe(true);
  });
});

describe('river with the Count: the spring beside the City', () => {
  test.each(SETS)('river %s: the legal placements are exactly the 9 field edges of the rim, each with the water on one of the 3 other sides', (set) => {
    const rules = RULES[set];
    const s = must(newGame(rules, { players: 2, seed: 'spring' }));
    const expected: string[] = [];
    for (const [x, y, towards] of FIELD_RIM) {
      for (let r = 0; r < 4; r++) if ((r + 1) % 4 !== towards) expected.push(`${x},${y}@${r}`);
    }
    const got = legalMoves(rules, s).map((m) => (m.type === 'place' ? `${m.x},${m.y}@${m.rotation}` : m.type));
    expect(got.sort()).toEqual(expected.sort());
  });

  test('the water may not face the City, and a cell whose rim edge is a road or a city cap is refused (edges match as usual)', () => {
    const rules = RULES.I;
    const s = must(newGame(rules, { players: 2, seed: 'spring' }));
    // North of CO2, turned 1: the water leaves by the south side, onto CO2's field edge.
    expect(applyMove(rules, s, { type: 'place', player: 0, x: 1, y: -1, rotation: 1 }).ok).toBe(false);
    // North of CO4 (the road stub RN) and east of CO12 (the city cap CE): no rotation fits.
    for (const [x, y] of [[3, -1], [4, 2]] as const) {
      for (const rotation of [0, 1, 2, 3] as const) expect(applyMove(rules, s, { type: 'place', player: 0, x, y, rotation }).ok).toBe(false);
    }
  });

  test('a set-up placement: no follower on the spring, nothing scored; the starting player then draws the first river tile (turn 1)', () => {
    const rules = RULES.I;
    const s = must(newGame(rules, { players: 2, seed: 'spring', draws: ['R1-01', 'R1-07'] }));
    // East of CO8, unturned: the water flows east, away from the City, into 5,1.
    const r = must(applyMove(rules, s, { type: 'place', player: 0, x: 4, y: 1, rotation: 0 }));
    expect(r.events).toEqual([
      { type: 'tile-placed', player: 0, tile: 'R1-01', x: 4, y: 1, rotation: 0 },
      { type: 'turn-ended', player: 0 },
      { type: 'tile-drawn', player: 0, tile: 'R1-07' },
    ] satisfies GameEvent[]);
    expect(r.state.step).toEqual({ kind: 'place-tile', player: 0, tile: 'R1-07' });
    expect(r.state.turn).toBe(1);
    expect(r.state.scores).toEqual([0, 0]);
    expect(r.state.supply).toEqual([7, 7]);
    expect(riverSlice(r.state)).toEqual({ ends: { 1: { x: 5, y: 1, flow: 'E', turn: null } }, branches: 1 });
    // The river goes on from the spring: only the open end takes the straight (turned 0 or 2).
    expect(legalMoves(rules, r.state).map((m) => (m.type === 'place' ? `${m.x},${m.y}@${m.rotation}` : m.type))).toEqual(['5,1@0', '5,1@2']);
    // That placement is the first turn's action, with a follower, and the turn passes on.
    const next = must(applyMove(rules, r.state, { type: 'place', player: 0, x: 5, y: 1, rotation: 0 }));
    expect(next.state.step).toEqual({ kind: 'deploy', player: 0 });
    const after = must(applyMove(rules, next.state, { type: 'deploy', player: 0, feature: 'f1' }));
    expect(after.state.active).toBe(1);
    expect(after.state.turn).toBe(2);
  });

  test('complications (rules: "Zde mohou vzniknout komplikace, zvláště teče-li řeka kolem města"): a river tile that cannot go on beside the City is discarded, as any tile that fits nowhere', () => {
    const rules = RULES.I;
    const s = must(newGame(rules, { players: 2, seed: 'round', draws: ['R1-01', 'R1-03', 'R1-07'] }));
    // North of CO1, unturned: the water flows east into 1,-1, along the City's north rim. R1-03
    // (cities north and south of the water) would put a city against CO2's field edge whichever
    // way it flows, so it fits nowhere; the straight R1-07 (fields on both banks) fits.
    const r = must(applyMove(rules, s, { type: 'place', player: 0, x: 0, y: -1, rotation: 0 }));
    expect(r.events.slice(1)).toEqual([
      { type: 'turn-ended', player: 0 },
      { type: 'tile-drawn', player: 0, tile: 'R1-03' },
      { type: 'tile-discarded', player: 0, tile: 'R1-03' },
      { type: 'tile-drawn', player: 0, tile: 'R1-07' },
    ] satisfies GameEvent[]);
    expect(legalMoves(rules, r.state).map((m) => (m.type === 'place' ? `${m.x},${m.y}@${m.rotation}` : m.type))).toEqual(['1,-1@0', '1,-1@2']);
  });

  test('buildPosition: the first turn listed is the spring, laid at set-up', () => {
    const built = must(
      buildPosition(RULES.I, {
        players: 2,
        seed: 'position',
        turns: [
          { tile: 'R1-01', x: 4, y: 1, rotation: 0 },
          { tile: 'R1-07', x: 5, y: 1, rotation: 0, deploy: 'f1' },
        ],
      }),
    );
    expect(built.tiles.slice(12).map((t) => [t.id, t.player])).toEqual([['R1-01', 0], ['R1-07', 0]]);
    expect(built.active).toBe(1);
  });
});

describe('river with the Count: whole games', () => {
  test.each(SETS)('river %s: seeded random games lay or discard every river tile before the first land tile, and the spring at set-up beside the City', (set) => {
    const rules = RULES[set];
    const riverIds = new Set(riverTiles(set).map(([id]) => id));
    for (let g = 0; g < 12; g++) {
      const sim = must(createSimulator(rules, must(newGame(rules, { players: 2 + (g % 4), seed: `rc-${set}-${g}` }))));
      const random = createRandomSource(`rc-${g}`);
      for (let moves = 0; !sim.isOver(); moves++) {
        sim.playRandom(random);
        if (moves > 1000) throw new Error('the game does not end');
      }
      const s = sim.state;
      expect(s.step.kind).toBe('game-over');
      const spring = s.tiles[12]!;
      expect(spring.id).toBe(SPRING[set]);
      expect(spring.player).toBe(0);
      expect(FIELD_RIM.some(([x, y]) => x === spring.x && y === spring.y)).toBe(true);
      // No follower at the set-up placement: the next move is the first turn's placement.
      expect([s.moves[0]?.type, s.moves[1]?.type]).toEqual(['place', 'place']);
      const firstLand = s.tiles.findIndex((t, i) => i >= 12 && !riverIds.has(t.id));
      const discarded = riverTiles(set).reduce((n, [id]) => n + s.discarded[rules.tileIndex[id]!]!, 0);
      const laid = s.tiles.filter((t) => riverIds.has(t.id)).length;
      expect(laid + discarded).toBe(riverTiles(set).reduce((n, [, c]) => n + c, 0));
      expect(s.tiles.slice(firstLand).some((t) => riverIds.has(t.id))).toBe(false);
    }
  });

  test('the research path: applyAction from the initial chance node plays the spring as a set-up placement and stops at the next chance node', () => {
    const rules = RULES.II;
    let s = newInitialState(rules, { players: 2, seed: 'research' });
    s = applyAction(rules, s, chanceOutcomes(rules, s)[0]!.outcome);
    expect(s.step).toEqual({ kind: 'place-tile', player: 0, tile: 'R2-01' });
    s = applyAction(rules, s, moveToAction(rules, s, legalMoves(rules, s)[0]!));
    // River II: the fork comes right after the spring.
    expect(chanceOutcomes(rules, s).map((o) => [o.label, o.probability])).toEqual([['R2-02', 1]]);
    expect(s.active).toBe(0);
  });
});
