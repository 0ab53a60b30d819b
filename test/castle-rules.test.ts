/**
 * Carcassonne: The Castle: one hand-worked position per rule, each row citing the Czech rulebook
 * (the Czech rulebook of The Castle, "the rulebook", the authority) or the project's reading of it
 * (the Castle digest, "the digest"). Every worked example of the rulebook has its
 * row (search the names for "rulebook example").
 *
 * The board is the reconstructed wall (its area, track, towers and pieces) with seven start
 * fields of our own (TEST_LAYOUT below), and the tiles are a test set of our own (TEST_TILES):
 * neither claims anything about the printed game. Drawing conventions: x grows east, y grows
 * south; a tile is written `Id@r` (r quarter turns clockwise: port p goes to (p + 3r) % 12, so
 * N->E->S->W). Players alternate 0, 1, 0, 1, ... ("black" is player 0, "white" player 1 where
 * the rulebook names colours) and each turn's draw is rigged (test/helpers.ts `Scenario`).
 *
 * The play area (`#`), with the start fields written where their virtual tiles lie outside it:
 *
 * ```text
 *        x: -1 0 1 2 3 4 5 6 7 8 9
 *   y=-1     . . . . . G . . . . .      G  road gate            (north side of 4,0)   p:N2
 *   y= 0     . . . # # # # # # . .
 *   y= 1     . V . # # # # # # C .      C  court                (east side of 7,1)    c:E
 *   y= 2     . # # # # # # # # . .      V  tower|house border   (north side of 0,2)   t:N1,N2 h:N3
 *   y= 3     . # # # # # # # # # .
 *   y= 4     . . # # # # # # # # .
 *   y= 5     . R # # # # # # # # T      R  road between courts  (west side of 1,5)    c:W1 p:W2 c:W3
 *   y= 6     . . # # # # # # # # .      T  tower part           (east side of 8,5)    t:E
 *   y= 7     . # # # # # # # # # .
 *   y= 8     H # # # # # # # . . .      H  house part           (west side of 0,8)    h:W
 *   y= 9     . # # # # # # # . . .
 *   y=10     . . . . M . . . . . .      M  court with a market  (south side of 3,9)   c+:S
 * ```
 *
 * The wall tower holding space 33 is 33/34 (layout index `T33`). Where a row needs a known
 * face-down token or a score near a tower, it rigs the state (`rig` actions): rigged states are
 * for rule tests only. Features are named by their oldest tile, so a feature that reaches a
 * start field is named by the start field's virtual tile (the gate's path: 4,-1 p1).
 *
 * A tile can close a neighbour's tower or house without joining it (a court against a tower, a
 * tower against a house): the rows "... closed by the court of the tile placed next to it" prove that it is scored
 * like any other (src/core/engine/turn.ts `completedRoots` looks across every edge when kinds of
 * one edge class can face each other).
 */
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  createRuleset,
  featureAt,
  legalMoves,
  observe,
  whyIllegal,
  type FeatureInfo,
  type GameEvent,
  type GameState,
  type Move,
  type Rotation,
  type Ruleset,
} from '../src/index.js';
import { cloneState } from '../src/core/engine/clone.js';
import { serializeState, createRandomSource, newGame } from '../src/index.js';
import { CHANCE_PLAYER, createResearchSimulator, determinize, moveToAction, type ResearchSimulator } from '../src/ai/index.js';
import { RECONSTRUCTED_LAYOUT } from '../src/games/castle/reconstruction.js';
import { checkPlacements, must, playLast, rigDraw, Scenario, scoredOf, type PlacementRow, type Scored, type Turn } from './helpers.js';
import { castle, WALL_TOKENS, type CastleLayoutData, type CastleSlice, type CastleTileSetData } from '../src/games/castle/entry.js';

// ---------------------------------------------------------------------------------------------
// Test data

/** The reconstructed wall with seven start fields chosen for these positions (drawn above). */
const TEST_LAYOUT: CastleLayoutData = {
  provenance: 'test',
  notes: 'castle-rules.test.ts: the reconstructed area, track and towers, with start fields of its own.',
  area: RECONSTRUCTED_LAYOUT.area,
  track: RECONSTRUCTED_LAYOUT.track,
  towers: RECONSTRUCTED_LAYOUT.towers,
  pieces: RECONSTRUCTED_LAYOUT.pieces ?? [],
  startFields: [
    { x: 4, y: 0, side: 'N', spec: 'p:N2' }, // G: a road gate
    { x: 7, y: 1, side: 'E', spec: 'c:E' }, // C: a court
    { x: 0, y: 2, side: 'N', spec: 't:N1,N2 h:N3' }, // V: tower and house, border mid-edge
    { x: 1, y: 5, side: 'W', spec: 'c:W1 p:W2 c:W3' }, // R: a road between two courts
    { x: 8, y: 5, side: 'E', spec: 't:E' }, // T: a tower part
    { x: 0, y: 8, side: 'W', spec: 'h:W' }, // H: a house part
    { x: 3, y: 9, side: 'S', spec: 'c+:S' }, // M: a court with a market
  ],
};

/**
 * The test tiles (60, padded with the plain court CC). Path segments only on middle ports;
 * several one-port paths on a tile meet at a square (Q3, X4), one path owning several middle
 * ports is a branch without a square (B3); a one-port path ends at a square (E) or in a
 * building (PH).
 */
const TILE_KINDS: readonly (readonly [id: string, count: number, spec: string])[] = [
  ['S', 4, 'p:N2,S2 c:N3,E,S1 c:S3,W,N1'], // straight path between two courts
  ['SW', 3, 'p+:N2,S2 c:N3,E,S1 c:S3,W,N1'], // the same with a well
  ['E', 4, 'p:N2 c:N3,E,S,W,N1'], // a path ending at a square
  ['Q3', 1, 'p:N2 p:E2 p:S2 c:N3,E1 c:E3,S1 c:S3,W,N1'], // a square with three arms: three paths
  ['B3', 1, 'p:N2,E2,S2 c:N3,E1 c:E3,S1 c:S3,W,N1'], // a branch without a square: one path
  ['CR', 4, 'p:N2,E2 c:N3,E1 c:E3,S,W,N1'], // a path corner
  ['PH', 1, 'p:N2 h:S c:N3,E c:W,N1'], // a path ending in a house
  ['TC', 4, 't:E,S c:W,N'], // tower corner
  ['TH', 4, 't:N c:E,S,W'], // tower half
  ['TT', 1, 't:N,S c:E c:W'], // tower through
  ['T3', 1, 't:N,E,S c:W'], // tower on three sides
  ['H', 5, 'h:N c:E,S,W'], // house
  ['M', 5, 'c+:N,E,S,W'], // court with a market
  ['MT', 1, 't:N c+:E,S,W'], // tower and a court with a market
  ['PCH', 1, 'p:N2,S2 c+:N3,E,S1 h:S3,W,N1'], // a court with a market between a path and a house
  ['MB', 1, 't:N1,N2 h:N3,E c:S,W'], // tower and house meeting mid-edge
  ['TX', 1, 't:E h:S c:N,W'], // a tower side and a house side
  ['X4', 1, 'p:N2 p:E2 p:S2 p:W2 c:N3,E1 c:E3,S1 c:S3,W1 c:W3,N1'], // a square with four arms
];
const PADDING = 60 - TILE_KINDS.reduce((n, [, count]) => n + count, 0);
const TEST_TILES: CastleTileSetData = {
  provenance: 'test',
  tiles: [...TILE_KINDS.map(([id, count, spec]) => ({ id, count, spec })), { id: 'CC', count: PADDING, spec: 'c:N,E,S,W' }],
};

/** Index of the wall tower holding track space `space`. */
function towerOf(space: number): number {
  const i = TEST_LAYOUT.towers.findIndex(([a, b]) => a === space || b === space);
  if (i < 0) throw new Error(`no wall tower at ${space}`);
  return i;
}
/** Index of the wall tower 33/34 in the layout. */
const T33 = towerOf(33);

/** The Castle's rule options (the data options are always the test data). */
interface RuleOptions {
  readonly keep?: 'completing-tile' | 'majority';
  readonly extraTurn?: 'free' | 'needs-majority';
  readonly marketToken?: 'one-court' | 'every-court';
  readonly laps?: 'every-lap' | 'first-lap';
}

const rulesCache = new Map<string, Ruleset>();

/** The Castle with the test data and the given rule options (compiled once per options). */
function castleRules(options: RuleOptions = {}, tiles: CastleTileSetData = TEST_TILES): Ruleset {
  const key = JSON.stringify([options, tiles === TEST_TILES]);
  const hit = rulesCache.get(key);
  if (hit !== undefined) return hit;
  const r = createRuleset({ game: castle({ layout: TEST_LAYOUT, tiles, ...options })});
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  rulesCache.set(key, r.value);
  return r.value;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function castleOf(s: { readonly ext: Readonly<Record<string, unknown>> }): CastleSlice {
  return s.ext['castle'] as CastleSlice;
}

/** A scenario that also records the castle steps it met (`castle/score`, `castle/extra-turn`, ...). */
class Castle extends Scenario {
  /** Kinds of the castle/* steps the game stopped at, in order. */
  steps: string[] = [];

  override play(move: Move): this {
    super.play(move);
    if (this.state.step.kind.startsWith('castle/')) this.steps.push(this.state.step.kind);
    return this;
  }

  /** Changes the state directly (a rigged position). */
  rig(change: (s: GameState, c: CastleSlice) => void): this {
    const s = cloneState(this.state);
    change(s, castleOf(s));
    this.state = s;
    return this;
  }

  /** The legal moves at the current step. */
  moves(): Move[] {
    return legalMoves(this.rules, this.state);
  }

  /** Plays the one offered move whose fields include `fields`. */
  choose(fields: Readonly<Record<string, unknown>>): this {
    const found = this.moves().filter((m) => Object.entries(fields).every(([k, v]) => (m as unknown as Record<string, unknown>)[k] === v));
    if (found.length !== 1) throw new Error(`choose ${JSON.stringify(fields)}: ${found.length} matching moves among ${JSON.stringify(this.moves())}`);
    return this.play(found[0]!);
  }

  /** Plays `turn` as the last tile: the bag is emptied after the rigged draw. */
  last(turn: Turn): this {
    playLast(this, turn, false);
    return this;
  }

  feature(x: number, y: number, feature: string): FeatureInfo {
    const r = featureAt(this.rules, this.state, { x, y, feature });
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.value;
  }
}

/** One action of a row: a turn (rigged draw, place, deploy or pass), a rig, a choice at a castle step, or the last tile. */
type Action =
  | Turn
  | { readonly rig: (s: GameState, c: CastleSlice) => void }
  | { readonly choose: Readonly<Record<string, unknown>>; readonly offered?: number }
  | { readonly last: Turn }
  | { readonly step: string; readonly player: number };

function isTurn(a: Action): a is Turn {
  return Array.isArray(a);
}

function run(sc: Castle, actions: readonly Action[]): Castle {
  for (const a of actions) {
    if (isTurn(a)) sc.place(...a);
    else if ('rig' in a) sc.rig(a.rig);
    else if ('choose' in a) {
      if (a.offered !== undefined) expect(sc.moves().length, `moves offered at ${sc.state.step.kind}`).toBe(a.offered);
      sc.choose(a.choose);
    } else if ('last' in a) sc.last(a.last);
    else expect(sc.state.step).toMatchObject({ kind: a.step, player: a.player });
  }
  return sc;
}

/** The castle/* events, written compactly: `token-taken 0:5@33`, `token-used 0:2`, `keep-placed 0:1`, `wall-cleared 13`. */
function castleLog(events: readonly GameEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    const r = e as unknown as Record<string, unknown>;
    switch (e.type) {
      case 'castle/token-taken':
        out.push(`token-taken ${r['player']}:${r['token']}@${r['space']}`);
        break;
      case 'castle/token-used':
        out.push(`token-used ${r['player']}:${r['token']}`);
        break;
      case 'castle/keep-placed':
      case 'castle/keep-moved':
        out.push(`${e.type.slice(7)} ${r['player']}:${r['tiles']}`);
        break;
      case 'castle/wall-cleared':
        out.push(`wall-cleared ${r['tokens']}`);
        break;
      default:
        if (e.type.startsWith('castle/')) out.push(e.type);
    }
  }
  return out;
}

/** `feature-completed` events as `kind:tiles`. */
function completed(events: readonly GameEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'feature-completed' ? [`${e.feature.kind}:${e.tiles}`] : []));
}

/** Rigs: player scores, a known face-down token on tower 33/34, held tokens. */
const at = (scores: readonly number[]) => ({ rig: (s: GameState) => void s.scores.splice(0, scores.length, ...scores) });
const wall33 = (token: number) => ({ rig: (_s: GameState, c: CastleSlice) => void (c.wall[T33] = token) });
/** The wall tower holding `space` carries `token` face down (0: none left there). */
const wallAt = (space: number, token: number) => ({ rig: (_s: GameState, c: CastleSlice) => void (c.wall[towerOf(space)] = token) });
/** Player `p` holds `tokens`, taken before the current turn (usable now). */
const holds = (p: number, ...tokens: number[]) => ({
  rig: (s: GameState, c: CastleSlice) => {
    for (const token of tokens) c.held[p]!.push({ token, turn: s.turn - 1 });
  },
});
/** Player `p` holds `token`, taken in the current turn (not usable before the next one). */
const takenNow = (p: number, token: number) => ({
  rig: (s: GameState, c: CastleSlice) => void c.held[p]!.push({ token, turn: s.turn }),
});

// ---------------------------------------------------------------------------------------------
// Scoring positions

interface Row {
  readonly name: string;
  readonly options?: RuleOptions;
  readonly actions: readonly Action[];
  /** Every `scored` event of the game, in order. */
  readonly scored: readonly Scored[];
  readonly scores: readonly number[];
  /** The castle/* events, in order (see `castleLog`). */
  readonly castle?: readonly string[];
  /** The castle/* steps met, in order (none unless listed). */
  readonly steps?: readonly string[];
  /** `feature-completed` events (`kind:tiles`), in order. */
  readonly completed?: readonly string[];
  /** Followers in supply at the end. */
  readonly supply?: readonly number[];
  readonly check?: (sc: Castle) => void;
  /** Set when the engine breaks the rule the row states: the row is expected to fail (`test.fails`). */
}

/** The last tile of the game: a plain court at 6,1 (next to the C start field's cell). */
const FINISH_61: Action = { last: ['CC', 6, 1, 0] };

/**
 * The scoring-order position of the rows below, with both features black's: black's knight on
 * the tower open to the west of 7,1 (TC@1 7,1 + TH@0 7,2), black's squire on the house open to
 * the north (H@0 6,2), CC@0 at 7,3. TX@0 at 6,1 then closes both (tower 3 tiles, house 2).
 */
const BLACKS_TOWER_AND_HOUSE: readonly Action[] = [
  ['TC', 7, 1, 1, 't1'],
  ['TH', 7, 2, 0],
  ['H', 6, 2, 0, 'h1'],
  ['CC', 7, 3, 0],
];

const rows: readonly Row[] = [
  // --- The rulebook's worked examples ---------------------------------------------------------
  {
    // the-castle.cs.txt, "Uzavřená cesta": "Černý získal 8 bodů. (3 hradní karty a 1 karta na
    // hradní zdi tvoří uzavřenou cestu. U cesty stojí studna, takže se každá karta počítá za 2 body.)"
    //   G (road gate, 4,-1)
    //   SW@0 4,0   black's herald; the well
    //   S@0  4,1
    //   E@0  4,2   the path ends at its square: closed
    name: 'rulebook example: a closed road of 3 tiles and the road gate, with a well: black scores 8 (the-castle.cs.txt "Uzavřená cesta")',
    actions: [
      ['SW', 4, 0, 0, 'p1'],
      ['S', 4, 1, 0],
      ['E', 4, 2, 0],
    ],
    scored: [[0, 8, 'path', 'completed']],
    scores: [8, 0],
    completed: ['path:4'],
    supply: [6, 6],
  },
  {
    // the-castle.cs.txt, "Uzavřená věž": "Bílý získal 8 bodů. (4 hradní karty tvořící uzavřenou
    // věž, každá za 2 body.)"  Four tower corners TC (t:E,S) round one point:
    //   TC@0 6,1 (white's knight)   TC@1 7,1 (next to the C court)
    //   TC@3 6,2                    TC@2 7,2 (closes it)
    name: 'rulebook example: a closed tower of 4 tiles: white scores 8 (the-castle.cs.txt "Uzavřená věž")',
    actions: [
      ['TC', 7, 1, 1],
      ['TC', 6, 1, 0, 't1'],
      ['TC', 6, 2, 3],
      ['TC', 7, 2, 2],
    ],
    scored: [[1, 8, 'tower', 'completed']],
    scores: [0, 8],
    completed: ['tower:4'],
    supply: [6, 6],
  },
  {
    // the-castle.cs.txt, "Uzavřený dům a palác": "Přidáním karty „roh na roh“ se dům nerozšiřuje.
    // Bílý získal 1 bod. (1 hradní karta s domem)"  H@0 at 7,2 (house north) is closed by the court
    // of CC at 7,1; the house of H@2 at 6,1 (house south, still open) touches it only at a corner.
    // White completed a house with the majority: the keep goes on it ("Jakmile hráč uzavře svůj
    // první dům, postaví si na něj palác").
    name: 'rulebook example: a 1-tile house, touching another house only at a corner, is closed: white scores 1 and places the keep (the-castle.cs.txt "Uzavřený dům a palác")',
    actions: [
      ['CC', 7, 1, 0],
      ['H', 6, 1, 2],
      ['CC', 6, 0, 0],
      ['H', 7, 2, 0, 'h1'],
    ],
    scored: [[1, 1, 'house', 'completed']],
    scores: [0, 1],
    castle: ['keep-placed 1:1'],
    completed: ['house:1'],
    check: (sc) => {
      expect(sc.feature(6, 1, 'h1')).toMatchObject({ complete: false, tiles: [{ x: 6, y: 1 }] });
      expect(castleOf(sc.state).keep).toEqual([null, { root: expect.any(Number), tiles: 1 }]);
    },
  },
  {
    // the-castle.cs.txt, "Rychlé body": "Černý získal 1 bod za uzavřenou cestu." The tile E@1 at
    // 7,0 closes its own path (a square on the tile, the wall at the east end); black deploys a
    // herald on the completed path, scores and takes it back in the same turn.
    name: 'rulebook example: fast points: black closes a 1-tile road against the wall, deploys on it and scores 1 (the-castle.cs.txt "Rychlé body")',
    actions: [
      ['CC', 7, 1, 0],
      ['CC', 7, 2, 0],
      ['E', 7, 0, 1, 'p1'],
    ],
    scored: [[0, 1, 'path', 'completed']],
    scores: [1, 0],
    completed: ['path:1'],
    supply: [6, 6],
    check: (sc) => expect(sc.events.filter((e) => e.type === 'follower-returned').length).toBe(1),
  },
  {
    // the-castle.cs.txt, "Rychlé body": "Černý získal 4 body za uzavřenou věž."
    //   TH@2 7,0 (black's knight, deployed on the tower this tile completes)
    //   TH@0 7,1
    name: 'rulebook example: fast points: black closes a 2-tile tower, deploys a knight on it and scores 4 (the-castle.cs.txt "Rychlé body")',
    actions: [
      ['TH', 7, 1, 0],
      ['CC', 7, 2, 0],
      ['TH', 7, 0, 2, 't1'],
    ],
    scored: [[0, 4, 'tower', 'completed']],
    scores: [4, 0],
    completed: ['tower:2'],
    supply: [6, 6],
  },
  {
    // the-castle.cs.txt, "Propojení území": "Když mají na jednom území oba hráči stejný počet
    // figurek, nezískává body nikdo ... Když bílý a černý nasazovali své rytíře, byly věže
    // oddělené. Přiložením nové hradní karty se obě věže propojily."
    //   CC@0 7,1
    //   TH@2 6,1 (black's knight)  TH@3 7,2 (white's knight)  TC@3 6,2 joins and closes them
    name: 'rulebook example: two knights on towers joined by the closing tile: 1 against 1, nobody scores, both go home (the-castle.cs.txt "Propojení území")',
    actions: [
      ['CC', 7, 1, 0],
      ['TH', 7, 2, 3, 't1'],
      ['TH', 6, 1, 2, 't1'],
      ['TC', 6, 2, 3],
    ],
    scored: [],
    scores: [0, 0],
    completed: ['tower:3'],
    supply: [6, 6],
  },
  {
    // the-castle.cs.txt, "Bodování dvorů": "Na velkém dvoře je celkem 5 tržišť (včetně jednoho na
    // startovním poli.). Černý má většinu obchodníků na tomto dvoře. Získá tedy 15 bodů. Bílý z
    // tohoto dvora vyjde naprázdno." and "Bílý získá 3 body za 1 trh na malém dvoře (cestou a
    // domem je oddělený od velkého dvora)".
    //   y=8:  H@2 3,8     M 4,8 (black)   TH@3 5,8 (white, court N,E,S)
    //   y=9:  M 3,9 (black)  M 4,9 (last)  M 5,9   PCH@0 6,9 (white: the small court, east of its path and house)
    //   M start field (market) south of 3,9.
    // Black's two merchants and white's one stood on three separate courts until M at 4,9 joined
    // them: 5 markets, black 2 against 1: 15. The small court: 1 market, white alone: 3.
    name: 'rulebook examples: the large court with 5 markets, one on the start field, black majority: 15; the small court cut off by a path and a house: white 3 (the-castle.cs.txt "Bodování dvorů")',
    actions: [
      ['M', 3, 9, 0, 'c1'],
      ['H', 3, 8, 2],
      ['M', 4, 8, 0, 'c1'],
      ['TH', 5, 8, 3, 'c1'],
      ['M', 5, 9, 0],
      ['PCH', 6, 9, 0, 'c1'],
      { last: ['M', 4, 9, 0] },
    ],
    scored: [
      [0, 15, 'court', 'castle/court'],
      [1, 3, 'court', 'castle/court'],
    ],
    scores: [15, 3],
    castle: ['wall-cleared 13'],
    completed: ['house:1', 'tower:1'],
    supply: [4, 4],
    check: (sc) => {
      expect(sc.feature(4, 9, 'c1')).toMatchObject({ pennants: 5, counts: [2, 1], majority: [0] });
      expect(sc.feature(6, 9, 'c1')).toMatchObject({ pennants: 1, counts: [0, 1] });
    },
  },
  {
    // the-castle.cs.txt, "Bodování dvorů": "Kdyby černý měl žeton č. 7 získal by za každý trh 4
    // body. Celkem by tedy získal 20 bodů." Same position; black holds token 7. The large court is
    // black's only court with the majority: the token applies to it without a question.
    name: 'rulebook example: the same large court with black holding token 7: 4 per market, 20 (the-castle.cs.txt "Bodování dvorů", token 7)',
    actions: [
      ['M', 3, 9, 0, 'c1'],
      ['H', 3, 8, 2],
      ['M', 4, 8, 0, 'c1'],
      ['TH', 5, 8, 3, 'c1'],
      ['M', 5, 9, 0],
      ['PCH', 6, 9, 0, 'c1'],
      holds(0, 7),
      { last: ['M', 4, 9, 0] },
    ],
    scored: [
      [0, 20, 'court', 'castle/court'],
      [1, 3, 'court', 'castle/court'],
    ],
    scores: [20, 3],
    castle: ['wall-cleared 13', 'token-used 0:7'],
    completed: ['house:1', 'tower:1'],
    check: (sc) => expect(castleOf(sc.state).held).toEqual([[], []]),
  },
  {
    // the-castle.cs.txt, "Získání žetonu": "Černý získal 2 body. Posune svou figurku na 33 a
    // vezme si žeton." Black stands on 31; the 1-tile tower TH@1 at 7,1 (closed by the C start
    // field's court) is worth 2; a 5 lies face down on the wall tower 33/34.
    name: 'rulebook example: black scores 2 from 31, ends on 33 and takes the wall token there (the-castle.cs.txt "Získání žetonu")',
    actions: [at([31, 0]), wall33(5), ['TH', 7, 1, 1, 't1']],
    scored: [[0, 2, 'tower', 'completed']],
    scores: [33, 0],
    castle: ['token-taken 0:5@33'],
    check: (sc) => {
      const c = castleOf(sc.state);
      expect(c.held).toEqual([[{ token: 5, turn: 0 }], []]);
      expect(c.wall[T33]).toBe(0);
    },
  },

  // --- Paths ------------------------------------------------------------------------------------
  {
    // the-castle.cs.txt, "Uzavřená cesta": "I při více než jedné studni kolem cesty získá hráč
    // jen 2 body za každou hradní kartu." Two wells on the path (SW at 4,0 and 4,1): still 2 per tile.
    name: 'path: two wells on one path still give 2 per tile: gate + 3 tiles = 8, not 16 (the-castle.cs.txt "Uzavřená cesta")',
    actions: [
      ['SW', 4, 0, 0, 'p1'],
      ['SW', 4, 1, 0],
      ['E', 4, 2, 0],
    ],
    scored: [[0, 8, 'path', 'completed']],
    scores: [8, 0],
    completed: ['path:4'],
  },
  {
    // digest-castle.md, Turn 3 "Path: complete when every end stops at a square, the wall or
    // start field, a building, or it loops" (rulebook: "nebo když cesta končí v budově"). The path
    // from the gate runs through S at 4,0 into the house of PH at 4,1: closed, 3 tiles with the gate.
    name: 'path: a path ending in a building on its tile is closed: gate + 2 tiles = 3 (the-castle.cs.txt "Uzavřená cesta": "cesta končí v budově")',
    actions: [
      ['S', 4, 0, 0, 'p1'],
      ['PH', 4, 1, 0],
    ],
    scored: [[0, 3, 'path', 'completed']],
    scores: [3, 0],
    completed: ['path:3'],
    check: (sc) => expect(sc.feature(4, 1, 'h1').complete).toBe(false),
  },
  {
    // the-castle.cs.txt, "Uzavřená cesta": "nebo když cesta tvoří uzavřený okruh". Four path
    // corners CR (p:N2,E2) round one point; the fourth closes the loop.
    //   CR@1 6,1   CR@2 7,1 (black's herald)
    //   CR@0 6,2   CR@3 7,2
    name: 'path: a loop of 4 corners is closed by its last tile: 4 (the-castle.cs.txt "Uzavřená cesta": "uzavřený okruh")',
    actions: [
      ['CR', 7, 1, 2, 'p1'],
      ['CR', 6, 1, 1],
      ['CR', 7, 2, 3],
      ['CR', 6, 2, 0],
    ],
    scored: [[0, 4, 'path', 'completed']],
    scores: [4, 0],
    completed: ['path:4'],
  },
  {
    // castle-known-facts.md "some path junctions have no square (a path can branch)"; digest Turn 3.
    // B3 at 4,0 is one path with three arms (N to the gate, E, S): it is closed only when the
    // eastern arm (E@3 at 5,0) and the southern arm (E@0 at 4,1) both end: 4 tiles, one path.
    name: 'path: a branch without a square is one path, closed when every arm ends: gate + 3 tiles = 4 (castle-known-facts.md, digest Turn 3)',
    actions: [
      ['B3', 4, 0, 0, 'p1'],
      ['E', 5, 0, 3],
      ['E', 4, 1, 0],
    ],
    scored: [[0, 4, 'path', 'completed']],
    scores: [4, 0],
    completed: ['path:4'],
  },
  {
    // the-castle.cs.txt, "Uzavřená cesta": "zakončené náměstím"; castle-known-facts.md "a square
    // ends each path touching it: a square with three arms makes three paths". Q3 at 4,0: the arm
    // to the gate is closed at once (2 tiles, nobody on it); black's herald on the eastern arm
    // scores 2 when E@3 at 5,0 ends it; the southern arm stays open.
    name: 'path: a square splits paths: its three arms are three paths, the eastern one closed by one more tile scores 2 (the-castle.cs.txt "zakončené náměstím")',
    actions: [
      ['Q3', 4, 0, 0, 'p2'],
      ['E', 5, 0, 3],
    ],
    scored: [[0, 2, 'path', 'completed']],
    scores: [2, 0],
    completed: ['path:2', 'path:2'],
    check: (sc) => expect(sc.feature(4, 0, 'p3')).toMatchObject({ complete: false, tiles: [{ x: 4, y: 0 }] }),
  },

  // --- Towers, houses, start fields, mid-edge borders ------------------------------------------
  {
    // the-castle.cs.txt, "Uzavřená věž": "(Pokud věž navazuje na některé z odpovídajících
    // startovních políček, tak se toto políčko počítá, jakoby to byla hradní karta.)" TH@1 at 8,5
    // meets the tower part T of the wall: 2 tiles, 4 points (fast points: first tile of the game).
    name: 'start field: a tower closed against the wall\'s tower part counts the start field as a tile: 2 x 2 = 4 (the-castle.cs.txt "Uzavřená věž")',
    actions: [['TH', 8, 5, 1, 't1']],
    scored: [[0, 4, 'tower', 'completed']],
    scores: [4, 0],
    completed: ['tower:2'],
  },
  {
    // the-castle.cs.txt, "Uzavřený dům a palác": "(Pokud dům navazuje na některé z odpovídajících
    // startovních políček, tak se toto políčko počítá, jakoby to byla hradní karta.)" H@3 at 0,8
    // meets the house part H of the wall: 2 tiles, 2 points, and the keep goes on a 2-tile house.
    name: 'start field: a house closed against the wall\'s house part counts it as a tile: 2, and the keep stands on 2 tiles (the-castle.cs.txt "Uzavřený dům a palác")',
    actions: [['H', 0, 8, 3, 'h1']],
    scored: [[0, 2, 'house', 'completed']],
    scores: [2, 0],
    castle: ['keep-placed 0:2'],
    completed: ['house:2'],
  },
  {
    // castle-known-facts.md "Feature borders can fall in the middle of an edge"; digest Turn 1
    // "Towers, houses and courts may face anything". MB@0 at 0,2 (tower N1,N2 | house N3,E) under
    // the start field V (tower N1,N2 | house N3): the tower closes at once (start field + 1 tile =
    // 4 for black's knight); the house goes on east and H@3 at 1,2 (house W) closes it: start
    // field + 2 tiles, white's squire deployed on the completed house scores 3.
    name: 'start field: a border in the middle of an edge: the tower part closes at once (4), the house part goes on and scores 3 with the start field (digest Turn 1, castle-known-facts.md)',
    actions: [
      ['MB', 0, 2, 0, 't1'],
      ['H', 1, 2, 3, 'h1'],
    ],
    scored: [
      [0, 4, 'tower', 'completed'],
      [1, 3, 'house', 'completed'],
    ],
    scores: [4, 3],
    castle: ['keep-placed 1:3'],
    completed: ['tower:2', 'house:3'],
  },
  {
    // digest-castle.md, Turn 1 "Towers, houses and courts may face anything"; the-castle.cs.txt
    // "Uzavřený dům": "Dům je uzavřený, když jsou jeho jednotlivé části úplně obklopeny cestami,
    // věžemi, dvory nebo hradní zdi" and "Vzniknou-li položením hradní karty uzavřené cesty, věže
    // nebo domy, musí se ihned obodovat." The tower of TH@1 at 6,1 (white's knight) faces the
    // house of H@3 at 7,1 (black's squire). They do not join: each closes the other, so both are
    // complete and scored at once: white 2, black 1 (and black's keep? No: white placed the tile).
    name: 'placement: a tower may face a house; neither joins the other, each closes the other: the tower scores 2 for white and the house 1 for black (digest Turn 1, the-castle.cs.txt "Uzavřený dům")',
    actions: [
      ['H', 7, 1, 3, 'h1'],
      ['TH', 6, 1, 1, 't1'],
    ],
    scored: [
      [1, 2, 'tower', 'completed'],
      [0, 1, 'house', 'completed'],
    ],
    scores: [1, 2],
    completed: ['tower:1', 'house:1'],
    supply: [6, 6],
  },
  {
    // the-castle.cs.txt, "Uzavřený dům": "Dům je uzavřený, když jsou jeho jednotlivé části úplně
    // obklopeny cestami, věžemi, dvory nebo hradní zdi"; "Není důležité, který z hráčů uzavře
    // území". Black's squire on the house of H@0 at 7,1 (open only to the north); white's court CC
    // at 7,0 surrounds it: the house is complete (featureAt says so) and must be scored now.
    name: 'house: a house closed by the court of the tile placed next to it is scored at once: black 1, the squire comes home (the-castle.cs.txt "Uzavřený dům")',
    actions: [
      ['H', 7, 1, 0, 'h1'],
      ['CC', 7, 0, 0],
    ],
    scored: [[0, 1, 'house', 'completed']],
    scores: [1, 0],
    completed: ['house:1'],
    supply: [6, 6],
    check: (sc) => expect(sc.feature(7, 1, 'h1')).toMatchObject({ complete: true, open: 0 }),
  },
  {
    // Same for a tower: black's knight on TH@0 at 7,1, open only to the north; white's court CC at
    // 7,0 closes it (the-castle.cs.txt "Uzavřená věž": "obklopeny cestami, domy, dvory nebo hradní zdí").
    name: 'tower: a tower closed by the court of the tile placed next to it is scored at once: black 2 (the-castle.cs.txt "Uzavřená věž")',
    actions: [
      ['TH', 7, 1, 0, 't1'],
      ['CC', 7, 0, 0],
    ],
    scored: [[0, 2, 'tower', 'completed']],
    scores: [2, 0],
    supply: [6, 6],
  },

  // --- Majorities --------------------------------------------------------------------------------
  {
    // the-castle.cs.txt, "Propojení území": "Při bodování ... se nejprve zjistí, jestli tam nemá
    // jeden hráč většinu figurek. Tento hráč pak získá body sám." Three towers, black's knights on
    // TH@2 6,1 and TH@1 5,2, white's on TH@3 7,2, joined and closed by T3@3 at 6,2 (white's tile):
    // 4 tiles, black 2 against 1: black alone scores 8, every knight goes home.
    name: 'majority: black 2 knights against white 1 on a joined tower: black alone scores 8, whoever placed the closing tile (the-castle.cs.txt "Propojení území")',
    actions: [
      ['CC', 7, 1, 0],
      ['TH', 7, 2, 3, 't1'],
      ['TH', 6, 1, 2, 't1'],
      ['CC', 5, 1, 0],
      ['TH', 5, 2, 1, 't1'],
      ['T3', 6, 2, 3],
    ],
    scored: [[0, 8, 'tower', 'completed']],
    scores: [8, 0],
    completed: ['tower:4'],
    supply: [6, 6],
  },

  // --- Keep ---------------------------------------------------------------------------------------
  {
    // the-castle.cs.txt, "Uzavřený dům a palác": "Pokud hráč později sám uzavře větší dům (z více
    // hradních karet), ve kterém má také většinu panošů, přesune si palác tam." Black's houses:
    // 1 tile at 7,1 (keep placed), 1 tile at 7,0 (not larger: the keep stays), 2 tiles at 7,2-7,3
    // (larger: the keep moves).
    name: 'keep: placed on the first house black completes, not moved to an equal one, moved to a strictly larger one (the-castle.cs.txt "Uzavřený dům a palác")',
    actions: [
      ['H', 7, 1, 1, 'h1'],
      ['CC', 6, 1, 0],
      ['H', 7, 0, 1, 'h1'],
      ['CC', 6, 0, 0],
      ['H', 7, 2, 2, 'h1'],
      ['CC', 6, 2, 0],
      ['H', 7, 3, 0],
    ],
    scored: [
      [0, 1, 'house', 'completed'],
      [0, 1, 'house', 'completed'],
      [0, 2, 'house', 'completed'],
    ],
    scores: [4, 0],
    castle: ['keep-placed 0:1', 'keep-moved 0:2'],
    check: (sc) => expect(castleOf(sc.state).keep[0]).toEqual({ root: expect.any(Number), tiles: 2 }),
  },
  {
    // the-castle.cs.txt, "Uzavřený dům a palác": the keep goes on a house the player "uzavře"
    // (completes) himself; digest Turn 4 "(places the completing tile of)". White's H@2 at 7,0
    // completes black's house (H@0 at 7,1, black's squire): black scores 2, but no keep is placed.
    name: 'keep: a house of black completed by white scores for black but gets no keep (default keep: completing-tile; digest Turn 4)',
    actions: [
      ['H', 7, 1, 0, 'h1'],
      ['H', 7, 0, 2],
    ],
    scored: [[0, 2, 'house', 'completed']],
    scores: [2, 0],
    check: (sc) => expect(castleOf(sc.state).keep).toEqual([null, null]),
  },
  {
    // digest-castle.md, Turn 4 "(Option: drop the 'placed the completing tile' condition, as some
    // translations read it.)" The same position with keep: 'majority': black's keep goes on it.
    name: "keep: option keep 'majority': a house of black completed by white gets black's keep (digest Turn 4, option)",
    options: { keep: 'majority' },
    actions: [
      ['H', 7, 1, 0, 'h1'],
      ['H', 7, 0, 2],
    ],
    scored: [[0, 2, 'house', 'completed']],
    scores: [2, 0],
    castle: ['keep-placed 0:2'],
  },
  {
    // the-castle.cs.txt, "Bodování největšího paláce": "Hráč, který má větší palác ... Zjistí se
    // největší souvislá plocha těchto prázdných polí ... O tuto hodnotu se posune hráč s větším
    // palácem". Black's keep: 1 tile (7,0); white's: 2 tiles (6,0-6,1). After 5 tiles the 71 other
    // cells are one empty area: white scores 71.
    name: 'keep: the larger keep (white, 2 tiles against 1) scores the largest empty area, 71 cells (the-castle.cs.txt "Bodování největšího paláce")',
    actions: [
      ['CC', 7, 1, 0],
      ['H', 6, 1, 0, 'h1'],
      ['H', 7, 0, 1, 'h1'],
      ['H', 6, 0, 2],
      { last: ['CC', 7, 2, 0] },
    ],
    scored: [
      [0, 1, 'house', 'completed'],
      [1, 2, 'house', 'completed'],
      [1, 71, 'house', 'castle/keep'],
    ],
    scores: [1, 73],
    castle: ['keep-placed 0:1', 'keep-placed 1:2', 'wall-cleared 13'],
  },
  {
    // the-castle.cs.txt, "Význam žetonů": "8 Tvůj palác je o 2 hradní karty větší, než ve
    // skutečnosti." and "Upozornění: Pozor na žeton číslo 8!" The same position, black holding
    // token 8: black's keep counts 1 + 2 = 3 > 2, black scores the 71.
    name: 'token 8: black\'s 1-tile keep counts 3 and beats white\'s 2-tile keep: black scores the empty area (the-castle.cs.txt "Význam žetonů" 8)',
    actions: [
      ['CC', 7, 1, 0],
      ['H', 6, 1, 0, 'h1'],
      ['H', 7, 0, 1, 'h1'],
      ['H', 6, 0, 2],
      holds(0, 8),
      { last: ['CC', 7, 2, 0] },
    ],
    scored: [
      [0, 1, 'house', 'completed'],
      [1, 2, 'house', 'completed'],
      [0, 71, 'house', 'castle/keep'],
    ],
    scores: [72, 2],
    castle: ['keep-placed 0:1', 'keep-placed 1:2', 'wall-cleared 13', 'token-used 0:8'],
  },
  {
    // the-castle.cs.txt, "Bodování největšího paláce": "Pokud jsou paláce obou hráčů stejně
    // velké, nikdo nedostane body." Both keeps on 1-tile houses.
    name: 'keep: equal keeps (1 tile each): nobody scores the empty area (the-castle.cs.txt "Bodování největšího paláce")',
    actions: [
      ['CC', 7, 1, 0],
      ['H', 7, 0, 1, 'h1'],
      ['H', 7, 2, 1, 'h1'],
      FINISH_61,
    ],
    scored: [
      [1, 1, 'house', 'completed'],
      [0, 1, 'house', 'completed'],
    ],
    scores: [1, 1],
    castle: ['keep-placed 1:1', 'keep-placed 0:1', 'wall-cleared 13'],
  },
  {
    // digest-castle.md, End of game 1 "Only one keep: that player." 4 tiles placed: 72 empty cells.
    name: 'keep: the only keep on the board scores the largest empty area, 72 (digest End of game 1)',
    actions: [
      ['CC', 7, 1, 0],
      ['CC', 7, 2, 0],
      ['H', 7, 0, 1, 'h1'],
      FINISH_61,
    ],
    scored: [
      [0, 1, 'house', 'completed'],
      [0, 72, 'house', 'castle/keep'],
    ],
    scores: [73, 0],
    castle: ['keep-placed 0:1', 'wall-cleared 13'],
  },

  // --- Wall tokens: taking them ------------------------------------------------------------------
  {
    // the-castle.cs.txt, "Získání žetonu": "Pokud hráč přeskočí rohovou věž, žeton nezíská!"
    // From 31, the 2-tile tower at the T start field (4 points) moves black to 35, over 33/34.
    name: 'token: passing over a wall tower takes nothing: 31 + 4 = 35 (the-castle.cs.txt "Získání žetonu")',
    actions: [at([31, 0]), wall33(5), ['TH', 8, 5, 1, 't1']],
    scored: [[0, 4, 'tower', 'completed']],
    scores: [35, 0],
    check: (sc) => expect(castleOf(sc.state).wall[T33]).toBe(5),
  },
  {
    // the-castle.cs.txt, "Získání žetonu": "(na jednom z obou políček, ze kterých se rohová věž
    // skládá)": ending on 34, the second space of tower 33/34, takes its token too.
    name: 'token: ending on either space of a wall tower takes its token: 32 + 2 = 34 (the-castle.cs.txt "Získání žetonu")',
    actions: [at([32, 0]), wall33(9), ['TH', 7, 1, 1, 't1']],
    scored: [[0, 2, 'tower', 'completed']],
    scores: [34, 0],
    castle: ['token-taken 0:9@34'],
  },
  {
    // the-castle.cs.txt: "Hradní zeď tvoří okruh se sto políčky"; digest Open questions "pick-up
    // is judged on score mod 100 (default)". From 131, +2 ends on 133: space 33, token taken.
    name: "token: on the second lap the marker's space is the score mod 100: 131 + 2 = 133 takes the token on 33 (digest, laps 'every-lap')",
    actions: [at([131, 0]), wall33(4), ['TH', 7, 1, 1, 't1']],
    scored: [[0, 2, 'tower', 'completed']],
    scores: [133, 0],
    castle: ['token-taken 0:4@33'],
  },
  {
    // options.ts laps 'first-lap': no token once a score has reached 100.
    name: "token: option laps 'first-lap': 131 + 2 = 133 takes nothing (digest Open questions, option)",
    options: { laps: 'first-lap' },
    actions: [at([131, 0]), wall33(4), ['TH', 7, 1, 1, 't1']],
    scored: [[0, 2, 'tower', 'completed']],
    scores: [133, 0],
  },
  {
    // The same option on the first lap: 31 + 2 = 33 still takes the token.
    name: "token: option laps 'first-lap' still takes tokens on the first lap: 31 + 2 = 33 (digest Open questions, option)",
    options: { laps: 'first-lap' },
    actions: [at([31, 0]), wall33(4), ['TH', 7, 1, 1, 't1']],
    scored: [[0, 2, 'tower', 'completed']],
    scores: [33, 0],
    castle: ['token-taken 0:4@33'],
  },

  // --- Scoring order -----------------------------------------------------------------------------
  // The position: TC@1 at 7,1 + TH@0 at 7,2 make a tower open to the west of 7,1; H@0 at 6,2 a
  // house open to the north. TX@0 at 6,1 (tower E, house S) joins and closes both: the tower has
  // 3 tiles (6), the house 2 (2).
  //   TX@0 6,1   TC@1 7,1
  //   H@0  6,2   TH@0 7,2
  //              CC   7,3
  {
    // the-castle.cs.txt, "Získání žetonu": "Pokud položením hradní karty získají body oba hráči,
    // započítají se nejprve body tomu z nich, který hradní kartu položil." White's knight on the
    // tower, black's squire on the house; black places TX. Black on 31 (+2), white on 27 (+6):
    // both would end on 33. Black's scoring comes first: black takes the token, white finds none.
    name: 'scoring order: the placing player (black) is scored first and takes the token both markers reach (the-castle.cs.txt "Získání žetonu")',
    actions: [
      ['TC', 7, 1, 1],
      ['TH', 7, 2, 0, 't1'],
      ['H', 6, 2, 0, 'h1'],
      ['CC', 7, 3, 0],
      at([31, 27]),
      wall33(6),
      ['TX', 6, 1, 0],
    ],
    scored: [
      [0, 2, 'house', 'completed'],
      [1, 6, 'tower', 'completed'],
    ],
    scores: [33, 33],
    castle: ['keep-placed 0:2', 'token-taken 0:6@33'],
  },
  {
    // Same, but white places the closing tile (one more turn first): white is scored first and
    // takes the token. (Black's house is completed by white: no keep, digest Turn 4.)
    name: 'scoring order: the same two features closed by white: white is scored first and takes the token (the-castle.cs.txt "Získání žetonu")',
    actions: [
      ['TC', 7, 1, 1],
      ['TH', 7, 2, 0, 't1'],
      ['H', 6, 2, 0, 'h1'],
      ['CC', 7, 3, 0],
      ['CC', 7, 4, 0],
      at([31, 27]),
      wall33(6),
      ['TX', 6, 1, 0],
    ],
    scored: [
      [1, 6, 'tower', 'completed'],
      [0, 2, 'house', 'completed'],
    ],
    scores: [33, 33],
    castle: ['token-taken 1:6@33'],
  },
  {
    // digest-castle.md, Turn 3 "the placing player chooses the order of all of them (this matters
    // for wall tokens)". Both features are black's now (knight on the tower, 6; squire on the
    // house, 2). From 31 (no token left on 39/40): house first ends on 33 (token), tower first
    // passes it (37, 39). The order changes which tokens are taken, so black is asked
    // (castle/score) and picks the house.
    name: 'scoring order: black completes two of its features at once from 31; the order decides the token, black is asked and scores the house first: token taken (digest Turn 3)',
    actions: [
      ...BLACKS_TOWER_AND_HOUSE,
      at([31, 0]),
      wall33(6),
      wallAt(39, 0),
      ['TX', 6, 1, 0],
      { step: 'castle/score', player: 0 },
      { choose: { x: 6, y: 2, feature: 'h1' }, offered: 2 },
    ],
    scored: [
      [0, 2, 'house', 'completed'],
      [0, 6, 'tower', 'completed'],
    ],
    scores: [39, 0],
    castle: ['keep-placed 0:2', 'token-taken 0:6@33'],
    steps: ['castle/score'],
  },
  {
    // Same choice, black scores the tower first: 37, then 39: no token.
    name: 'scoring order: the same position, black scores the tower first: 37 then 39, no token (digest Turn 3)',
    actions: [
      ...BLACKS_TOWER_AND_HOUSE,
      at([31, 0]),
      wall33(6),
      wallAt(39, 0),
      ['TX', 6, 1, 0],
      { choose: { x: 7, y: 1, feature: 't1', token: 0 }, offered: 2 },
    ],
    scored: [
      [0, 6, 'tower', 'completed'],
      [0, 2, 'house', 'completed'],
    ],
    scores: [39, 0],
    castle: ['keep-placed 0:2'],
    steps: ['castle/score'],
    check: (sc) => expect(castleOf(sc.state).wall[T33]).toBe(6),
  },
  {
    // digest-castle.md, Turn 3: "the placing player chooses the order of all of them", also when
    // they are the opponent's. Both features are black's; white places TX (one more turn first):
    // white is asked and scores the tower first, so black passes 33 (37, then 39): no token. The
    // house was completed by white: no keep for black (digest Turn 4).
    name: "scoring order: white closes two of black's features from 31 and chooses the order (tower first): 37 then 39, black takes no token (digest Turn 3)",
    actions: [
      ...BLACKS_TOWER_AND_HOUSE,
      ['CC', 7, 4, 0],
      at([31, 0]),
      wall33(6),
      wallAt(39, 0),
      ['TX', 6, 1, 0],
      { step: 'castle/score', player: 1 },
      { choose: { x: 7, y: 1, feature: 't1', token: 0 }, offered: 2 },
    ],
    scored: [
      [0, 6, 'tower', 'completed'],
      [0, 2, 'house', 'completed'],
    ],
    scores: [39, 0],
    steps: ['castle/score'],
    check: (sc) => expect(castleOf(sc.state).wall[T33]).toBe(6),
  },
  {
    // Same position from 0: 2 then 8, or 6 then 8: no order reaches a wall tower, nobody is asked.
    name: 'scoring order: the same two features from 0: no order reaches a wall token, so no castle/score decision (digest Turn 3)',
    actions: [
      ...BLACKS_TOWER_AND_HOUSE,
      ['TX', 6, 1, 0],
    ],
    scored: [
      [0, 6, 'tower', 'completed'],
      [0, 2, 'house', 'completed'],
    ],
    scores: [8, 0],
    castle: ['keep-placed 0:2'],
  },

  // --- Wall tokens: using them -------------------------------------------------------------------
  {
    // the-castle.cs.txt, "Získání žetonu": "Hráč smí žeton využít až od svého příštího tahu."
    // "Význam žetonů" 1: "Udělej hned další úplný tah." Black takes token 1 at turn 0 (31 + 2 on
    // 33): no extra turn is offered at the end of that turn. At the end of black's next turn
    // (turn 2) it is; black uses it and places again (turn 3); then white.
    name: 'token 1: not offered in the turn it was taken; offered at the end of black\'s next turn; black plays again (the-castle.cs.txt "Význam žetonů" 1)',
    actions: [
      at([31, 0]),
      wall33(1),
      ['TH', 7, 1, 1, 't1'],
      { step: 'place-tile', player: 1 },
      ['CC', 7, 2, 0],
      ['CC', 6, 1, 0],
      { step: 'castle/extra-turn', player: 0 },
      { choose: { use: true }, offered: 2 },
      { step: 'place-tile', player: 0 },
      ['CC', 6, 2, 0],
      { step: 'place-tile', player: 1 },
    ],
    scored: [[0, 2, 'tower', 'completed']],
    scores: [33, 0],
    castle: ['token-taken 0:1@33', 'token-used 0:1'],
    steps: ['castle/extra-turn'],
    check: (sc) => {
      expect(sc.events.flatMap((e) => (e.type === 'tile-placed' ? [e.player] : []))).toEqual([0, 1, 0, 0]);
      expect(castleOf(sc.state).held).toEqual([[], []]);
    },
  },
  {
    // Declining: the token stays and is offered again at the end of black's next turn.
    name: 'token 1: declined, it is kept, white plays next, and it is offered again a turn later (the-castle.cs.txt "Význam žetonů" 1)',
    actions: [
      holds(0, 1),
      ['CC', 7, 1, 0],
      { choose: { use: false }, offered: 2 },
      { step: 'place-tile', player: 1 },
      ['CC', 7, 2, 0],
      ['CC', 6, 1, 0],
      { choose: { use: false } },
    ],
    scored: [],
    scores: [0, 0],
    steps: ['castle/extra-turn', 'castle/extra-turn'],
    check: (sc) => expect(castleOf(sc.state).held[0]!.map((h) => h.token)).toEqual([1]),
  },
  {
    // digest-castle.md, End of game: the game ends with the last tile. No turn follows, so no extra
    // turn is offered after it.
    name: 'token 1: not offered after the last tile (digest End of game)',
    actions: [holds(0, 1), { last: ['CC', 7, 1, 0] }],
    scored: [],
    scores: [0, 0],
    castle: ['wall-cleared 13'],
    check: (sc) => expect(sc.state.step.kind).toBe('game-over'),
  },
  {
    // the-castle.cs.txt, "Význam žetonů": "Hráč, který chce použít žetony 1 až 7, musí mít na
    // bodovaném území více svých figurek než soupeř." Option extraTurn 'needs-majority': only at
    // the end of a turn in which black scored a completed feature with the majority.
    name: "token 1: option extraTurn 'needs-majority': not offered after a turn without a scoring, offered after black scores a tower (the-castle.cs.txt \"Význam žetonů\")",
    options: { extraTurn: 'needs-majority' },
    actions: [
      holds(0, 1),
      ['CC', 7, 1, 0],
      { step: 'place-tile', player: 1 },
      ['CC', 7, 2, 0],
      ['TH', 7, 0, 1, 't1'],
      { choose: { use: true }, offered: 2 },
      { step: 'place-tile', player: 0 },
    ],
    scored: [[0, 2, 'tower', 'completed']],
    scores: [2, 0],
    castle: ['token-used 0:1'],
    steps: ['castle/extra-turn'],
  },
  {
    // "Význam žetonů" 2: "Za 1 uzavřenou věž si počítej 4 body za každou hradní kartu. (zahraj při
    // bodování během hry)". Black's knight on TH@0 7,1; black closes the tower with TH@2 at 7,0 on
    // its own turn, holding token 2: asked (castle/score), uses it: 2 tiles x 4 = 8.
    name: 'token 2: black closes its 2-tile tower on its own turn, is asked, uses token 2: 4 per tile, 8 (the-castle.cs.txt "Význam žetonů" 2)',
    actions: [
      holds(0, 2),
      ['TH', 7, 1, 0, 't1'],
      ['CC', 7, 2, 0],
      ['TH', 7, 0, 2],
      { step: 'castle/score', player: 0 },
      { choose: { token: 2 }, offered: 2 },
    ],
    scored: [[0, 8, 'tower', 'completed']],
    scores: [8, 0],
    castle: ['token-used 0:2'],
    steps: ['castle/score'],
    check: (sc) => expect(castleOf(sc.state).held).toEqual([[], []]),
  },
  {
    name: 'token 2: declined at the decision: the tower scores 4 and the token is kept (the-castle.cs.txt "Význam žetonů" 2)',
    actions: [holds(0, 2), ['TH', 7, 1, 0, 't1'], ['CC', 7, 2, 0], ['TH', 7, 0, 2], { choose: { token: 0 }, offered: 2 }],
    scored: [[0, 4, 'tower', 'completed']],
    scores: [4, 0],
    steps: ['castle/score'],
    check: (sc) => expect(castleOf(sc.state).held[0]!.map((h) => h.token)).toEqual([2]),
  },
  {
    // digest-castle.md, Tokens 2 "on your turn": white closes black's tower; black holds token 2
    // but is not asked: 2 per tile.
    name: 'token 2: not offered when white closes black\'s tower on white\'s turn: black scores 4 (digest Tokens 2)',
    actions: [holds(0, 2), ['TH', 7, 1, 0, 't1'], ['TH', 7, 0, 2]],
    scored: [[0, 4, 'tower', 'completed']],
    scores: [4, 0],
    check: (sc) => expect(castleOf(sc.state).held[0]!.map((h) => h.token)).toEqual([2]),
  },
  {
    // "Hráč smí žeton využít až od svého příštího tahu.": a token 2 taken in this very turn.
    name: 'token 2: a token taken in the current turn is not offered yet: the tower scores 4 (the-castle.cs.txt "Získání žetonu")',
    actions: [['TH', 7, 1, 0, 't1'], ['CC', 7, 2, 0], takenNow(0, 2), ['TH', 7, 0, 2]],
    scored: [[0, 4, 'tower', 'completed']],
    scores: [4, 0],
  },
  {
    // "Hráč, který chce použít žetony 1 až 7, musí mít na bodovaném území více svých figurek než
    // soupeř." The rulebook's two joined knights (a tie), white closing it holding token 2.
    name: 'token 2: needs the majority: white holds it and closes a tied tower: not offered, nobody scores (the-castle.cs.txt "Význam žetonů")',
    actions: [holds(1, 2), ['CC', 7, 1, 0], ['TH', 7, 2, 3, 't1'], ['TH', 6, 1, 2, 't1'], ['TC', 6, 2, 3]],
    scored: [],
    scores: [0, 0],
  },
  {
    // the-castle.cs.txt, "Získání žetonu": "V jednom tahu může hráč použít víc žetonů." The
    // scoring-order position with both features black's: black holds 1, 2 and 3. TX closes the
    // 3-tile tower (token 2: 12) and the 2-tile house (token 3: 4); black is asked once per
    // feature, then offered the extra turn.
    name: 'tokens: several in one turn: token 2 on the tower (12), token 3 on the house (4), then token 1 for another turn (the-castle.cs.txt "V jednom tahu může hráč použít víc žetonů")',
    actions: [
      ...BLACKS_TOWER_AND_HOUSE,
      holds(0, 1, 2, 3),
      wallAt(12, 0), // 12 would take the token of tower 12/13: none left there
      ['TX', 6, 1, 0],
      { choose: { x: 7, y: 1, token: 2 }, offered: 4 },
      { choose: { x: 6, y: 2, token: 3 }, offered: 2 },
      { choose: { use: true }, offered: 2 },
      { step: 'place-tile', player: 0 },
    ],
    scored: [
      [0, 12, 'tower', 'completed'],
      [0, 4, 'house', 'completed'],
    ],
    scores: [16, 0],
    castle: ['token-used 0:2', 'token-used 0:3', 'keep-placed 0:2', 'token-used 0:1'],
    steps: ['castle/score', 'castle/score', 'castle/extra-turn'],
  },
  {
    // "Význam žetonů" 3: "Za 1 uzavřený dům si počítej 2 body za každou hradní kartu." Black's
    // 2-tile house (H@0 7,1 + H@2 7,0): 2 x 2 = 4; it is also black's first house: the keep.
    name: 'token 3: black closes its 2-tile house on its own turn and uses token 3: 2 per tile, 4 (the-castle.cs.txt "Význam žetonů" 3)',
    actions: [
      holds(0, 3),
      ['H', 7, 1, 0, 'h1'],
      ['CC', 7, 2, 0],
      ['H', 7, 0, 2],
      { choose: { token: 3 }, offered: 2 },
    ],
    scored: [[0, 4, 'house', 'completed']],
    scores: [4, 0],
    castle: ['token-used 0:3', 'keep-placed 0:2'],
    steps: ['castle/score'],
  },  {
    // "Hráč, který chce použít žetony 1 až 7, musí mít na bodovaném území více svých figurek než
    // soupeř." White holds token 3 and closes black's house: white has no squire there, so is
    // not asked; black scores 1 per tile (2), white keeps the token. (Black completed nothing, so
    // black gets no keep: the default keep option needs the completing tile.)
    name: 'token 3: needs the majority: white holds it and closes black\'s house: not offered, black scores 2 (the-castle.cs.txt "Význam žetonů")',
    actions: [holds(1, 3), ['H', 7, 1, 0, 'h1'], ['H', 7, 0, 2]],
    scored: [[0, 2, 'house', 'completed']],
    scores: [2, 0],
    check: (sc) => expect(castleOf(sc.state).held.map((h) => h.map((t) => t.token))).toEqual([[], [3]]),
  },
];

/** The final-token position: black's open paths A (gate + SW 4,0 + S 4,1: 3 tiles, a well) and B (start R + S 1,5: 2 tiles), black's open tower TH@2 7,2 (1 tile), white's open house H@3 6,1 (1 tile). */
const FINALS: readonly Action[] = [
  ['SW', 4, 0, 0, 'p1'],
  ['CC', 7, 1, 0],
  ['TH', 7, 2, 2, 't1'],
  ['H', 6, 1, 3, 'h1'],
  ['S', 1, 5, 1, 'p1'],
  ['S', 4, 1, 0],
];

/** Two courts of black with markets: M at 3,9 (+ the M start field: 2 markets) and the court of MT@1 at 2,9 (1 market). */
const TWO_COURTS: readonly Action[] = [['M', 3, 9, 0, 'c1'], ['CC', 7, 1, 0], ['MT', 2, 9, 1, 'c1']];

const finalRows: readonly Row[] = [
  {
    // the-castle.cs.txt, "Závěrečné bodování": "Za neuzavřené cesty, věže a domy se nezískávají
    // žádné body." Black's herald and knight and white's squire on open features: nothing.
    name: 'final scoring: unfinished paths, towers and houses score nothing (the-castle.cs.txt "Závěrečné bodování")',
    actions: [...FINALS, { last: ['CC', 6, 2, 0] }],
    scored: [],
    scores: [0, 0],
    castle: ['wall-cleared 13'],
    supply: [3, 5],
  },
  {
    // "Význam žetonů" 4: "U 1 neuzavřené cesty si počítej 1 bod za každou hradní kartu.", 5: "U 1
    // neuzavřené věže si počítej 2 body za každou hradní kartu.", 6: "U 1 neuzavřeného domu si
    // počítej 1 bod za každou hradní kartu." + majority. Black holds 4, 5 and 6, white holds 6.
    // Token 4: two open paths with black's majority: black is asked (castle/final-token) and picks
    // the smaller B (2). Token 5: one candidate, applied by itself (1 tile: 2). Black's token 6: no
    // house where black has the majority: unused. White's 6: white's house, 1.
    name: 'tokens 4, 5, 6: black chooses between two open paths (picks the 2-tile one), the tower token applies by itself, token 6 needs a house with the majority (the-castle.cs.txt "Význam žetonů")',
    actions: [
      ...FINALS,
      holds(0, 4, 5, 6),
      holds(1, 6),
      { last: ['CC', 6, 2, 0] },
      { step: 'castle/final-token', player: 0 },
      { choose: { x: 0, y: 5 }, offered: 2 }, // path B, named by the R start field's virtual tile
    ],
    scored: [
      [0, 2, 'path', 'castle/token'],
      [0, 2, 'tower', 'castle/token'],
      [1, 1, 'house', 'castle/token'],
    ],
    scores: [4, 1],
    castle: ['wall-cleared 13', 'token-used 0:4', 'token-used 0:5', 'token-used 1:6'],
    steps: ['castle/final-token'],
    check: (sc) => expect(castleOf(sc.state).held.map((h) => h.map((t) => t.token))).toEqual([[6], []]),
  },
  {
    // "Hráč, který chce použít žetony 1 až 7, musí mít na bodovaném území více svých figurek než
    // soupeř." White holds token 5; the only open tower is black's: the token applies to nothing.
    name: 'token 5: needs the majority: white holds it, the only open tower is black\'s: nothing scored, the token stays unused (the-castle.cs.txt "Význam žetonů")',
    actions: [...FINALS, holds(1, 5), { last: ['CC', 6, 2, 0] }],
    scored: [],
    scores: [0, 0],
    castle: ['wall-cleared 13'],
    check: (sc) => expect(castleOf(sc.state).held.map((h) => h.map((t) => t.token))).toEqual([[], [5]]),
  },
  {
    // Token 4 on the path with a well: 1 per tile all the same ("1 bod za každou hradní kartu").
    name: 'token 4: on an open path with a well it still gives 1 per tile: gate + 2 tiles = 3 (the-castle.cs.txt "Význam žetonů" 4)',
    actions: [...FINALS, holds(0, 4), { last: ['CC', 6, 2, 0] }, { choose: { x: 4, y: -1 }, offered: 2 }], // path A (the gate's tile)
    scored: [[0, 3, 'path', 'castle/token']],
    scores: [3, 0],
    castle: ['wall-cleared 13', 'token-used 0:4'],
    steps: ['castle/final-token'],
  },
  {
    // "Význam žetonů" 7: "Za každý trh na dvoře, kde máš většinu obchodníků si počítej 4 body."
    // Default marketToken 'one-court': one court of the owner's choice. Black has two market
    // courts: asked, picks the 1-market court: 3 x 2 + 4 x 1 = 10.
    name: "token 7: option 'one-court' (default): black has two courts with markets, is asked and boosts the smaller one: 6 + 4 (the-castle.cs.txt \"Význam žetonů\" 7)",
    actions: [...TWO_COURTS, holds(0, 7), FINISH_61, { choose: { x: 2, y: 9 }, offered: 2 }],
    scored: [
      [0, 6, 'court', 'castle/court'],
      [0, 4, 'court', 'castle/court'],
    ],
    scores: [10, 0],
    castle: ['wall-cleared 13', 'token-used 0:7'],
    steps: ['castle/final-token'],
  },
  {
    // The majority condition for token 7: white holds it, both market courts are black's: each
    // scores 3 per market for black (6 + 3), white's token applies to nothing.
    name: 'token 7: needs the majority: white holds it, both market courts are black\'s: 6 + 3 for black, the token unused (the-castle.cs.txt "Význam žetonů")',
    actions: [...TWO_COURTS, holds(1, 7), FINISH_61],
    scored: [
      [0, 6, 'court', 'castle/court'],
      [0, 3, 'court', 'castle/court'],
    ],
    scores: [9, 0],
    castle: ['wall-cleared 13'],
    check: (sc) => expect(castleOf(sc.state).held.map((h) => h.map((t) => t.token))).toEqual([[], [7]]),
  },
  {
    name: "token 7: option 'every-court': every court of black's majority scores 4 per market, without a question: 8 + 4 (digest Open questions, option)",
    options: { marketToken: 'every-court' },
    actions: [...TWO_COURTS, holds(0, 7), FINISH_61],
    scored: [
      [0, 8, 'court', 'castle/court'],
      [0, 4, 'court', 'castle/court'],
    ],
    scores: [12, 0],
    castle: ['wall-cleared 13', 'token-used 0:7'],
  },
  {
    // the-castle.cs.txt, "Bodování dvorů": "Pokud mají oba hráči na jednom dvoře stejně
    // obchodníků, nezískává body nikdo." Black's merchant on M at 3,9 (with the market start
    // field), white's on the court of TH@3 at 4,9 (its tower keeps the courts apart); M at 3,8
    // and 4,8 join them: 4 markets, 1 merchant each: nobody scores.
    name: 'court: a tie on a court with 4 markets scores nobody (the-castle.cs.txt "Bodování dvorů")',
    actions: [
      ['M', 3, 9, 0, 'c1'],
      ['TH', 4, 9, 3, 'c1'],
      ['CC', 7, 1, 0],
      ['M', 3, 8, 0],
      { last: ['M', 4, 8, 0] },
    ],
    scored: [],
    scores: [0, 0],
    castle: ['wall-cleared 13'],
    completed: ['tower:1'],
    check: (sc) => expect(sc.feature(4, 8, 'c1')).toMatchObject({ pennants: 4, counts: [1, 1], majority: [0, 1] }),
  },
  {
    // "Význam žetonů" 9: "Získáváš 5 bodů. (zahraj při závěrečném bodování)"
    name: 'token 9: 5 points at the final scoring (the-castle.cs.txt "Význam žetonů" 9)',
    actions: [holds(0, 9), ['CC', 7, 1, 0], FINISH_61],
    scored: [[0, 5, 'castle/token', 'castle/token']],
    scores: [5, 0],
    castle: ['wall-cleared 13', 'token-used 0:9'],
  },
  {
    // the-castle.cs.txt, "Dvůr": "Obchodník se už po zbytek hry ke svému majiteli nevrátí."
    // Black's merchant at 7,1 stays while white's knight (tower at the T start field, 4) and
    // black's squire (1-tile house at 7,0, 1) come home; the court has no market: nothing for it.
    // Black's keep is the only one: 72 empty cells.
    name: 'court: a merchant never returns, while knights and squires on completed features do (the-castle.cs.txt "Dvůr")',
    actions: [['CC', 7, 1, 0, 'c1'], ['TH', 8, 5, 1, 't1'], ['H', 7, 0, 1, 'h1'], FINISH_61],
    scored: [
      [1, 4, 'tower', 'completed'],
      [0, 1, 'house', 'completed'],
      [0, 72, 'house', 'castle/keep'],
    ],
    scores: [73, 4],
    castle: ['keep-placed 0:1', 'wall-cleared 13'],
    supply: [5, 6],
    check: (sc) => {
      expect(sc.state.followers.map((f) => f.player)).toEqual([0]);
      expect(sc.feature(7, 1, 'c1')).toMatchObject({ kind: 'court', counts: [1, 0] });
    },
  },
];

describe('castle scoring', () => {
  for (const row of [...rows, ...finalRows]) test(row.name, () => {
    const sc = run(new Castle(castleRules(row.options)), row.actions);
    expect(scoredOf(sc.events)).toEqual(row.scored);
    expect(sc.state.scores).toEqual(row.scores);
    expect(castleLog(sc.events)).toEqual(row.castle ?? []);
    expect(sc.steps).toEqual(row.steps ?? []);
    if (row.completed !== undefined) expect(completed(sc.events)).toEqual(row.completed);
    if (row.supply !== undefined) expect(sc.state.supply).toEqual(row.supply);
    // Followers are conserved: supply + on the board = 6 each (the seventh is the score marker).
    for (let p = 0; p < 2; p++) expect(sc.state.supply[p]! + sc.state.followers.filter((f) => f.player === p).length).toBe(6);
    row.check?.(sc);
  });
});
// ---------------------------------------------------------------------------------------------
// Placement (digest Turn 1)


const placementRows: readonly PlacementRow[] = [
  {
    // the-castle.cs.txt, "Pokládání hradních kartiček": "První hradní kartička ve hře musí být
    // položena jednou stranou ke startovnímu políčku na hradní zdi." A court anywhere else in the
    // area touches nothing; next to the C court (7,1), the T tower part (8,5), the H house part
    // (0,8), the V border (0,2) or the M market court (3,9) it is fine.
    name: 'placement: the first tile must share an edge with a start field; any other cell is refused (the-castle.cs.txt "První hradní kartička")',
    turns: [],
    tile: 'CC',
    tries: [
      [4, 4, 0, 'place/not-adjacent'],
      [6, 1, 0, 'place/not-adjacent'], // next to C's cell, not to C itself
      [7, 0, 0, 'place/not-adjacent'],
      [2, 5, 0, 'place/not-adjacent'],
      [7, 1, 0, null],
      [8, 5, 0, null],
      [0, 8, 0, null],
      [0, 2, 0, null],
      [3, 9, 0, null],
    ],
  },
  {
    // digest-castle.md, Turn 1: tiles go inside the wall. Cells outside the play area (the corner
    // 0,0, the notch 8,1, the virtual cell of the gate 4,-1, beyond the south wall 4,10) are refused.
    name: 'placement: a cell outside the wall is refused, including the cell a start field lies on (digest Turn 1)',
    turns: [],
    tile: 'CC',
    tries: [
      [0, 0, 0, 'place/off-board'],
      [8, 1, 0, 'place/off-board'],
      [4, -1, 0, 'place/off-board'],
      [4, 10, 0, 'place/off-board'],
      [-1, 5, 0, 'place/off-board'],
      [9, 5, 0, 'place/off-board'],
    ],
  },
  {
    // the-castle.cs.txt: "Cesty musí vždy navazovat, ostatní části (věže, domy a dvory) mohou být
    // pokládány libovolně vedle sebe." At the road gate G (4,0) the straight path S fits only with
    // its path facing the gate (turned 0 or 2); turned 1 or 3 it brings a court to the road. At R
    // (1,5) only turned 1 or 3.
    name: 'placement: a path must meet the road of a start field; a court against it is refused (the-castle.cs.txt "Cesty musí vždy navazovat")',
    turns: [],
    tile: 'S',
    tries: [
      [4, 0, 0, null],
      [4, 0, 1, 'place/edge-mismatch'],
      [4, 0, 2, null],
      [4, 0, 3, 'place/edge-mismatch'],
      [1, 5, 0, 'place/edge-mismatch'],
      [1, 5, 1, null],
      [7, 1, 0, null], // the path runs north-south between empty cells; a court faces C
      [7, 1, 1, 'place/edge-mismatch'], // a path against C's court
    ],
  },
  {
    // Same rule against a road of a placed tile, both ways: a court may not face S@0's path at
    // 4,1, and a path may not face the court of CC at 7,1.
    name: 'placement: a path must face a path and a non-path must not face a path, on placed tiles too (the-castle.cs.txt "Cesty musí vždy navazovat")',
    turns: [
      ['S', 4, 0, 0],
      ['CC', 7, 1, 0],
    ],
    tile: 'E',
    tries: [
      [4, 1, 0, null], // E's path north meets S's path
      [4, 1, 1, 'place/edge-mismatch'], // E's court north against S's path
      [3, 0, 1, 'place/edge-mismatch'], // E's path east against S's court
      [3, 0, 3, null], // path west: against the empty cell 2,0; court east against S's court
      [7, 0, 2, 'place/edge-mismatch'], // E's path south against CC's court
      [7, 0, 1, null], // path east against the plain wall (8,0 is outside): fine
      [7, 0, 0, null], // path north against the plain wall
    ],
  },
  {
    // the-castle.cs.txt: "ostatní části (věže, domy a dvory) mohou být pokládány libovolně vedle
    // sebe. Na hradní zed' může navazovat všechno." A tower against a house (H@3 at 7,1, house
    // west), against a court, against the wall: every turn of TH fits at 6,1 and at 7,0.
    name: 'placement: towers, houses and courts face each other and the wall freely (the-castle.cs.txt "ostatní části ... libovolně")',
    turns: [['H', 7, 1, 3]],
    tile: 'TH',
    tries: [
      [6, 1, 0, null],
      [6, 1, 1, null], // tower east against the house
      [6, 1, 2, null],
      [6, 1, 3, null],
      [7, 0, 0, null], // tower north against the wall
      [7, 0, 2, null], // tower south against H's court
    ],
  },
];

describe('castle placement', () => {
  const rules = castleRules();
  test.each(placementRows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    checkPlacements(rules, rigDraw(rules, run(new Castle(rules), row.turns).state, row.tile), row);
  });

  test('placement: the first tile can go only next to the start fields: the legal cells are exactly the cells touching one (the-castle.cs.txt "První hradní kartička")', () => {
    const sc = new Castle(rules);
    const state = rigDraw(rules, sc.state, 'CC');
    const cells = [...new Set(legalMoves(rules, state).map((m) => (m.type === 'place' ? `${m.x},${m.y}` : '')))].sort();
    // The gate and R demand a path: a plain court fits only the other five start fields.
    expect(cells).toEqual(['0,2', '0,8', '3,9', '7,1', '8,5']);
    const withPath = rigDraw(rules, sc.state, 'S');
    const pathCells = [...new Set(legalMoves(rules, withPath).map((m) => (m.type === 'place' ? `${m.x},${m.y}` : '')))].sort();
    expect(pathCells).toEqual(['0,2', '0,8', '1,5', '3,9', '4,0', '7,1', '8,5']);
  });

  test('placement: a drawn tile that fits nowhere leaves the game and the player draws another (the-castle.cs.txt "Pokud nemůže být hradní karta zahrána, jde ze hry pryč a hráč si vezme novou.")', () => {
    // Both road start fields are used up by dead ends (E@0 at 4,0, E@3 at 1,5), whose other
    // sides are courts. Every open cell now demands a non-path on some side, so the four-armed
    // square X4 (a path on every side) fits nowhere. The bag holds only X4 and one CC: X4 comes
    // first (seed chosen for it), is discarded, and black draws the CC.
    const sc = new Castle(rules, 2, 'discard-3');
    sc.place('E', 4, 0, 0);
    sc.state = rigDraw(rules, sc.state, 'E');
    sc.state.bag.fill(0);
    sc.state.bag[rules.tileIndex['X4']!] = 1;
    sc.state.bag[rules.tileIndex['CC']!] = 1;
    sc.state.bagSize = 2;
    sc.play({ type: 'place', player: 1, x: 1, y: 5, rotation: 3 });
    sc.play({ type: 'pass', player: 1 });
    const drawn = sc.events.filter((e) => e.type === 'tile-drawn' || e.type === 'tile-discarded').slice(-3);
    expect(drawn).toEqual([
      { type: 'tile-drawn', player: 0, tile: 'X4' },
      { type: 'tile-discarded', player: 0, tile: 'X4' },
      { type: 'tile-drawn', player: 0, tile: 'CC' },
    ]);
    expect(sc.state.step).toEqual({ kind: 'place-tile', player: 0, tile: 'CC' });
    expect(sc.state.discarded[rules.tileIndex['X4']!]).toBe(1);
    expect(sc.state.bag.reduce((a, b) => a + b, 0)).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Deployment (digest Turn 2)

describe('castle deployment', () => {
  test('deployment: not on a court extended from one that holds a merchant; the house of the same tile is free (the-castle.cs.txt "Na rozšířený dvůr nelze nasadit obchodníka")', () => {
    // the-castle.cs.txt, "Nasazování figurek": "Pokud je v rozšířené oblasti již nasazená figurka
    // z některého z předchozích tahů, nesmí se na toto území nasadit žádná další figurka" and the
    // example "Na rozšířený dvůr nelze nasadit obchodníka, jelikož se tam již jeden nachází.
    // Panoš může být nasazen." Black's merchant on M at 3,9; white's H@0 at 3,8 extends that
    // court (its courts E, S, W; the house north is new).
    const rules = castleRules();
    const sc = run(new Castle(rules), [['M', 3, 9, 0, 'c1']]);
    sc.state = rigDraw(rules, sc.state, 'H');
    sc.play({ type: 'place', player: 1, x: 3, y: 8, rotation: 0 });
    expect(sc.moves()).toEqual([
      { type: 'deploy', player: 1, feature: 'h1' },
      { type: 'pass', player: 1 },
    ]);
    expect(whyIllegal(rules, sc.state, { type: 'deploy', player: 1, feature: 'c1' })?.code).toBe('deploy/feature-occupied');
    expect(whyIllegal(rules, sc.state, { type: 'deploy', player: 1, feature: 'h1' })).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Hidden wall tokens

describe('castle wall tokens', () => {
  test('tokens: 13 of the 18 lie face down on the towers other than 0/1; observations show -1 for each, never the kind; a taken token is face up (the-castle.cs.txt "Příprava hry", "Získání žetonu")', () => {
    const rules = castleRules();
    const sc = new Castle(rules, 2, 'hidden');
    const wall = castleOf(sc.state).wall;
    expect(wall[towerOf(0)]).toBe(0);
    const lying = wall.filter((t) => t !== 0);
    expect(lying.length).toBe(13);
    // A sub-multiset of the 18 tokens (2 of each kind): no kind more than twice.
    for (let k = 1; k <= 9; k++) expect(lying.filter((t) => t === k).length).toBeLessThanOrEqual(2);
    expect([...WALL_TOKENS].sort()).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9]);
    const hidden = wall.map((t) => (t === 0 ? 0 : -1));
    for (const viewer of [0, 1, null]) expect(castleOf(observe(rules, sc.state, viewer)).wall).toEqual(hidden);

    // Black takes the token on 33 (rigged to a 7): it leaves the wall and is face up in black's hand.
    run(sc, [at([31, 0]), wall33(7), ['TH', 7, 1, 1, 't1']]);
    const view = castleOf(observe(rules, sc.state, 1));
    expect(view.wall[T33]).toBe(0);
    expect(view.wall.filter((t) => t === -1).length).toBe(12);
    expect(view.wall.every((t) => t === 0 || t === -1)).toBe(true);
    expect(view.held).toEqual([[{ token: 7, turn: 0 }], []]);
    // The state itself is untouched by observing it.
    expect(castleOf(sc.state).wall.filter((t) => t > 0).length).toBe(12);
  });

  test('tokens: the castle/score decision for token 2 names the feature and offers it with and without the token, to the placing player only (digest Tokens 2)', () => {
    const sc = run(new Castle(castleRules()), [holds(0, 2), ['TH', 7, 1, 0, 't1'], ['CC', 7, 2, 0], ['TH', 7, 0, 2]]);
    expect(sc.state.step).toEqual({ kind: 'castle/score', player: 0 });
    expect(sc.moves()).toEqual([
      { type: 'castle/score', player: 0, x: 7, y: 1, feature: 't1', token: 0 },
      { type: 'castle/score', player: 0, x: 7, y: 1, feature: 't1', token: 2 },
    ]);
    // A token 3 for a tower, or white deciding, is refused.
    expect(whyIllegal(sc.rules, sc.state, { type: 'castle/score', player: 0, x: 7, y: 1, feature: 't1', token: 3 })?.code).toBe('move/not-offered');
    expect(whyIllegal(sc.rules, sc.state, { type: 'castle/score', player: 1, x: 7, y: 1, feature: 't1', token: 0 })?.code).toBe('move/not-your-turn');
  });
});

// ---------------------------------------------------------------------------------------------
// The end position of the rulebook's keep example

/** A tile set of houses and plain courts only, to fill the board for the end position. */
const END_TILES: CastleTileSetData = {
  provenance: 'test',
  tiles: [
    { id: 'EH', count: 3, spec: 'h:N c:E,S,W' },
    { id: 'EC', count: 57, spec: 'c:N,E,S,W' },
  ],
};

describe('castle end position', () => {
  test('rulebook example: 60 tiles placed leave 16 empty cells; the largest group has 11 cells: the larger keep scores 11 (the-castle.cs.txt "Bodování největšího paláce")', () => {
    // the-castle.cs.txt: "Uvnitř hradní zdi zůstane na konci celkem 16 prázdných polí. Zjistí se
    // největší souvislá plocha těchto prázdných polí ... Největší souvislá plocha v tomto příkladě
    // má 11 polí. Hráč s větším palácem získá 11 bodů."
    // Empty at the end: the 11 cells 2..7,0 and 2..6,1 (with the road gate at 4,0) and the 5 cells
    // 1,4 1,5 1,6 2,4 2,5 (with the road start field R at 1,5); the two groups do not touch.
    // Every other cell gets a tile: plain courts from the market start field (3,9) outwards, then
    // black's squire on EH@2 at 4,4 (house south, open), white's 1-tile house EH@0 at 6,6
    // (closed by the court above it: white 1, keep 1), black's EH@0 at 4,5 closing black's house
    // (2 tiles: black 2, keep 2), and a last court at 8,3.
    const rules = castleRules({}, END_TILES);
    const empty = new Set(['2,0', '3,0', '4,0', '5,0', '6,0', '7,0', '2,1', '3,1', '4,1', '5,1', '6,1', '1,4', '1,5', '1,6', '2,4', '2,5']);
    const special = new Set(['4,4', '4,5', '6,6', '8,3']);
    const area = TEST_LAYOUT.area;
    const fill: string[] = [];
    for (let y = 0; y < area.length; y++) for (let x = 0; x < area[y]!.length; x++) if (area[y]![x] === '#' && !empty.has(`${x},${y}`)) fill.push(`${x},${y}`);
    expect(fill.length).toBe(60);
    // Courts in breadth-first order from 3,9, so that each touches one placed before.
    const courts = fill.filter((c) => !special.has(c));
    const order: string[] = ['3,9'];
    for (let i = 0; i < order.length; i++) {
      const [x, y] = order[i]!.split(',').map(Number) as [number, number];
      for (const [dx, dy] of [[0, -1], [1, 0], [0, 1], [-1, 0]] as const) {
        const n = `${x + dx},${y + dy}`;
        if (courts.includes(n) && !order.includes(n)) order.push(n);
      }
    }
    expect(order.length).toBe(56);
    const sc = new Castle(rules);
    for (const c of order) {
      const [x, y] = c.split(',').map(Number) as [number, number];
      sc.place('EC', x, y, 0);
    }
    run(sc, [
      ['EH', 4, 4, 2, 'h1'],
      ['EH', 6, 6, 0, 'h1'],
      ['EH', 4, 5, 0],
      { last: ['EC', 8, 3, 0] },
    ]);
    expect(sc.state.tiles.filter((t) => t.player >= 0).length).toBe(60);
    expect(scoredOf(sc.events)).toEqual([
      [1, 1, 'house', 'completed'],
      [0, 2, 'house', 'completed'],
      [0, 11, 'house', 'castle/keep'],
    ]);
    expect(sc.state.scores).toEqual([13, 1]);
    expect(castleLog(sc.events)).toEqual(['keep-placed 1:1', 'keep-placed 0:2', 'wall-cleared 13']);
    expect(sc.state.step).toEqual({ kind: 'game-over', winners: [0] });
  });
});

// ---------------------------------------------------------------------------------------------
// The wall tokens for search (meeplekit/ai): explicit chance and determinization

describe('wall tokens as explicit chance and in determinization (meeplekit/ai)', () => {
  const rules = castleRules();
  const KINDS = [1, 2, 3, 4, 5, 6, 7, 8, 9];

  /** The rulebook's token example (black on 31, a tower worth 2 ends on 33) up to the placement, as a research simulator. */
  function tokenExample(extra: readonly Action[] = []): ResearchSimulator {
    const sc = run(new Castle(rules), [at([31, 0]), wall33(5), ...extra]);
    const sim = createResearchSimulator(rules, rigDraw(rules, sc.state, 'TH'));
    sim.applyAction(moveToAction(rules, sim.state, { type: 'place', player: 0, x: 7, y: 1, rotation: 1 }));
    sim.applyAction(moveToAction(rules, sim.state, { type: 'deploy', player: 0, feature: 't1' }));
    return sim;
  }

  test('explicit chance conceals every face-down token: the seed no longer decides them (digest, Material: "Neither player knows a token until it is taken")', () => {
    const sim = createResearchSimulator(rules, new Castle(rules).state);
    const wall = castleOf(sim.state).wall;
    expect(wall.filter((t) => t === -1).length).toBe(13);
    expect(wall.filter((t) => t > 0).length).toBe(0);
  });

  test('the rulebook token example ("Získání žetonu") with the token concealed: ending on 33 is a chance node; each kind 2 of 18', () => {
    const sim = tokenExample();
    expect(sim.state.scores).toEqual([33, 0]);
    expect(sim.state.step).toEqual({ kind: 'castle/token', player: CHANCE_PLAYER });
    expect(sim.currentPlayer()).toBe(CHANCE_PLAYER);
    expect(sim.chanceOutcomes()).toEqual(KINDS.map((k) => ({ outcome: k, label: `token ${k}`, probability: 2 / 18 })));
    expect([...sim.legalActions()]).toEqual(KINDS);
    expect(sim.actionToString(5)).toBe('token 5');
    expect(() => sim.applyAction(0)).toThrow(RangeError);
    sim.applyAction(5);
    const c = castleOf(sim.state);
    expect(c.held).toEqual([[{ token: 5, turn: 0 }], []]);
    expect(c.taken).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0]);
    expect(c.wall[T33]).toBe(0);
    // The turn went on: the next tile is drawn at a chance node of its own.
    expect(sim.state.step.kind).toBe('chance/draw');
  });

  test('a concealed token is one of those nobody has seen: kinds taken face up before are less likely, used-up kinds impossible', () => {
    // Both 5s and one 9 were taken earlier (one 5 already used): 15 tokens unseen.
    const sim = tokenExample([holds(1, 9), { rig: (_s: GameState, c: CastleSlice) => void (c.taken = [0, 0, 0, 0, 2, 0, 0, 0, 1]) }]);
    const outcomes = sim.chanceOutcomes();
    expect(outcomes.map((o) => o.outcome)).toEqual([1, 2, 3, 4, 6, 7, 8, 9]);
    for (const o of outcomes) expect(o.probability).toBeCloseTo((o.outcome === 9 ? 1 : 2) / 15, 15);
    expect(() => sim.applyAction(5)).toThrow(RangeError);
  });

  test('a token taken with the last tile is revealed before the final scoring uses it: token 9 is worth 5 (digest, Tokens 9)', () => {
    const sc = run(new Castle(rules), [at([31, 0]), wall33(5)]);
    const s = rigDraw(rules, sc.state, 'TH');
    s.bag.fill(0);
    s.bagSize = 0;
    const sim = createResearchSimulator(rules, s);
    sim.applyAction(moveToAction(rules, sim.state, { type: 'place', player: 0, x: 7, y: 1, rotation: 1 }));
    sim.applyAction(moveToAction(rules, sim.state, { type: 'deploy', player: 0, feature: 't1' }));
    expect(sim.state.step.kind).toBe('castle/token');
    sim.applyAction(9);
    expect(sim.isTerminal()).toBe(true);
    // 33, plus 5 for token 9; nobody has a keep or a court.
    expect(sim.state.scores).toEqual([38, 0]);
  });

  test('forcing the real token at the chance node gives the app game\'s state (the wall aside, which stays concealed)', () => {
    const sc = run(new Castle(rules), [at([31, 0]), wall33(5), ['TH', 7, 1, 1, 't1']]);
    const sim = tokenExample();
    sim.applyAction(5);
    // The app drew the next tile with the seed; draw the same one.
    sim.applyAction(rules.tileIndex[(sc.state.step as { tile: string }).tile]!);
    const { rng: _a, ...app } = sc.state;
    const { rng: _b, ...research } = sim.state;
    const appWall = castleOf(sc.state).wall.map((t) => (t > 0 ? -1 : t));
    expect(research).toEqual({ ...app, ext: { ...app.ext, castle: { ...castleOf(sc.state), wall: appWall } } });
  });

  test('the app\'s seeded wall and sampled reveals both follow the chance outcomes: the token under 33/34 (chi-square over 1,800 fixed seeds each)', () => {
    const node = tokenExample();
    const probs = node.chanceOutcomes();
    const n = 1800;
    const statistic = (counts: number[]): number => probs.reduce((t, o) => t + (counts[o.outcome - 1]! - n * o.probability) ** 2 / (n * o.probability), 0);
    // The app API: a new game's seed lays the token that the example takes.
    const app = new Array<number>(9).fill(0);
    for (let i = 0; i < n; i++) app[castleOf(must(newGame(rules, { players: 2, seed: `wall-${i}` }))).wall[T33]! - 1]!++;
    // The research API: the chance node sampled.
    const sampled = new Array<number>(9).fill(0);
    const random = createRandomSource('reveal');
    for (let i = 0; i < n; i++) {
      const sim = node.clone();
      sim.applyRandom(random);
      sampled[castleOf(sim.state).held[0]![0]!.token - 1]!++;
    }
    // 8 degrees of freedom: 26.1 is the 0.1% quantile.
    expect(statistic(app)).toBeLessThan(26.1);
    expect(statistic(sampled)).toBeLessThan(26.1);
  });

  test('determinize redraws the face-down tokens from those nobody has seen, the same for the same seed, whatever the real ones were', () => {
    const sc = run(new Castle(rules), [holds(0, 3), { rig: (_s: GameState, c: CastleSlice) => void (c.taken = [0, 0, 2, 0, 0, 0, 0, 0, 0]) }]);
    const real = sc.state;
    const other = cloneState(real);
    castleOf(other).wall = castleOf(real).wall.map((t) => (t > 0 ? 1 + (t % 9) : t));
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const d = determinize(rules, real, 1, `d${i}`);
      expect(serializeState(determinize(rules, other, 1, `d${i}`))).toBe(serializeState(d));
      expect(serializeState(determinize(rules, observe(rules, real, 1), 1, `d${i}`))).toBe(serializeState(d));
      const wall = castleOf(d).wall;
      // Every face-down tower gets a token, never a 3 (both are taken), at most 2 of any kind.
      expect(wall.map((t) => t !== 0)).toEqual(castleOf(real).wall.map((t) => t !== 0));
      expect(wall.includes(3)).toBe(false);
      for (const k of KINDS) expect(wall.filter((t) => t === k).length).toBeLessThanOrEqual(2);
      // All that is public stays as it was.
      const { seed: _s, rng: _r, ext: e1, ...pub } = d;
      const { seed: _s2, rng: _r2, ext: e2, ...pub2 } = real;
      expect(pub).toEqual(pub2);
      expect({ ...castleOf(d), wall: [] }).toEqual({ ...castleOf(real), wall: [] });
      seen.add(wall.join(','));
      // A full state: the simulator plays it to the end.
      expect(createResearchSimulator(rules, d, { chance: 'seeded' }).playout(createRandomSource(`p${i}`)).length).toBe(2);
    }
    expect(seen.size).toBeGreaterThan(30);
  });

  test('determinize draws each face-down token uniformly among the unseen ones (chi-square over 1,800 seeds, fixed)', () => {
    const start = new Castle(rules).state;
    const first = castleOf(start).wall.findIndex((t) => t !== 0);
    const counts = new Array<number>(9).fill(0);
    const n = 1800;
    for (let i = 0; i < n; i++) counts[castleOf(determinize(rules, start, 0, `u${i}`)).wall[first]! - 1]!++;
    const chi = counts.reduce((t, c) => t + (c - n / 9) ** 2 / (n / 9), 0);
    // 8 degrees of freedom: 26.1 is the 0.1% quantile.
    expect(chi).toBeLessThan(26.1);
  });
});

describe('research playouts of The Castle with concealed tokens', () => {
  test('from every 3rd state of 30 seeded research games (token chance nodes included), playouts finish with the tokens all decided', () => {
    const rules = must(createRuleset({ game: castle() }));
    let tokenNodes = 0;
    for (let g = 0; g < 30; g++) {
      const sim = createResearchSimulator(rules, must(newGame(rules, { players: 2, seed: `ro-${g}` })));
      const random = createRandomSource(`ro-${g}`);
      for (let i = 0; !sim.isTerminal(); i++) {
        if (sim.state.step.kind === 'castle/token') tokenNodes++;
        if (i % 3 === 0 || sim.state.step.kind === 'castle/token') {
          const copy = sim.clone();
          const scores = copy.playout(createRandomSource(`ro-${g}-${i}`));
          expect(copy.isTerminal()).toBe(true);
          expect(scores).toEqual(copy.state.scores);
          const c = castleOf(copy.state);
          for (const list of c.held) for (const h of list) expect(h.token).toBeGreaterThan(0);
          expect(c.taken.every((n) => n >= 0 && n <= 2)).toBe(true);
        }
        sim.applyRandom(random);
      }
    }
    expect(tokenNodes).toBeGreaterThan(10);
  });
});


describe('determinization at a token chance node', () => {
  test('the token just taken stays to be revealed at the node, whose outcomes are what the redrawn wall leaves unseen', () => {
    const rules = must(createRuleset({ game: castle() }));
    // A research game until its first token chance node.
    for (let g = 0; g < 40; g++) {
      const sim = createResearchSimulator(rules, must(newGame(rules, { players: 2, seed: `dt-${g}` })));
      const random = createRandomSource(`dt-${g}`);
      while (!sim.isTerminal() && sim.state.step.kind !== 'castle/token') sim.applyRandom(random);
      if (sim.isTerminal()) continue;
      const d = determinize(rules, sim.state, 0, `d-${g}`);
      expect(d.step.kind).toBe('castle/token');
      const c = castleOf(d);
      expect(c.wall.every((t) => t >= 0)).toBe(true);
      expect(c.held.flat().filter((h) => h.token < 0).length).toBe(1);
      const left = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => 2 - c.taken[k - 1]! - c.wall.filter((t) => t === k).length);
      const seeded = createResearchSimulator(rules, d, { chance: 'seeded' });
      expect(seeded.chanceOutcomes().map((o) => [o.outcome, o.probability])).toEqual(
        left.flatMap((n, i) => (n > 0 ? [[i + 1, n / left.reduce((a, b) => a + b, 0)]] : [])),
      );
      seeded.playout(createRandomSource(`p-${g}`));
      expect(seeded.isTerminal()).toBe(true);
      return;
    }
    throw new Error('no research game reached a token chance node');
  });
});
