/**
 * The Count of Carcassonne: the City of Carcassonne (12 squares, four quarters: castle, market,
 * blacksmith, cathedral) replaces the start tile, with the Count standing in the castle.
 * Rules: the Czech "Count, King and Robber" rules, "Hrabě z Carcassonne" (the 2nd edition, the
 * authority), with the older Czech rules sheet "Hrabě z Carcassonne" as an edition option;
 * the expansions digest, "Count of Carcassonne" and "Order of steps in one turn"; the City's data:
 * the classic tile reference, "E. The Count of Carcassonne". docs/expansions/count.md maps each rule to its
 * code and test.
 *
 * - **The City**: 12 start tiles CO1..CO12 at x 0..3, y 0..2, unturned. Tiles laid against its
 *   rim match as usual. Its inside is one feature of kind `carcassonne` (complete from the start,
 *   never touched, no follower): the three rim fields touch it, so a farm touching the City
 *   counts it as one completed city, and the King counts it as one completed city.
 * - **Into the city** (after the turn's scoring): when at least one opponent scored points this
 *   turn and the player who placed the tile scored none (a lost shrine challenge scores nothing),
 *   that player may put one follower from supply into any quarter (`count/enter`, even the
 *   Count's), and then may move the Count (`count/move-count`); at most once per turn.
 * - **Out of the city** (before each completed city, road, cloister or shrine is scored): each
 *   player in turn from the active player's left, the active player last, may move any number of
 *   their followers from the matching quarter (castle: city, blacksmith: road, cathedral:
 *   cloister or shrine) onto it (`count/move-out`), never from the quarter where the Count
 *   stands; then the feature is scored and all its followers return. Each completed feature has
 *   its own round.
 * - **End of game** (edition 2): from the left of the player who placed the last tile, players in
 *   turn move one follower at a time from the market onto any field (`count/to-field`) until
 *   every follower has left the market, unless the Count stands on the market; then the
 *   final scoring. Followers left in the other quarters score nothing. Edition 1 (the older
 *   sheet): in turn, one at a time, every follower in a quarter not blocked by the Count must move
 *   onto a matching unfinished feature or a field (`count/to-feature`) while one can.
 *
 * Options: `edition` 2 (default) or 1; `countMoves` `'free'` (default: any quarter, or stay),
 * `'clockwise'` (the Count moves on one quarter clockwise whenever a follower enters) or
 * `'entered'` (the Count moves to the quarter just entered), the two official variants.
 *
 * Steps (each with its decider in `player`): `count/enter`, `count/move-count`,
 * `count/move-out` `{ quarter, feature }`, `count/to-field` and `count/to-feature`.
 * Moves: `count/enter` `{ quarter }`, `count/move-count` `{ quarter }`, `count/move-out`
 * `{ count }` (0 declines), `count/to-field` and `count/to-feature` `{ x, y, feature }` (the
 * feature named by its root segment, as `legalMoves` lists it), `count/decline`.
 *
 * Events: `count/entered` `{ player, quarter }`; `count/count-moved` `{ player, from, to }`;
 * `count/moved-out` `{ player, quarter, count, feature }`; `count/to-field` `{ player, feature }`;
 * `count/to-feature` `{ player, quarter, feature }`; `count/declined` `{ player, step }` (and
 * `quarter`, `feature` for a move-out of 0), when a player lets a decision pass. Error codes (`moveError`):
 * `count/quarter-blocked`, `count/no-followers`, `count/unknown-quarter`, `count/count-there`,
 * `count/feature-name`, `count/not-a-target`.
 *
 * With the River, the City is the start and the River's spring is laid beside it at set-up (the
 * Count of Carcassonne rules, "Zvláštnosti při hraní hraběte v kombinaci s ostatními
 * rozšířeními", 4: "Po rozložení města se pramen umístí tak, že řeka pramení vedle města
 * Carcassonne"; the River gives way, `startYields`). The rules advise against the combination
 * (river tiles may find no place beside the City, and are then discarded) but allow it. Hook
 * order 70: after Shrines (40), so that a lost challenge has been settled before "scored nothing"
 * is judged; before the Princess and the Dragon (80), whose fairy gives her 3 points when a
 * feature is scored, so after the move-out round ("ještě před přidělením bodů ... Teprve poté se
 * provede vyhodnocení uzavřeného území"), to the followers it put on her tile too. A follower
 * moved out stands on the feature's root segment (`addFollower`): the rules name no tile.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { count } from 'meeplekit/expansions/count';
 *
 * const rules = createRuleset({ game: 'classic', expansions: [count({ countMoves: 'clockwise' })] });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 3, seed: 'count' });
 * if (!game.ok) throw new Error(game.error.message);
 * console.log(rules.value.id, game.value.tiles.length, game.value.ext['count']);
 * // classic+count{"countMoves":"clockwise"}#<digest> 12 { quarters: {...}, count: 'castle', scoresBefore: [0, 0, 0], movedOut: false }
 * ```
 *
 * @module meeplekit/expansions/count
 */import { type Expansion, type HookContext } from '../../core/expansion.js';
import { emitExpansionEvent } from '../../core/module-helpers.js';
import { showValue, type ExpansionError } from '../../core/errors.js';
import { addFollower, featureRef } from '../../core/engine/scoring.js';
import type { StartTile } from '../../core/game.js';
import type { Ruleset } from '../../core/ruleset.js';
import type { ExpansionMove, GameView, Move } from '../../core/state.js';
import { parseTileSpec } from '../../core/tiles.js';
import type { Immutable } from '../../core/types.js';
import { CARCASSONNE_KIND, CITY_SQUARES, COUNT_TILE_KINDS, QUARTERS, type Quarter } from './tiles.js';
import { countActions } from './actions.js';
import { optionsProblem } from './options.js';
import { decider, heldBy, lastPlacer, nameOf, nextMover, quarterFor, rootNamed, roundIndex, sliceOfState } from './rounds.js';
import { COUNT, type CountEdition, type CountMove, type CountMoves, type CountOptions, type CountState, type CountStep } from './state.js';

export { CARCASSONNE_KIND, CITY_SQUARES, COUNT_TILE_KINDS, QUARTERS, type CitySquare, type Quarter } from './tiles.js';
export { COUNT, type CountEdition, type CountMoves, type CountOptions, type CountState, type CountStep, type CountMove } from './state.js';

/**
 * The Count of Carcassonne expansion module. `count()` plays the 2nd-edition rules with the Count
 * moving freely; `count({ edition: 1 })` the older sheet's end of the game; `count({ countMoves })`
 * one of the official variants of the Count's movement. Invalid options make `createRuleset` fail
 * with `options/expansion-options`. Combined with the River, the River's spring is laid beside the
 * City at set-up (see the module's documentation).
 */
export function count(options?: CountOptions): Expansion<CountMove> {
  const problem = optionsProblem(options);
  const edition: CountEdition = problem === null ? (options?.edition ?? 2) : 2;
  const countMoves: CountMoves = problem === null ? (options?.countMoves ?? 'free') : 'free';
  // Defaults are left out, so count() and count({ edition: 2 }) are the same ruleset.
  const chosen: Record<string, unknown> = {};
  if (problem !== null) Object.assign(chosen, options as Record<string, unknown>);
  else {
    if (edition !== 2) chosen['edition'] = edition;
    if (countMoves !== 'free') chosen['countMoves'] = countMoves;
  }

  /** Whether segment `i` is a root and a target of the end of the game for `player` (`slice`: the state's). */
  function isEndTarget(rules: Ruleset, state: Immutable<GameView>, slice: Immutable<CountState>, i: number, player: number): boolean {
    const g = state.features;
    if (g.parent[i] !== i) return false;
    const scoring = rules.kindScoring[g.kind[i]!];
    const q = quarterFor(scoring);
    if (q === null || q === slice.count || slice.quarters[q][player]! === 0) return false;
    if (edition === 2 && q !== 'market') return false;
    // Edition 1: unfinished features only (fields never finish).
    if (q !== 'market' && g.open[i] === 0) return false;
    return true;
  }

  /** Every root segment that is a target of the end of the game for `player`, ascending. */
  function endTargets(rules: Ruleset, state: Immutable<GameView>, player: number): number[] {
    const slice = sliceOfState(state);
    const out: number[] = [];
    for (let i = 0; i < state.features.parent.length; i++) if (isEndTarget(rules, state, slice, i, player)) out.push(i);
    return out;
  }

  /**
   * Whether `player` has a target at the end of the game (`endTargets(...).length > 0`, without
   * listing them): asked for each player in turn before every move of the end of the game.
   */
  function hasEndTarget(rules: Ruleset, state: Immutable<GameView>, player: number): boolean {
    const slice = sliceOfState(state);
    // Every target is a feature of a quarter the player holds followers in (not the Count's;
    // edition 2: the market only): holding none, the player has none, whatever the board.
    let holds = false;
    for (const q of QUARTERS) if (q !== slice.count && (edition !== 2 || q === 'market') && slice.quarters[q][player]! !== 0) holds = true;
    if (!holds) return false;
    for (let i = 0; i < state.features.parent.length; i++) if (isEndTarget(rules, state, slice, i, player)) return true;
    return false;
  }

  /** The next player of the end of the game after `after` who can move, or -1. */
  function nextAtEnd(rules: Ruleset, state: Immutable<GameView>, after: number): number {
    const n = state.players;
    for (let i = 1; i <= n; i++) {
      const p = (after + i) % n;
      if (hasEndTarget(rules, state, p)) return p;
    }
    return -1;
  }

  /**
   * Sets the step for the next move of the end of the game after `after`; 'done' when none is
   * left. Both editions: the round goes on until nobody can move ("Tak se pokračuje tak dlouho,
   * dokud nejsou přemístěni všichni družiníci z tržiště"): moving is not optional.
   */
  function askAtEnd(ctx: HookContext, after: number): 'wait' | 'done' {
    const next = nextAtEnd(ctx.rules, ctx.state, after);
    if (next < 0) return 'done';
    ctx.state.step = edition === 2 ? { kind: 'count/to-field', player: next } : { kind: 'count/to-feature', player: next };
    return 'wait';
  }

  /**
   * The scores before the turn's scoring: "Vždy, když ve svém tahu způsobíte přidělování bodů (ve
   * fázi 3. Započítání bodů) ..." counts only the points of the scoring phase; points from actions
   * unrelated to the tile, such as a Tower ransom, never count (note 3 of the 2nd-edition rules:
   * "nelze umístit za body z úkonů které nesouvisejí s kartičkou krajiny - např. ... zaplacení
   * výkupného"), and The Tower offers no ransom while the scoring is under way.
   */
  function afterAction(ctx: HookContext): void {
    // Copied into the slice's own array (the state is the hook's private copy): one allocation
    // fewer every turn.
    const slice = sliceOfState(ctx.state);
    const before = slice.scoresBefore;
    const scores = ctx.state.scores;
    for (let p = 0; p < scores.length; p++) before[p] = scores[p]!;
    slice.movedOut = false;
  }

  function beforeScoring(ctx: HookContext, root: number): 'wait' | void {
    const { rules, state } = ctx;
    const quarter = quarterFor(rules.kindScoring[state.features.kind[root]!]);
    if (quarter === null || quarter === 'market') return;
    const slice = sliceOfState(state);
    // "Ze čtvrti, kde se nachází figurka hraběte, není dovoleno přemísťovat žádné družiníky."
    if (slice.count === quarter) return;
    const first = nextMover(state, slice, quarter, -1);
    if (first < 0) return;
    state.step = { kind: 'count/move-out', player: first, quarter, feature: featureRef(rules, state, root) };
    return 'wait';
  }

  function afterScoring(ctx: HookContext): 'wait' | void {
    const s = ctx.state;
    const p = s.active;
    if (s.supply[p]! <= 0) return;
    const slice = sliceOfState(s);
    // Note 8: a player who used a follower from the City this turn profited from the scoring.
    if (slice.movedOut) return;
    const before = slice.scoresBefore;
    // "některý ze soupeřů alespoň jeden bod získá, zatímco vy nezískáte žádný"
    if (s.scores[p]! > before[p]!) return;
    let opponent = false;
    for (let q = 0; q < s.players; q++) if (q !== p && s.scores[q]! > before[q]!) opponent = true;
    if (!opponent) return;
    s.step = { kind: 'count/enter', player: p };
    return 'wait';
  }

  function beforeFinalScoring(ctx: HookContext): 'wait' | void {
    // Edition 2: not while the Count stands on the market (then nothing moves at all).
    if (edition === 2 && sliceOfState(ctx.state).count === 'market') return;
    return askAtEnd(ctx, lastPlacer(ctx.state)) === 'wait' ? 'wait' : undefined;
  }

  function stepMoves(rules: Ruleset, state: Immutable<GameView>): Move[] {
    const step = state.step as Immutable<CountStep> | { kind: string; player: number };
    const player = step.player;
    const slice = sliceOfState(state);
    const decline: Move = { type: 'count/decline', player };
    switch (step.kind) {
      case 'count/enter':
        return [...QUARTERS.map((quarter): Move => ({ type: 'count/enter', player, quarter })), decline];
      case 'count/move-count':
        return [...QUARTERS.filter((q) => q !== slice.count).map((quarter): Move => ({ type: 'count/move-count', player, quarter })), decline];
      case 'count/move-out': {
        const held = slice.quarters[(step as { quarter: Quarter }).quarter][player]!;
        const out: Move[] = [];
        for (let k = 0; k <= held; k++) out.push({ type: 'count/move-out', player, count: k });
        return out;
      }
      case 'count/to-field':
      case 'count/to-feature': {
        const type = step.kind;
        return endTargets(rules, state, player).map((root): Move => ({ type, player, ...nameOf(rules, state, root) }));
      }
      default:
        return [];
    }
  }

  function play(ctx: HookContext, move: ExpansionMove): 'wait' | 'done' {
    const { rules, state, emit } = ctx;
    const slice = sliceOfState(state);
    const m = move as CountMove;
    const p = m.player;
    switch (m.type) {
      case 'count/enter': {
        state.supply[p]!--;
        slice.quarters[m.quarter][p]!++;
        emitExpansionEvent(emit, 'count/entered', { player: p, quarter: m.quarter });
        const from = slice.count;
        if (countMoves === 'free') {
          // "Kromě toho, pokud jste provedli umístění, smíte navíc přemístit figurku hraběte."
          state.step = { kind: 'count/move-count', player: p };
          return 'wait';
        }
        const to = countMoves === 'clockwise' ? QUARTERS[(QUARTERS.indexOf(from) + 1) % QUARTERS.length]! : m.quarter;
        if (to !== from) {
          slice.count = to;
          emitExpansionEvent(emit, 'count/count-moved', { player: p, from, to });
        }
        return 'done';
      }
      case 'count/move-count': {
        const from = slice.count;
        slice.count = m.quarter;
        emitExpansionEvent(emit, 'count/count-moved', { player: p, from, to: m.quarter });
        return 'done';
      }
      case 'count/move-out': {
        const step = state.step as Extract<CountStep, { kind: 'count/move-out' }>;
        if (m.count > 0) {
          const root = state.flow!.roots[0]!;
          slice.quarters[step.quarter][p]! -= m.count;
          for (let i = 0; i < m.count; i++) addFollower(state, p, root);
          if (p === state.active) slice.movedOut = true;
          emitExpansionEvent(emit, 'count/moved-out', { player: p, quarter: step.quarter, count: m.count, feature: step.feature });
        } else emitExpansionEvent(emit, 'count/declined', { player: p, step: step.kind, quarter: step.quarter, feature: step.feature });
        const next = nextMover(state, slice, step.quarter, roundIndex(state, p));
        if (next < 0) return 'done';
        state.step = { kind: 'count/move-out', player: next, quarter: step.quarter, feature: step.feature };
        return 'wait';
      }
      case 'count/to-field':
      case 'count/to-feature': {
        const root = rootNamed(rules, state, m);
        const quarter = quarterFor(rules.kindScoring[state.features.kind[root]!])!;
        slice.quarters[quarter][p]!--;
        addFollower(state, p, root);
        const feature = featureRef(rules, state, root);
        if (m.type === 'count/to-field') emitExpansionEvent(emit, 'count/to-field', { player: p, feature });
        else emitExpansionEvent(emit, 'count/to-feature', { player: p, quarter, feature });
        return askAtEnd(ctx, p);
      }
      case 'count/decline':
        // Declining to enter the city, or to move the Count (which then stays where it is).
        emitExpansionEvent(emit, 'count/declined', { player: p, step: state.step.kind });
        return 'done';
    }
  }

  function moveError(rules: Ruleset, state: Immutable<GameView>, move: Readonly<Record<string, unknown>>): ExpansionError | null {
    const step = state.step;
    const slice = sliceOfState(state);
    const player = decider(state);
    // A player who is not deciding gets the core's move/not-your-turn.
    if (move['player'] !== player) return null;
    switch (move['type']) {
      case 'count/enter':
      case 'count/move-count': {
        const q = move['quarter'];
        if (!(QUARTERS as readonly unknown[]).includes(q)) {
          return { code: 'count/unknown-quarter', message: `there is no quarter ${showValue(q)} (quarters: ${QUARTERS.join(', ')})` };
        }
        if (move['type'] === 'count/move-count' && step.kind === 'count/move-count' && q === slice.count) {
          return { code: 'count/count-there', message: `the Count already stands in the ${String(q)}: decline to leave it there` };
        }
        return null;
      }
      case 'count/move-out': {
        const k = move['count'];
        if (step.kind !== 'count/move-out' || !Number.isInteger(k) || (k as number) < 0) return null;
        const quarter = (step as Immutable<Extract<CountStep, { kind: 'count/move-out' }>>).quarter;
        const held = slice.quarters[quarter][player]!;
        if ((k as number) > held) {
          return { code: 'count/no-followers', message: `player ${player} has ${held} follower(s) in the ${quarter}, not ${String(k)}` };
        }
        return null;
      }
      case 'count/to-field':
      case 'count/to-feature': {
        if (step.kind !== 'count/to-field' && step.kind !== 'count/to-feature') return null;
        if (move['type'] !== step.kind) return null;
        const root = rootNamed(rules, state, move);
        if (root < 0) return { code: 'count/not-a-target', message: 'the move names no feature on the board (x, y and a local feature id such as "f1")' };
        const scoring = rules.kindScoring[state.features.kind[root]!];
        const quarter = quarterFor(scoring);
        const kind = rules.kindNames[state.features.kind[root]!]!;
        if (quarter === null || (edition === 2 && quarter !== 'market')) {
          return { code: 'count/not-a-target', message: `no follower of the City may go onto a ${kind} now` };
        }
        if (quarter === slice.count) {
          return { code: 'count/quarter-blocked', message: `the Count stands in the ${quarter}: its followers may not leave it` };
        }
        if (slice.quarters[quarter][player]! === 0) {
          return { code: 'count/no-followers', message: `player ${player} has no follower in the ${quarter}` };
        }
        if (quarter !== 'market' && state.features.open[root] === 0) {
          return { code: 'count/not-a-target', message: `the ${kind} is complete: only unfinished features and fields take followers now` };
        }
        const name = nameOf(rules, state, root);
        if (name.x !== move['x'] || name.y !== move['y'] || name.feature !== move['feature']) {
          return {
            code: 'count/feature-name',
            message: `name the ${kind} by its root segment: x ${name.x}, y ${name.y}, feature '${name.feature}' (as legalMoves lists it)`,
          };
        }
        return null;
      }
      default:
        return null;
    }
  }

  return {
    id: COUNT,
    order: 70,
    options: chosen,
    kinds: [CARCASSONNE_KIND],
    tiles: CITY_SQUARES.map(([id, , , spec]) => parseTileSpec(id, 1, spec, COUNT_TILE_KINDS)),
    start: CITY_SQUARES.map(([tile, x, y]): StartTile => ({ tile, x, y, rotation: 0 })),
    // "Při hře s kterýmkoli z obou větších nových rozšíření nebude zapotřebí startovní kartička ze
    // základní hry – můžete ji nechat v krabici."
    baseStart: 'box',
    validate: () => problem,
    setup: (_rules, players): CountState => {
      const zeros = (): number[] => new Array<number>(players).fill(0);
      return { quarters: { castle: zeros(), market: zeros(), blacksmith: zeros(), cathedral: zeros() }, count: 'castle', scoresBefore: zeros(), movedOut: false };
    },
    afterAction,
    beforeScoring,
    afterScoring,
    beforeFinalScoring,
    stepMoves,
    play,
    moveError,
    followersHeld: (state) => {
      const slice = sliceOfState(state);
      return Array.from({ length: state.players }, (_, p) => heldBy(slice, p));
    },
    // The score bounds of meeplekit/ai: the Count awards no points of its own. Its followers
    // entering a completed feature, a field or an unfinished feature are scored by the base game,
    // still once per feature and player (the base game's share bounds all features together);
    // the City of Carcassonne counts as a completed city for the fields through its rim fields'
    // adjacencies (`>k1`), which the base game's share counts, and for the King through
    // King and Robber Baron's share.
    scoreBounds: () => ({ min: 0, max: 0 }),
    actions: countActions(stepMoves),
    observation: {
      features(players) {
        const out: string[] = [];
        for (const q of QUARTERS) for (let j = 0; j < players; j++) out.push(`count: followers of ${j === 0 ? 'observer' : `observer+${j}`} in the ${q}`);
        for (const q of QUARTERS) out.push(`count: the Count in the ${q}`);
        return out;
      },
      write(_rules, view, observer, out, offset) {
        const slice = sliceOfState(view);
        const P = view.players;
        QUARTERS.forEach((q, i) => {
          for (let j = 0; j < P; j++) out[offset + i * P + j] = slice.quarters[q][(observer + j) % P]!;
        });
        out[offset + 4 * P + QUARTERS.indexOf(slice.count)] = 1;
      },
    },
  };
}
