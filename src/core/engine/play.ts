/**
 * The rules as one mutating recipe: `playMove(rules, s, move, emit)` changes `s` in place.
 * `applyMove` runs it inside immer; the Simulator runs it on its own plain copy. The move is
 * assumed legal: callers validate first (see legal.ts).
 */
import { canPlaceAnywhere, emptyCellTable, layTile } from '../board.js';
import type { Emit } from '../events.js';
import { findRoot, tileCount } from '../features.js';
import type { ScoringContext } from '../game.js';
import type { Ruleset } from '../ruleset.js';
import { randomBelow, seedRng } from '../rng.js';
import { filledArray, type GameState, type GameView, type Move } from '../state.js';
import type { Immutable } from '../types.js';
import { featureRef, followersOn } from './scoring.js';
import type { ActionClaim, Expansion } from '../expansion.js';
import type { CompiledTile } from '../tiles.js';
import type { ExpansionMove } from '../state.js';
import { cloneJson } from './clone.js';
import { deepFreeze as deepFreezeJson } from './reconcile.js';
import { firstDifference } from './json-diff.js';
import { meepleError, type MeepleError } from '../errors.js';

/**
 * A game's chosen draws (`newGame`'s `draws` and `tokens`), as kept at the end of `GameState.rng`
 * after the generator's four words: `[next, tiles, tokens, ...tile kind indices, ...token kinds]`,
 * where `next` counts the chosen tiles drawn so far. Secret like the seed (`observe` drops `rng`),
 * copied with the state, and checked by `parseState` like everything else. @internal
 */
export interface ChosenDraws {
  /** Tile kind indices, in draw order. */
  readonly draws: readonly number[];
  /** The game's chosen face-down set-up tokens (The Castle's wall tokens, tower by tower). */
  readonly tokens: readonly number[];
}

/** No chosen draws. @internal */
export const NO_CHOSEN: ChosenDraws = Object.freeze({ draws: Object.freeze([]), tokens: Object.freeze([]) });

/** Where the record of chosen draws starts in `GameState.rng` (after the generator's four words). */
const RECORD = 4;
/** Where the chosen tile kinds start in `GameState.rng`. */
const RECORD_DRAWS = RECORD + 3;

/** The generator words followed by the record of chosen draws (none: the four words alone). */
function withRecord(words: number[], chosen: ChosenDraws): number[] {
  if (chosen.draws.length === 0 && chosen.tokens.length === 0) return words;
  return [...words, 0, chosen.draws.length, chosen.tokens.length, ...chosen.draws, ...chosen.tokens];
}

/**
 * The chosen draws recorded in a state's `rng` (any value: untrusted input is checked), with how
 * many of the chosen tiles were drawn so far; null when there is no record; a message when the
 * record is malformed. @internal
 */
export function chosenDraws(rng: unknown, tileKinds: number): (ChosenDraws & { readonly next: number }) | null | string {
  if (!Array.isArray(rng) || rng.length <= RECORD) return null;
  const [next, tiles, tokens] = [rng[RECORD], rng[RECORD + 1], rng[RECORD + 2]] as unknown[];
  const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!count(next) || !count(tiles) || !count(tokens) || next > tiles || rng.length !== RECORD_DRAWS + tiles + tokens) {
    return 'the record of chosen draws after the generator words is malformed';
  }
  const draws = rng.slice(RECORD_DRAWS, RECORD_DRAWS + tiles) as unknown[];
  if (!draws.every((k) => count(k) && k < tileKinds)) return 'a chosen draw names no tile kind of these rules';
  const chosenTokens = rng.slice(RECORD_DRAWS + tiles) as unknown[];
  if (!chosenTokens.every((t) => typeof t === 'number' && Number.isInteger(t))) return 'a chosen token is not an integer';
  return { draws: draws as number[], tokens: chosenTokens as number[], next };
}

/**
 * A chosen draw that cannot be made: thrown by the recipe (from deep inside a turn's end, where no
 * result is returned), caught by every entry point that runs it on a copy (`newGame`, `applyMove`,
 * replays, `buildPosition`) and returned there as its {@link MeepleError}. @internal
 */
export class ChosenDrawError extends Error {
  constructor(readonly error: MeepleError) {
    super(`${error.code}: ${error.message}`);
    this.name = 'ChosenDrawError';
  }
}

/**
 * What the game's own rules module may offer besides the module interface, so that a game's
 * definition can choose the outcomes of its set-up chance (The Castle: which face-down token lies
 * on each wall tower). Internal until a second module needs it. @internal
 */
export interface ChoosableSetup {
  /**
   * The module's state slice with the first outcomes of its set-up chance chosen (in its own
   * documented order) and the rest drawn with `random` as `setup` draws them, or why `chosen`
   * cannot be its set-up (a message).
   */
  setupChosen(rules: Ruleset, players: number, random: (n: number) => number, chosen: readonly number[]): { readonly slice: unknown } | string;
}

/**
 * Builds the initial state: start tile laid, first tile drawn (the first chosen draw, if any).
 * Players, seed and the ids of the chosen draws are validated by the caller; what only set-up can
 * tell (copies left in the bag, the tokens, the first draw held back) throws a
 * {@link ChosenDrawError} with code `options/draws`. @internal
 */
export function setupGame(rules: Ruleset, players: number, seed: string, emit: Emit, chosen: ChosenDraws = NO_CHOSEN): GameState {
  const n = rules.tiles.length;
  const s: GameState = {
    ruleset: rules.id,
    players,
    seed,
    rng: withRecord(seedRng(seed), chosen),
    bag: rules.tiles.map((t) => t.def.count),
    bagSize: 0,
    discarded: filledArray(n, 0),
    step: { kind: 'game-over', winners: [] },
    active: 0,
    turn: 0,
    scores: filledArray(players, 0),
    supply: filledArray(players, rules.followers),
    tiles: [],
    cells: emptyCellTable(),
    frontier: [],
    demand: [],
    features: { parent: [], kind: [], tile: [], open: [], pennants: [], followers: [], size: [], twins: [] },
    areas: [],
    followers: [],
    moves: [],
    flow: null,
    ext: {},
  };
  // A replaced start tile left in the box (the Count's City) is out of the game.
  for (const id of rules.boxed) if (s.bag[rules.tileIndex[id]!]! > 0) s.bag[rules.tileIndex[id]!]!--;
  const random = (n: number): number => randomBelow(s.rng, n);
  const own = rules.game.rules as (Expansion & Partial<ChoosableSetup>) | undefined;
  if (chosen.tokens.length > 0 && own?.setupChosen === undefined) {
    throw new ChosenDrawError(meepleError('options/draws', `${rules.game.game} has no face-down tokens to choose (tokens are The Castle's wall tokens)`));
  }
  for (const e of rules.expansions) {
    if (e === own && chosen.tokens.length > 0) {
      const made = own.setupChosen!(rules, players, random, chosen.tokens);
      if (typeof made === 'string') throw new ChosenDrawError(meepleError('options/draws', `tokens: ${made}`));
      s.ext[e.id] = made.slice;
    } else if (e.setup !== undefined) s.ext[e.id] = e.setup(rules, players, random);
  }
  const afterPlace = rules.hooks.afterPlace;
  for (const start of rules.start) {
    const k = rules.tileIndex[start.tile]!;
    // A start tile of the set leaves the bag; a virtual one (The Castle's start fields) was never in it.
    if (s.bag[k]! > 0) s.bag[k]!--;
    const index = layTile(rules, s, rules.tiles[k]!, start.x, start.y, start.rotation, -1);
    for (let i = 0; i < afterPlace.length; i++) afterPlace[i]!({ rules, state: s, emit }, index);
  }
  for (let k = 0; k < n; k++) s.bagSize += s.bag[k]!;
  // Chosen draws come out of the bag as it is now (start tiles out): more copies of a kind than
  // it holds can be refused here, before anything is drawn. Whether a tile is held back or fits
  // depends on the board, and is known only when it is drawn.
  if (chosen.draws.length > 0) {
    const wanted = new Array<number>(n).fill(0);
    for (const k of chosen.draws) wanted[k]!++;
    for (let k = 0; k < n; k++) {
      if (wanted[k]! > s.bag[k]!) {
        const id = rules.tiles[k]!.def.id;
        throw new ChosenDrawError(
          meepleError('options/draws', `draws: ${wanted[k]} copies of tile ${id}, but the bag holds ${s.bag[k]} at the start of the game`),
        );
      }
    }
  }
  try {
    drawTile(rules, s, emit);
  } catch (e) {
    // The first draw is part of newGame: a chosen tile held back there is an error of its options.
    if (e instanceof ChosenDrawError) throw new ChosenDrawError(meepleError('options/draws', e.error.message));
    throw e;
  }
  return s;
}

/**
 * Applies a legal move to `s` in place. `owned`: the move is a fresh object of the core's own
 * shape, or one an expansion's move list just made, that nobody else holds (a playout's), so the
 * history may keep it instead of a copy. @internal
 */
export function playMove(rules: Ruleset, s: GameState, move: Move, emit: Emit, owned = false): void {
  const step = s.step;
  if (step.kind === 'place-tile' && move.type === 'place') {
    s.moves.push(owned ? move : { type: 'place', player: move.player, x: move.x, y: move.y, rotation: move.rotation });
    const tile = rules.tileById.get(step.tile)!;
    const index = layTile(rules, s, tile, move.x, move.y, move.rotation, move.player);
    if (emit !== null) {
      emit({ type: 'tile-placed', player: move.player, tile: step.tile, x: move.x, y: move.y, rotation: move.rotation });
    }
    const afterPlace = rules.hooks.afterPlace;
    if (afterPlace.length > 0) {
      const ctx: ScoringContext = { rules, state: s, emit };
      for (let i = 0; i < afterPlace.length; i++) afterPlace[i]!(ctx, index);
    }
    if (deployTargets(rules, s) > 0 || hasDeployMoves(rules, s)) s.step = { kind: 'deploy', player: move.player };
    else finishTurn(rules, s, emit);
    return;
  }
  if (move.type.includes('/')) {
    playExpansionMove(rules, s, move as ExpansionMove, emit, owned);
    return;
  }
  if (step.kind === 'deploy' && move.type === 'deploy') {
    s.moves.push(owned ? move : { type: 'deploy', player: move.player, feature: move.feature });
    const index = s.tiles.length - 1;
    const placed = s.tiles[index]!;
    const local = rules.tiles[placed.kind]!.localIndex[move.feature]!;
    s.features.followers[findRoot(s.features.parent, placed.node + local)]!++;
    s.followers.push({ player: move.player, tile: index, local });
    s.supply[move.player]!--;
    if (emit !== null) {
      emit({
        type: 'follower-deployed',
        player: move.player,
        at: { kind: rules.kindNames[s.features.kind[placed.node + local]!]!, x: placed.x, y: placed.y, feature: move.feature },
      });
    }
    finishTurn(rules, s, emit);
    return;
  }
  if (step.kind === 'deploy' && move.type === 'pass') {
    s.moves.push(owned ? move : { type: 'pass', player: move.player });
    finishTurn(rules, s, emit);
    return;
  }
  throw new Error(`playMove: ${move.type} is not playable at step ${step.kind} (validate moves first)`);
}

/**
 * Bit set of the placed tile's local features a follower may go on (bit i = local feature i),
 * or 0 when the player has no follower left or every feature is taken. @internal
 */
export function deployTargets(rules: Ruleset, s: Immutable<GameView>): number {
  const index = s.tiles.length - 1;
  const placed = s.tiles[index]!;
  if (placed.player < 0 || s.supply[placed.player]! <= 0) return 0;
  if (rules.hooks.claimers.length > 0 && actionClaim(rules, s) !== null) return 0;
  const allowed = rules.hooks.deployAllowed;
  for (let i = 0; i < allowed.length; i++) if (!allowed[i]!(rules, s)) return 0;
  const tile = rules.tiles[placed.kind]!;
  let bits = 0;
  for (let f = 0; f < tile.kinds.length; f++) {
    if (!rules.deployable[tile.kinds[f]!]) continue;
    if (s.features.followers[findRoot(s.features.parent, placed.node + f)] === 0) bits |= 1 << f;
  }
  return bits;
}

/** Whether any expansion offers a move at the deploy step now (only the claiming one, when one claims the action). */
function hasDeployMoves(rules: Ruleset, s: Immutable<GameView>): boolean {
  const claim = rules.hooks.claimers.length > 0 ? actionClaim(rules, s) : null;
  if (claim !== null) return (claim.owner.deployMoves?.(rules, s).length ?? 0) > 0;
  const hooks = rules.hooks.deployMoves;
  for (let i = 0; i < hooks.length; i++) if (hooks[i]!(rules, s).length > 0) return true;
  return false;
}

/**
 * The expansion claiming this turn's action and its claim (see `Expansion.claimsAction`), or null:
 * the first claim in hook order. @internal
 */
export function actionClaim(rules: Ruleset, s: Immutable<GameView>): { readonly owner: Expansion; readonly claim: ActionClaim } | null {
  const list = rules.hooks.claimers;
  for (let i = 0; i < list.length; i++) {
    const claim = list[i]!.claimsAction!(rules, s);
    if (claim !== null) return { owner: list[i]!, claim };
  }
  return null;
}

/** The expansion that owns a move type or step kind `'<id>/<name>'`. @internal */
export function ownerOf(rules: Ruleset, name: string): Expansion | undefined {
  // Compared in place (no substring, no callback): this runs for every expansion move played.
  const list = rules.expansions;
  for (let i = 0; i < list.length; i++) {
    const id = list[i]!.id;
    if (name.length > id.length && name.charCodeAt(id.length) === SLASH && name.startsWith(id)) return list[i]!;
  }
  return undefined;
}

/** The character code of '/', which ends the expansion id in a move type or step kind. */
const SLASH = 47;

/** Plays an expansion's move (at the deploy step, or at one of its own steps); `owned` as for {@link playMove}. */
function playExpansionMove(rules: Ruleset, s: GameState, move: ExpansionMove, emit: Emit, owned: boolean): void {
  const owner = ownerOf(rules, move.type)!;
  // Stored in the shape its expansion offers it (key order included), whatever order the caller
  // wrote its keys in: same seed and moves, same bytes.
  s.moves.push(owned ? move : deepFreezeJson(cloneJson(canonicalMove(rules, s, owner, move))));
  if (owner.turnMoves !== undefined && isListed(owner.turnMoves(rules, s), move)) {
    // A move of the whole turn (ransom): played aside, the step stays what it was.
    owner.play!({ rules, state: s, emit }, move);
    return;
  }
  // A move at the deploy step is the turn's action: when the expansion is done, the turn goes on.
  if (s.step.kind === 'deploy') s.flow ??= { phase: 'action', roots: [], hook: 0, completed: [] };
  if (owner.play!({ rules, state: s, emit }, move) === 'done') resumeTurn(rules, s, emit);
}

/** The offered move equal to `move` (the expansion's own object, in its key order), or `move`. */
function canonicalMove(rules: Ruleset, s: GameState, owner: Expansion, move: ExpansionMove): ExpansionMove {
  const step = s.step;
  const lists = [
    step.kind === 'deploy' ? (owner.deployMoves?.(rules, s) ?? []) : step.kind.startsWith(`${owner.id}/`) ? (owner.stepMoves?.(rules, s) ?? []) : [],
    owner.turnMoves?.(rules, s) ?? [],
  ];
  for (const list of lists) for (const o of list) if (firstDifference(o, move, '$') === null) return o as ExpansionMove;
  return move;
}

/** Whether `move` is one of `offered` (same fields, same values). */
function isListed(offered: readonly Move[], move: ExpansionMove): boolean {
  for (const o of offered) if (firstDifference(o, move, '$') === null) return true;
  return false;
}

/** The completed features among the roots the last tile touched, in order. */
function completedRoots(rules: Ruleset, s: GameState): number[] {
  const g = s.features;
  const out: number[] = [];
  // The same order as touchedRoots (the tile's features, then the cloisters around it), without
  // building the list of every touched feature: most turns complete nothing.
  const placed = s.tiles[s.tiles.length - 1]!;
  const n = rules.tiles[placed.kind]!.kinds.length;
  for (let f = 0; f < n; f++) {
    const r = findRoot(g.parent, placed.node + f);
    if (g.open[r] === 0 && rules.kinds[g.kind[r]!]!.completion !== 'never' && !out.includes(r)) out.push(r);
  }
  const areas = s.areas;
  for (let i = 0; i < areas.length; i++) {
    const seg = areas[i]!;
    // A neighbour's feature this tile closed without joining it (see layTile; it may have been
    // joined to another since, so ask for its root), or a cloister.
    if (rules.portCompleted[g.kind[seg]!]) {
      const r = findRoot(g.parent, seg);
      if (g.open[r] === 0 && !out.includes(r)) out.push(r);
      continue;
    }
    if (g.open[seg] !== 0 || out.includes(seg)) continue;
    const at = s.tiles[g.tile[seg]!]!;
    if (Math.abs(at.x - placed.x) <= 1 && Math.abs(at.y - placed.y) <= 1) out.push(seg);
  }
  return out;
}

function emitCompleted(rules: Ruleset, s: GameState, root: number, emit: Emit): void {
  if (emit === null) return;
  const g = s.features;
  const tiles = rules.kinds[g.kind[root]!]!.completion === 'surroundings' ? 9 : tileCount(g, root);
  emit({ type: 'feature-completed', feature: featureRef(rules, s, root), tiles });
}

/** Scores what the last tile completed, passes the turn, draws the next tile. */
function finishTurn(rules: Ruleset, s: GameState, emit: Emit): void {
  if (rules.hooks.afterAction.length > 0) {
    // Expansions may react to the action before anything is scored (the dragon's flight).
    s.flow = { phase: 'react', roots: [], hook: 0, completed: [] };
    resumeTurn(rules, s, emit);
    return;
  }
  scoreTurn(rules, s, emit);
}

/** Scores what the last tile completed, then ends the turn. */
function scoreTurn(rules: Ruleset, s: GameState, emit: Emit): void {
  const roots = completedRoots(rules, s);
  const h = rules.hooks;
  if (roots.length > 0 && (h.beforeScoring.length > 0 || h.afterScoring.length > 0 || h.scoringOrder.length > 0)) {
    // Expansions may pause the scoring for decisions: keep what is left to do in the state.
    s.flow = { phase: 'score', roots, hook: 0, completed: [] };
    resumeTurn(rules, s, emit);
    return;
  }
  const ctx: ScoringContext = { rules, state: s, emit };
  for (const root of roots) {
    emitCompleted(rules, s, root, emit);
    rules.game.scoreCompleted(ctx, root);
  }
  closeTurn(rules, s, emit);
}

/** Runs the `beforeTurnEnd` hooks (which may pause the turn), then ends the turn. */
function closeTurn(rules: Ruleset, s: GameState, emit: Emit): void {
  const end = rules.hooks.beforeTurnEnd;
  if (end.length > 0) {
    // Most turns nobody waits here: the flow is recorded only when a hook pauses the turn.
    const ctx: ScoringContext = { rules, state: s, emit };
    for (let i = 0; i < end.length; i++) {
      if (end[i]!(ctx) === 'wait') {
        s.flow = { phase: 'end', roots: [], hook: i + 1, completed: [] };
        return;
      }
    }
  }
  endTurn(rules, s, emit);
}

/** Goes on with the turn from `state.flow` after an expansion's decisions. @internal */
export function resumeTurn(rules: Ruleset, s: GameState, emit: Emit): void {
  const flow = s.flow!;
  if (flow.phase === 'final') {
    resumeFinal(rules, s, emit);
    return;
  }
  if (flow.phase === 'react') {
    const react = rules.hooks.afterAction;
    const rctx: ScoringContext = { rules, state: s, emit };
    while (flow.hook < react.length) if (react[flow.hook++]!(rctx) === 'wait') return;
    s.flow = null;
    scoreTurn(rules, s, emit);
    return;
  }
  if (flow.phase === 'action') {
    s.flow = null;
    finishTurn(rules, s, emit);
    return;
  }
  const ctx: ScoringContext = { rules, state: s, emit };
  if (flow.phase === 'end') {
    const end = rules.hooks.beforeTurnEnd;
    while (flow.hook < end.length) if (end[flow.hook++]!(ctx) === 'wait') return;
    s.flow = null;
    endTurn(rules, s, emit);
    return;
  }
  const g = s.features;
  if (flow.phase === 'score') {
    const order = rules.hooks.scoringOrder;
    const before = rules.hooks.beforeScoring;
    const o = order.length;
    while (flow.roots.length > 0) {
      // First the hooks that choose which feature is scored next, then those about that feature.
      while (flow.hook < o) if (order[flow.hook++]!(ctx) === 'wait') return;
      const root = flow.roots[0]!;
      // What the afterScoring hooks are handed (recorded only for them: counting followers costs):
      // the followers when the tile completed the feature, and (below) after the beforeScoring hooks.
      const recording = rules.hooks.afterScoring.length > 0;
      if (flow.hook === o) {
        emitCompleted(rules, s, root, emit);
        if (recording) {
          const held = followersOn(s, root);
          flow.completed.push({ root, kind: rules.kindNames[g.kind[root]!]!, tiles: tileCount(g, root), followers: held, completedWith: [...held] });
        }
      }
      while (flow.hook < o + before.length) if (before[flow.hook++ - o]!(ctx, root) === 'wait') return;
      if (recording && before.length > 0) flow.completed[flow.completed.length - 1]!.followers = followersOn(s, root);
      rules.game.scoreCompleted(ctx, root);
      flow.roots.shift();
      flow.hook = 0;
    }
    flow.phase = 'after';
  }
  const after = rules.hooks.afterScoring;
  if (flow.completed.length > 0) {
    while (flow.hook < after.length) if (after[flow.hook++]!(ctx, flow.completed) === 'wait') return;
  }
  s.flow = null;
  closeTurn(rules, s, emit);
}

/** Ends the turn: passes it on and draws the next tile. */
function endTurn(rules: Ruleset, s: GameState, emit: Emit): void {
  const g = s.features;
  const areas = s.areas;
  let kept = 0;
  // Completed cloisters leave the watch list, and so do the neighbours' features a tile closed
  // (they are listed for one turn's scoring only).
  for (let i = 0; i < areas.length; i++) {
    const seg = areas[i]!;
    if (g.open[seg] !== 0 && !rules.portCompleted[g.kind[seg]!]) areas[kept++] = seg;
  }
  if (kept !== areas.length) areas.length = kept;
  if (emit !== null) emit({ type: 'turn-ended', player: s.active });
  let next = (s.active + 1) % s.players;
  const pick = rules.hooks.nextPlayer;
  for (let i = 0; i < pick.length; i++) {
    const p = pick[i]!(rules, s);
    if (p !== null) {
      next = p;
      break;
    }
  }
  s.turn++;
  s.active = next;
  // A turn starts only if there is a tile left to draw (after the last tile no turn follows).
  const starts = rules.hooks.turnStart;
  if (starts.length > 0 && s.bagSize > 0) {
    const ctx: ScoringContext = { rules, state: s, emit };
    for (let i = 0; i < starts.length; i++) starts[i]!(ctx);
  }
  drawTile(rules, s, emit);
}

/**
 * Scratch list of the tile kinds that may be drawn (drawTile with draw filters): rewritten before
 * every read, never kept across calls, so module-level without being state; grown on demand.
 */
let DRAWABLE = new Int32Array(128);

/**
 * Draws tiles for the active player until one fits (discarding the others); ends the game when the
 * bag is empty. The game's chosen draws come first, in order (see {@link chosenDraw}).
 */
function drawTile(rules: Ruleset, s: GameState, emit: Emit): void {
  const bag = s.bag;
  for (;;) {
    // One length check per draw when no draw was chosen: the hot path stays as it was.
    if (s.rng.length > RECORD && s.rng[RECORD]! < s.rng[RECORD + 1]!) {
      if (takeTile(rules, s, chosenDraw(rules, s), emit)) return;
      continue;
    }
    let k = 0;
    const filters = drawFilters(rules, s);
    if (filters === null) {
      const total = s.bagSize;
      if (total === 0) {
        endGame(rules, s, emit);
        return;
      }
      let r = randomBelow(s.rng, total);
      while (r >= bag[k]!) r -= bag[k++]!;
    } else {
      // Expansions hold tiles back (River: river tiles first, the lake last). The kinds that may
      // be drawn are listed once (each predicate asked once per kind left), then walked.
      if (DRAWABLE.length < bag.length) DRAWABLE = new Int32Array(bag.length);
      const drawable = DRAWABLE;
      let kinds = 0;
      let n = 0;
      for (let i = 0; i < bag.length; i++) {
        if (bag[i]! > 0 && mayDraw(filters, rules.tiles[i]!)) {
          drawable[kinds++] = i;
          n += bag[i]!;
        }
      }
      if (n === 0) {
        // The bag is empty, or every tile left is held back (the dragon tiles before any volcano,
        // which would be set aside one by one as they are drawn): the game ends.
        endGame(rules, s, emit);
        return;
      }
      let r = randomBelow(s.rng, n);
      for (let j = 0; ; j++) {
        k = drawable[j]!;
        if (r < bag[k]!) break;
        r -= bag[k]!;
      }
    }
    if (takeTile(rules, s, k, emit)) return;
  }
}

/**
 * The next chosen tile kind, counted as drawn. It was in the bag at set-up (newGame checked the
 * copies) and draws before it were chosen too, so it is in the bag now; but the rules may hold it
 * back at this moment (River: the lake before the course; the dragon before a volcano is laid),
 * which only the board can tell: then the game cannot go on as defined, and the move that got
 * here is refused (`draw/held-back`).
 */
function chosenDraw(rules: Ruleset, s: GameState): number {
  const rng = s.rng;
  const i = rng[RECORD]!;
  const k = rng[RECORD_DRAWS + i]!;
  const filters = drawFilters(rules, s);
  if (s.bag[k]! <= 0 || (filters !== null && !mayDraw(filters, rules.tiles[k]!))) {
    const id = rules.tiles[k]!.def.id;
    throw new ChosenDrawError(
      meepleError('draw/held-back', `chosen draw ${i} (tile ${id}) cannot be drawn now: ${s.bag[k]! <= 0 ? 'no copy is left in the bag' : "the rules hold it back at this point of the game"}`),
    );
  }
  rng[RECORD] = i + 1;
  return k;
}

/**
 * Takes tile kind `k` out of the bag for the active player: it is theirs to place if it fits
 * somewhere (true), else it is discarded (false: classic rules, a tile that fits nowhere is
 * removed from the game and another drawn). The research interface's chance outcomes apply
 * draws through this too. @internal
 */
export function takeTile(rules: Ruleset, s: GameState, k: number, emit: Emit): boolean {
  s.bag[k]!--;
  s.bagSize--;
  const tile = rules.tiles[k]!;
  if (emit !== null) emit({ type: 'tile-drawn', player: s.active, tile: tile.def.id });
  if (canPlaceAnywhere(rules, s, tile)) {
    s.step = { kind: 'place-tile', player: s.active, tile: tile.def.id };
    return true;
  }
  s.discarded[k]!++;
  if (emit !== null) emit({ type: 'tile-discarded', player: s.active, tile: tile.def.id });
  return false;
}

/** The expansions' draw predicates in force now, or null when none holds anything back. @internal */
export function drawFilters(rules: Ruleset, s: Immutable<GameView>): ((tile: CompiledTile) => boolean)[] | null {
  const hooks = rules.hooks.drawFilter;
  let out: ((tile: CompiledTile) => boolean)[] | null = null;
  for (let i = 0; i < hooks.length; i++) {
    const f = hooks[i]!(rules, s);
    if (f !== null) (out ??= []).push(f);
  }
  return out;
}

/** Whether every predicate allows the tile kind. @internal */
export function mayDraw(filters: readonly ((tile: CompiledTile) => boolean)[], tile: CompiledTile): boolean {
  for (let i = 0; i < filters.length; i++) if (!filters[i]!(tile)) return false;
  return true;
}

/** Final scoring, winners, game over. @internal */
export function endGame(rules: Ruleset, s: GameState, emit: Emit): void {
  if (rules.hooks.beforeFinalScoring.length > 0) {
    // Expansions may ask players first (the Count's market round): keep the place in the state.
    s.flow = { phase: 'final', roots: [], hook: 0, completed: [] };
    resumeFinal(rules, s, emit);
    return;
  }
  scoreGame(rules, s, emit);
}

/** Goes on with the `beforeFinalScoring` hooks from `state.flow`, then scores the game. */
function resumeFinal(rules: Ruleset, s: GameState, emit: Emit): void {
  const flow = s.flow!;
  const before = rules.hooks.beforeFinalScoring;
  const ctx = { rules, state: s, emit };
  while (flow.hook < before.length) if (before[flow.hook++]!(ctx) === 'wait') return;
  s.flow = null;
  scoreGame(rules, s, emit);
}

/** Final scoring (the base game's, then the expansions'), winners, game over. */
function scoreGame(rules: Ruleset, s: GameState, emit: Emit): void {
  const ctx = { rules, state: s, emit };
  rules.game.finalScoring(ctx);
  const finals = rules.hooks.finalScoring;
  for (let i = 0; i < finals.length; i++) finals[i]!(ctx);
  const winners = winnersOf(s.scores);
  s.step = { kind: 'game-over', winners };
  if (emit !== null) emit({ type: 'game-ended', scores: s.scores.slice(), winners: winners.slice() });
}

/** Players with the highest score. @internal */
export function winnersOf(scores: readonly number[]): number[] {
  const best = Math.max(...scores);
  const out: number[] = [];
  scores.forEach((v, p) => {
    if (v === best) out.push(p);
  });
  return out;
}
