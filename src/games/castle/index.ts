/**
 * Carcassonne: The Castle (Reiner Knizia), two players inside a walled board, on the shared core.
 * Rules: the Castle digest, with the Czech rulebook the-castle.cs.txt as the
 * authority; docs/rules/castle.md maps each rule to its code and test.
 *
 * What the core does for The Castle, from data: the bounded board (cells outside the play area
 * are wall), the seven start fields (virtual tiles laid outside the wall before the first turn,
 * whose half-features join the features facing them and count as a tile), path-only matching
 * (edge classes), completion by ports (a square or a building ends a path: it is simply not a
 * port), and follower deployment. What this module adds: the scoring values, majorities where a
 * tie scores nobody, wall tokens, the keep, the placing player's choice of scoring order, and the
 * final scoring, written as the game's own rules module (`castle/...` steps, moves and events).
 */
import { findRoot, tileCount } from '../../core/features.js';
import type { GameModule, ScoringContext } from '../../core/game.js';
import type { Expansion, HookContext } from '../../core/expansion.js';
import { award, featureRef, returnFollowers } from '../../core/engine/scoring.js';
import { meepleError, showValue, type MeepleError } from '../../core/errors.js';
import type { ChoosableSetup } from '../../core/engine/play.js';
import { err, ok, type Result } from '../../core/result.js';
import type { ExpansionMove, GameState, GameView, Move } from '../../core/state.js';
import { cellKey, SIDE_DELTA } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import type { Ruleset } from '../../core/ruleset.js';
import { CASTLE_KINDS } from './kinds.js';
import { castleConfig, type CastleConfig } from './options.js';
import type { CastleLayout } from './data.js';
import { tileAt } from '../../core/board.js';
import { castleActions } from './actions.js';
import { largestEmptyRegion } from './empty-area.js';
import { WALL_TOKENS, type CastleSlice, type HeldToken, type KeepPlace } from './state.js';

export { WALL_TOKENS, type CastleSlice, type HeldToken, type KeepPlace, type CastleScoreMove } from './state.js';

/** Kind indices (CASTLE_KINDS order). */
const PATH = 0;
const TOWER = 1;
const HOUSE = 2;
const COURT = 3;

function slice(s: Immutable<GameView> | GameState): CastleSlice {
  return (s.ext as Record<string, unknown>)['castle'] as CastleSlice;
}

/** The player with strictly more followers on `root`, or -1 (a tie, or nobody there). */
function scorerOf(s: Immutable<GameView>, root: number): number {
  // Two players: count in place rather than through followersOn (this runs in every scoring).
  const g = s.features;
  if (g.followers[root] === 0) return -1;
  let balance = 0;
  const fs = s.followers;
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    if (findRoot(g.parent, s.tiles[f.tile]!.node + f.local) === root) balance += f.player === 0 ? 1 : -1;
  }
  return balance > 0 ? 0 : balance < 0 ? 1 : -1;
}

/** Points of a completed feature (digest, scoring table), with token 2/3 doubling when used. */
function completedValue(s: Immutable<GameView>, root: number, token: boolean): number {
  const g = s.features;
  const tiles = tileCount(g, root);
  switch (g.kind[root]) {
    case PATH:
      return g.pennants[root]! > 0 ? 2 * tiles : tiles; // a well doubles
    case TOWER:
      return (token ? 4 : 2) * tiles;
    case HOUSE:
      return (token ? 2 : 1) * tiles;
    default:
      return 0;
  }
}

/** How many tokens of kind `token` player `p` holds. */
function heldCount(sl: Immutable<CastleSlice>, p: number, token: number): number {
  const held = sl.held[p]!;
  let n = 0;
  for (let i = 0; i < held.length; i++) if (held[i]!.token === token) n++;
  return n;
}

/** Index of a usable held token of kind `token` (taken in an earlier turn), or -1. */
function usable(s: Immutable<GameView>, player: number, token: number): number {
  const held = slice(s).held[player]!;
  for (let i = 0; i < held.length; i++) if (held[i]!.token === token && held[i]!.turn < s.turn) return i;
  return -1;
}

/** Removes a held token and tells the world. */
function useToken(ctx: HookContext, player: number, index: number, detail: Record<string, unknown> = {}): void {
  const held = slice(ctx.state).held[player]!;
  const [t] = held.splice(index, 1);
  if (ctx.emit !== null) ctx.emit({ type: 'castle/token-used', player, token: t!.token, ...detail } as never);
}

/** The Castle module, built from validated options. */
class CastleRules {
  readonly config: CastleConfig;
  /** Tower index per track space (layout.towerAt). */
  readonly towerAt: Int8Array;
  /** Per tower: the token-bearing towers are all but the one holding space 0. */
  readonly hasToken: readonly boolean[];

  constructor(config: CastleConfig) {
    this.config = config;
    this.towerAt = config.layout.towerAt;
    this.hasToken = config.layout.towers.map(([a, b]) => a !== 0 && b !== 0);
  }

  /** Where a player's marker would take a token now: the tower index, or -1. */
  towerHit(wall: readonly number[], score: number): number {
    if (this.config.laps === 'first-lap' && score >= 100) return -1;
    const t = this.towerAt[score % 100]!;
    return t >= 0 && wall[t] !== 0 ? t : -1;
  }

  /** Takes the token the marker stops on, if any (digest, Wall tokens). */
  pickUp(ctx: ScoringContext, player: number): void {
    const s = ctx.state;
    const sl = slice(s);
    const t = this.towerHit(sl.wall, s.scores[player]!);
    if (t < 0) return;
    const token = sl.wall[t]!;
    sl.wall[t] = 0;
    sl.held[player]!.push({ token, turn: s.turn });
    // A concealed token (-1, research states only) is counted when a chance node reveals it.
    if (token > 0) sl.taken[token - 1]!++;
    if (ctx.emit !== null) {
      const [a, b] = this.config.layout.towers[t]!;
      ctx.emit({ type: 'castle/token-taken', player, token, tower: [a, b], space: s.scores[player]! % 100 } as never);
    }
  }

  /** Scores one completed feature (digest, turn step 3), then the keep and the token pick-up. */
  scoreCompleted(ctx: ScoringContext, root: number): void {
    const s = ctx.state;
    const sl = slice(s);
    const scorer = scorerOf(s, root);
    const pending = sl.pending;
    sl.pending = null;
    if (scorer >= 0) {
      let doubled = false;
      if (pending !== null && pending.root === root) {
        const i = usable(s, scorer, pending.token);
        if (i >= 0) {
          useToken(ctx, scorer, i, { feature: featureRef(ctx.rules, s, root) });
          doubled = true;
        }
      }
      award(ctx, scorer, completedValue(s, root, doubled), 'completed', root);
      if (scorer === s.active) sl.majorityTurn = s.turn;
      if (s.features.kind[root] === HOUSE) this.keep(ctx, scorer, root);
      this.pickUp(ctx, scorer);
    }
    returnFollowers(ctx, root);
  }

  /** The keep (digest, turn step 4): first completed house with the majority, then strictly larger ones. */
  keep(ctx: ScoringContext, player: number, root: number): void {
    const s = ctx.state;
    if (this.config.keep === 'completing-tile' && player !== s.active) return;
    const sl = slice(s);
    const tiles = tileCount(s.features, root);
    const now = sl.keep[player]!;
    if (now !== null && tiles <= now.tiles) return;
    sl.keep[player] = { root, tiles };
    if (ctx.emit !== null) {
      ctx.emit({ type: now === null ? 'castle/keep-placed' : 'castle/keep-moved', player, feature: featureRef(ctx.rules, s, root), tiles } as never);
    }
  }

  /** Scores the end of the game (digest, End of game). */
  finalScoring(ctx: ScoringContext): void {
    const s = ctx.state;
    const sl = slice(s);
    const g = s.features;
    // Tokens left on the wall are removed.
    const left = sl.wall.filter((t) => t !== 0).length;
    sl.wall.fill(0);
    if (left > 0 && ctx.emit !== null) ctx.emit({ type: 'castle/wall-cleared', tokens: left } as never);

    // 1. The keep: the larger keep (token 8: 2 tiles larger) scores the largest empty area.
    const sizes = sl.keep.map((k, p) => (k === null ? -1 : k.tiles + 2 * heldCount(sl, p, 8)));
    const best = Math.max(...sizes);
    const winners = sizes.flatMap((v, p) => (v === best && v >= 0 ? [p] : []));
    if (winners.length === 1) {
      const p = winners[0]!;
      for (let i = sl.held[p]!.length - 1; i >= 0; i--) if (sl.held[p]![i]!.token === 8) useToken(ctx, p, i);
      const area = largestEmptyArea(ctx.rules, s);
      if (area > 0) award(ctx, p, area, 'castle/keep', sl.keep[p]!.root);
    }

    // 2. Courts: 3 per market for the merchant majority; token 7 makes it 4.
    const courts = rootsWithFollowers(s, COURT);
    const market7 = this.finalTargets(s, 7, courts.filter((r) => g.pennants[r]! > 0));
    for (const root of courts) {
      const p = scorerOf(s, root);
      const markets = g.pennants[root]!;
      if (p < 0 || markets === 0) continue;
      const boosted = market7.some((c) => c.player === p && c.root === root);
      award(ctx, p, (boosted ? 4 : 3) * markets, 'castle/court', root);
    }
    for (const c of market7) {
      const i = sl.held[c.player]!.findIndex((h) => h.token === 7);
      if (i >= 0) useToken(ctx, c.player, i, { feature: featureRef(ctx.rules, s, c.root) });
    }

    // 3. Tokens 4, 5, 6 (one unfinished feature with the majority each) and 9 (5 points).
    for (const token of [4, 5, 6]) {
      if (heldCount(sl, 0, token) + heldCount(sl, 1, token) === 0) continue;
      const kind = token === 4 ? PATH : token === 5 ? TOWER : HOUSE;
      for (const c of this.finalTargets(s, token, rootsWithFollowers(s, kind).filter((r) => g.open[r]! > 0))) {
        const i = sl.held[c.player]!.findIndex((h) => h.token === token);
        useToken(ctx, c.player, i, { feature: featureRef(ctx.rules, s, c.root) });
        award(ctx, c.player, (token === 5 ? 2 : 1) * tileCount(g, c.root), 'castle/token', c.root);
      }
    }
    for (let p = 0; p < 2; p++) {
      for (let i = sl.held[p]!.length - 1; i >= 0; i--) {
        if (sl.held[p]![i]!.token !== 9) continue;
        useToken(ctx, p, i);
        award(ctx, p, 5, 'castle/token', null);
      }
    }
  }

  /**
   * Which feature each held token of kind `token` (4..7) applies to: the owner's choices made at
   * the end (`finals`), else the most valuable eligible feature (for `projectedScores`, or when
   * there was nothing to choose). Token 7 with `every-court` applies to every court.
   */
  finalTargets(s: Immutable<GameView>, token: number, candidates: readonly number[]): { player: number; root: number }[] {
    const sl = slice(s);
    const out: { player: number; root: number }[] = [];
    for (let p = 0; p < 2; p++) {
      const copies = heldCount(sl, p, token);
      if (copies === 0) continue;
      const mine = candidates.filter((r) => scorerOf(s, r) === p);
      if (token === 7 && this.config.marketToken === 'every-court') {
        for (const r of mine) out.push({ player: p, root: r });
        continue;
      }
      const chosen = sl.finals.filter((f) => f.player === p && f.token === token);
      const taken = new Set<number>();
      for (let c = 0; c < copies; c++) {
        let root: number;
        if (c < chosen.length) root = chosen[c]!.root;
        else {
          root = -1;
          let value = -1;
          for (const r of mine) {
            if (taken.has(r)) continue;
            const v = finalValue(s, token, r);
            if (v > value) {
              value = v;
              root = r;
            }
          }
        }
        if (root < 0) continue;
        taken.add(root);
        out.push({ player: p, root });
      }
    }
    return out;
  }
}

/** What a final token is worth on a feature. */
function finalValue(s: Immutable<GameView>, token: number, root: number): number {
  if (token === 7) return s.features.pennants[root]!;
  return (token === 5 ? 2 : 1) * tileCount(s.features, root);
}

/** Roots of the given kind that hold followers, ascending. */
function rootsWithFollowers(s: Immutable<GameView>, kind: number): number[] {
  const g = s.features;
  const out: number[] = [];
  for (const f of s.followers) {
    const r = findRoot(g.parent, s.tiles[f.tile]!.node + f.local);
    if (g.kind[r] === kind && !out.includes(r)) out.push(r);
  }
  return out.sort((a, b) => a - b);
}

/** The largest orthogonally connected group of empty play-area cells (digest, End of game 1). */
export function largestEmptyArea(rules: Ruleset, s: Immutable<GameView>): number {
  return rules.inside === null ? 0 : largestEmptyRegion(castleOf(rules).config.layout, s.tiles);
}

/** The Castle's rules object of a ruleset. @internal */
export function castleOf(rules: Ruleset): CastleRules {
  return (rules.game as unknown as { castle: CastleRules }).castle;
}

/**
 * The Castle's board as plain JSON, for UIs: the compiled {@link CastleLayout} with its two typed
 * arrays (`inside`, `towerAt`) as plain arrays of numbers, so that it survives `JSON.stringify`,
 * `structuredClone` and the network unchanged.
 */
export interface CastleBoard extends Omit<CastleLayout, 'inside' | 'towerAt'> {
  /** `width * height` flags, 1 for a play-area cell and 0 outside, at index `y * width + x`. */
  readonly inside: readonly number[];
  /** Per track space (100): the index of the tower it belongs to, or -1. */
  readonly towerAt: readonly number[];
}

/**
 * The board of a Castle ruleset, for drawing it: the play area, the start fields (and the
 * virtual tiles they became), the score track beside the wall and the towers; with the data's
 * `provenance` (`'reconstructed'` for the shipped default). Null for other games. Plain JSON:
 * plain arrays, no typed arrays (the engine keeps its own compiled copy), deeply frozen, a fresh
 * object on every call.
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 * import { castle, castleBoard } from 'meeplekit/games/castle';
 *
 * const rules = createRuleset({ game: castle() });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const board = castleBoard(rules.value)!;
 * console.log(board.provenance, board.cellCount, board.towers.length); // reconstructed 76 14
 * console.log(JSON.stringify(JSON.parse(JSON.stringify(board))) === JSON.stringify(board)); // true
 * ```
 */
export function castleBoard(rules: Ruleset): CastleBoard | null {
  if (rules.game.game !== 'castle') return null;
  const layout = castleOf(rules).config.layout;
  // Everything but the two typed arrays is plain, deeply frozen data already, and is shared.
  return Object.freeze({
    ...layout,
    inside: Object.freeze(Array.from(layout.inside)),
    towerAt: Object.freeze(Array.from(layout.towerAt)),
  });
}

/** Names feature `root` the way moves do. */
function refOf(rules: Ruleset, s: Immutable<GameView>, root: number): { x: number; y: number; feature: string } {
  const r = featureRef(rules, s, root);
  return { x: r.x, y: r.y, feature: r.feature };
}

/** Whether every order of scoring `amounts` from `score` takes the same tokens. */
function orderIrrelevant(c: CastleRules, wall: readonly number[], score: number, amounts: readonly number[]): boolean {
  if (amounts.length < 2) return true;
  if (amounts.length > 6) return false;
  let first: string | null = null;
  const perm = (rest: number[], at: number, hits: number[]): boolean => {
    if (rest.length === 0) {
      const key = [...new Set(hits)].sort((a, b) => a - b).join(',');
      if (first === null) first = key;
      return key === first;
    }
    for (let i = 0; i < rest.length; i++) {
      const next = at + rest[i]!;
      const t = c.towerHit(wall, next);
      const more = t >= 0 ? [...hits, t] : hits;
      if (!perm([...rest.slice(0, i), ...rest.slice(i + 1)], next, more)) return false;
    }
    return true;
  };
  return perm([...amounts], score, []);
}

/** The token (2 or 3) the active player could use on feature `root` now, or 0. */
function tokenFor(s: Immutable<GameView>, scorer: number, root: number): number {
  if (scorer !== s.active) return 0;
  const kind = s.features.kind[root];
  const token = kind === TOWER ? 2 : kind === HOUSE ? 3 : 0;
  return token !== 0 && usable(s, scorer, token) >= 0 ? token : 0;
}

/** The features to score next that share the first one's scorer, ascending; [] when that scores nobody. */
function nextGroup(s: Immutable<GameView>): { scorer: number; group: number[] } {
  const flow = s.flow;
  if (flow === null || flow.phase !== 'score' || flow.roots.length === 0) return { scorer: -1, group: [] };
  const first = scorerOf(s, flow.roots[0]!);
  if (first < 0) return { scorer: -1, group: [] };
  const group = flow.roots.length === 1 ? [flow.roots[0]!] : flow.roots.filter((r) => scorerOf(s, r) === first).sort((a, b) => a - b);
  return { scorer: first, group };
}

/** Whether the placing player has a choice to make about the next scoring (order or token). */
function scoreDecision(c: CastleRules, s: Immutable<GameView>): boolean {
  const flow = s.flow;
  if (flow !== null && flow.phase === 'score' && flow.roots.length === 1) {
    const roots = flow.roots;
    // One feature left (most scorings): a choice only when a token could double it.
    const scorer = scorerOf(s, roots[0]!);
    return scorer >= 0 && tokenFor(s, scorer, roots[0]!) !== 0;
  }
  const { scorer, group } = nextGroup(s);
  if (group.length === 0) return false;
  for (const root of group) if (tokenFor(s, scorer, root) !== 0) return true;
  return !orderIrrelevant(c, slice(s).wall, s.scores[scorer]!, group.map((r) => completedValue(s, r, false)));
}

/** The `castle/score` moves now (empty when nothing is left to decide). */
function scoreChoices(c: CastleRules, rules: Ruleset, s: Immutable<GameView>): Move[] {
  if (!scoreDecision(c, s)) return [];
  const { scorer: first, group } = nextGroup(s);
  const out: Move[] = [];
  for (const root of group) {
    const ref = refOf(rules, s, root);
    out.push({ type: 'castle/score', player: s.active, ...ref, token: 0 });
    const token = tokenFor(s, first, root);
    if (token !== 0) out.push({ type: 'castle/score', player: s.active, ...ref, token });
  }
  return out;
}

/** Final-token decisions still open: the first player and token that has a choice to make. */
function nextFinalChoice(c: CastleRules, s: Immutable<GameView>): { player: number; token: number; candidates: number[] } | null {
  const sl = slice(s);
  const g = s.features;
  for (let p = 0; p < 2; p++) {
    for (const token of [4, 5, 6, 7]) {
      if (token === 7 && c.config.marketToken === 'every-court') continue;
      const copies = heldCount(sl, p, token);
      if (copies === 0) continue;
      const chosen = sl.finals.filter((f) => f.player === p && f.token === token);
      if (chosen.length >= copies) continue;
      const kind = token === 4 ? PATH : token === 5 ? TOWER : token === 6 ? HOUSE : COURT;
      const taken = new Set(chosen.map((f) => f.root));
      const candidates = rootsWithFollowers(s, kind).filter(
        (r) => !taken.has(r) && scorerOf(s, r) === p && (kind === COURT ? g.pennants[r]! > 0 : g.open[r]! > 0),
      );
      // A choice only when there is one to make; otherwise the best (or nothing) applies by itself.
      if (candidates.length >= 2) return { player: p, token, candidates };
    }
  }
  return null;
}

/**
 * The slice at set-up: 13 of the 18 tokens face down onto the towers other than 0/1 (5 go back
 * unseen). The first towers (in layout order, skipping the one without a token) get the `chosen`
 * tokens of a game's definition (`newGame`'s `tokens`, checked by {@link chosenTokensError}); the
 * others are drawn with `random` from what is left, as they are with none chosen.
 */
function castleSetup(c: CastleRules, players: number, random: (n: number) => number, chosen: readonly number[]): CastleSlice {
  const pool: number[] = [...WALL_TOKENS];
  let next = 0;
  const wall = c.hasToken.map((has) => {
    if (!has) return 0;
    if (next < chosen.length) {
      const token = chosen[next++]!;
      pool.splice(pool.indexOf(token), 1);
      return token;
    }
    return pool.splice(random(pool.length), 1)[0]!;
  });
  return {
    wall,
    held: Array.from({ length: players }, () => []),
    taken: new Array<number>(9).fill(0),
    keep: new Array<KeepPlace | null>(players).fill(null),
    extraTurn: -1,
    majorityTurn: -1,
    pending: null,
    finals: [],
  };
}

/** Why `chosen` cannot be the first face-down wall tokens of a game, or null. */
function chosenTokensError(c: CastleRules, chosen: readonly unknown[]): string | null {
  const towers = c.hasToken.filter((has) => has).length;
  if (chosen.length > towers) return `${towers} towers hold a face-down token, got ${chosen.length} tokens`;
  const left = [0, ...WALL_TOKENS_PER_KIND];
  for (let i = 0; i < chosen.length; i++) {
    const t = chosen[i];
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > 9) return `tokens[${i}] must be a token kind from 1 to 9, got ${showValue(t)}`;
    if (--left[t]! < 0) return `token ${t} is listed more often than the ${WALL_TOKENS_PER_KIND[t - 1]} there are`;
  }
  return null;
}

/** The Castle's own rules as a module on the core's hooks (id `castle`). */
function rulesModule(c: CastleRules): Expansion & ChoosableSetup {
  return {
    id: 'castle',
    order: -1,
    options: {},
    actions: castleActions(c.config),
    setup(_rules: Ruleset, players: number, random: (n: number) => number): CastleSlice {
      return castleSetup(c, players, random, []);
    },
    setupChosen(_rules: Ruleset, players: number, random: (n: number) => number, chosen: readonly number[]) {
      const problem = chosenTokensError(c, chosen);
      return problem !== null ? problem : { slice: castleSetup(c, players, random, chosen) };
    },
    observe(value: unknown): unknown {
      const sl = value as CastleSlice;
      // Face-down tokens: both players see that one lies there, never which.
      sl.wall = sl.wall.map((t) => (t === 0 ? 0 : -1));
      return sl;
    },
    viewPart(rules: Ruleset, view: Immutable<GameView>, value: unknown): unknown {
      // For UIs: keeps and the features tokens were chosen for, by cell and feature id, not by
      // the engine's feature segments.
      const sl = value as CastleSlice;
      const { keep, pending, finals, ...rest } = sl;
      return {
        ...rest,
        keep: keep.map((k) => (k === null ? null : { ...refOf(rules, view, k.root), tiles: k.tiles })),
        pending: pending === null ? null : { ...refOf(rules, view, pending.root), token: pending.token },
        finals: finals.map((f) => ({ player: f.player, token: f.token, ...refOf(rules, view, f.root) })),
      };
    },
    scoringOrder(ctx: HookContext): 'wait' | void {
      // A concealed token taken by the last scoring is revealed before anyone decides anything.
      if (awaitReveal(ctx.state)) return 'wait';
      return orderScorings(c, ctx);
    },
    beforeTurnEnd(ctx: HookContext): 'wait' | void {
      if (awaitReveal(ctx.state)) return 'wait';
      return askExtraTurn(c, ctx);
    },
    chance: tokenChance(c),
    observation: {
      features(players) {
        const out: string[] = [];
        const who = (j: number): string => (j === 0 ? 'observer' : `observer+${j}`);
        for (let j = 0; j < players; j++) for (let k = 1; k <= 9; k++) out.push(`castle: token ${k} held by ${who(j)}`);
        for (let j = 0; j < players; j++) for (let k = 1; k <= 9; k++) out.push(`castle: token ${k} usable now by ${who(j)}`);
        for (let j = 0; j < players; j++) out.push(`castle: keep size of ${who(j)}`);
        for (let k = 1; k <= 9; k++) out.push(`castle: token ${k} taken so far`);
        out.push('castle: face-down tokens on the wall');
        return out;
      },
      write(_rules, view, observer, out, offset) {
        const sl = slice(view);
        const P = view.players;
        for (let j = 0; j < P; j++) {
          const p = (observer + j) % P;
          for (const h of sl.held[p]!) {
            if (h.token < 1) continue;
            out[offset + j * 9 + h.token - 1]! += 1;
            if (h.turn < view.turn) out[offset + 9 * P + j * 9 + h.token - 1]! += 1;
          }
          out[offset + 18 * P + j] = sl.keep[p]?.tiles ?? 0;
        }
        for (let k = 0; k < 9; k++) out[offset + 19 * P + k] = sl.taken[k]!;
        let down = 0;
        for (const t of sl.wall) if (t !== 0) down++;
        out[offset + 19 * P + 9] = down;
      },
    },
    nextPlayer(_rules: Ruleset, s: Immutable<GameView>): number | null {
      return slice(s).extraTurn === s.turn ? s.active : null;
    },
    beforeFinalScoring(ctx: HookContext): 'wait' | void {
      const next = nextFinalChoice(c, ctx.state);
      if (next === null) return;
      ctx.state.step = { kind: 'castle/final-token', player: next.player, token: next.token };
      return 'wait';
    },
    stepMoves(rules: Ruleset, s: Immutable<GameView>): Move[] {
      switch (s.step.kind) {
        case 'castle/score':
          return scoreChoices(c, rules, s);
        case 'castle/extra-turn':
          return extraTurnMoves(c, s);
        case 'castle/final-token': {
          const next = nextFinalChoice(c, s);
          if (next === null) return [];
          return next.candidates.map((r) => ({ type: 'castle/final-token', player: next.player, token: next.token, ...refOf(rules, s, r) }));
        }
        default:
          return [];
      }
    },
    play(ctx: HookContext, move: ExpansionMove): 'wait' | 'done' {
      const s = ctx.state;
      const sl = slice(s);
      const g = s.features;
      const rootOf = (m: ExpansionMove): number => {
        const t = tileAt(s, cellKey(m['x'] as number, m['y'] as number));
        const local = ctx.rules.tileById.get(s.tiles[t]!.id)!.localIndex[m['feature'] as string]!;
        return findRoot(g.parent, s.tiles[t]!.node + local);
      };
      if (move.type === 'castle/score') {
        const root = rootOf(move);
        const roots = s.flow!.roots;
        roots.splice(roots.indexOf(root), 1);
        roots.unshift(root);
        const token = move['token'] as number;
        sl.pending = token === 0 ? null : { root, token };
        return 'done';
      }
      if (move.type === 'castle/extra-turn') {
        if (move['use'] === true) {
          useToken(ctx, s.active, usable(s, s.active, 1));
          sl.extraTurn = s.turn;
        }
        return 'done';
      }
      // castle/final-token
      sl.finals.push({ player: move.player, token: move['token'] as number, root: rootOf(move) });
      const next = nextFinalChoice(c, s);
      if (next === null) return 'done';
      s.step = { kind: 'castle/final-token', player: next.player, token: next.token };
      return 'wait';
    },
  };
}

/** Puts the placing player's scorings first (then the opponent's, then those that score nobody) and asks about the order when it matters. */
function orderScorings(c: CastleRules, ctx: HookContext): 'wait' | void {
  const s = ctx.state;
  const roots = s.flow!.roots;
  if (roots.length > 1) {
    // Sorted by (rank, root) with keys packed as rank * 2^24 + root (roots are segment
    // indices, far below 2^24): an insertion sort of a handful of numbers, no closures.
    const keys: number[] = [];
    for (let i = 0; i < roots.length; i++) {
      const p = scorerOf(s, roots[i]!);
      const key = (p === s.active ? 0 : p >= 0 ? 1 : 2) * 0x1000000 + roots[i]!;
      let j = i;
      while (j > 0 && keys[j - 1]! > key) {
        keys[j] = keys[j - 1]!;
        j--;
      }
      keys[j] = key;
    }
    for (let i = 0; i < roots.length; i++) roots[i] = keys[i]! % 0x1000000;
  }
  if (!scoreDecision(c, s)) return;
  s.step = { kind: 'castle/score', player: s.active };
  return 'wait';
}

/** Asks the active player about wall token 1 at the end of the turn, when it can be used. */
function askExtraTurn(c: CastleRules, ctx: HookContext): 'wait' | void {
  const s = ctx.state;
  if (!mayTakeExtraTurn(c, s)) return;
  s.step = { kind: 'castle/extra-turn', player: s.active };
  return 'wait';
}

/** The step of the chance node that reveals a concealed token just taken (research states only). */
export const TOKEN_CHANCE_STEP = 'castle/token';

/** The held token whose kind is still concealed, as [player, index], or null. */
function concealedHeld(s: Immutable<GameView>): [number, number] | null {
  const held = slice(s).held;
  for (let p = 0; p < held.length; p++) {
    const list = held[p]!;
    for (let i = 0; i < list.length; i++) if (list[i]!.token < 0) return [p, i];
  }
  return null;
}

/** Sets the token chance node when a concealed token was just taken; whether it did. */
function awaitReveal(s: GameState): boolean {
  const sl = slice(s);
  // Fast path: nothing concealed was taken (the app API's states never hold one).
  if (sl.held[0]!.length + sl.held[1]!.length === 0 || concealedHeld(s) === null) return false;
  s.step = { kind: TOKEN_CHANCE_STEP, player: -1 };
  return true;
}

/** Copies of each token kind (index kind - 1) that are still unseen and not lying known on the wall. */
function unseenTokens(s: Immutable<GameView>): number[] {
  const sl = slice(s);
  const left = WALL_TOKENS_PER_KIND.map((n, k) => n - sl.taken[k]!);
  for (const t of sl.wall) if (t > 0) left[t - 1]!--;
  return left;
}

/** Copies of each token kind 1..9 in the game (index kind - 1): two each. */
const WALL_TOKENS_PER_KIND: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => WALL_TOKENS.filter((t) => t === k).length);

/**
 * The face-down wall tokens as chance (meeplekit/ai): concealed, a token's kind is decided when it
 * is taken, uniformly among the 18 tokens less those already taken face up (the other face-down
 * tokens and the 5 in the box are alike to both players).
 */
function tokenChance(c: CastleRules): NonNullable<Expansion['chance']> {
  return {
    maxOutcomes: 10,
    conceal(_rules, s) {
      const wall = slice(s).wall;
      for (let t = 0; t < wall.length; t++) if (wall[t]! > 0) wall[t] = -1;
    },
    redraw(_rules, s, random) {
      const sl = slice(s);
      const pool: number[] = [];
      unseenTokens(s).forEach((n, k) => {
        for (let i = 0; i < n; i++) pool.push(k + 1);
      });
      const draw = (): number => pool.splice(random(pool.length), 1)[0]!;
      for (let t = 0; t < sl.wall.length; t++) if (sl.wall[t]! < 0) sl.wall[t] = draw();
      // At the token's own chance node the token just taken stays to be revealed there (its
      // outcomes then weigh what is left unseen), so that the node keeps its outcomes.
      if (s.step.kind === TOKEN_CHANCE_STEP) return;
      for (let p = 0; p < sl.held.length; p++) {
        const list = sl.held[p]!;
        for (let i = 0; i < list.length; i++) {
          if (list[i]!.token >= 0) continue;
          const token = draw();
          list[i] = { token, turn: list[i]!.turn };
          sl.taken[token - 1]!++;
        }
      }
    },
    outcomes(_rules, s) {
      if (s.step.kind !== TOKEN_CHANCE_STEP || concealedHeld(s) === null) return [];
      const out: [number, number][] = [];
      unseenTokens(s).forEach((n, k) => {
        if (n > 0) out.push([k + 1, n]);
      });
      return out;
    },
    label: (outcome) => `token ${outcome}`,
    apply(ctx, outcome) {
      const s = ctx.state;
      const sl = slice(s);
      const at = concealedHeld(s)!;
      const list = sl.held[at[0]]!;
      list[at[1]] = { token: outcome, turn: list[at[1]]!.turn };
      sl.taken[outcome - 1]!++;
      // Go on with what the hook that paused for the reveal was about to do.
      const flow = s.flow;
      const next = flow !== null && flow.phase === 'score' ? orderScorings(c, ctx) : askExtraTurn(c, ctx);
      return next === 'wait' ? 'wait' : 'done';
    },
  };
}

/** Whether the active player may use wall token 1 now, at the end of the turn (a tile must be left to draw). */
function mayTakeExtraTurn(c: CastleRules, s: Immutable<GameView>): boolean {
  if (usable(s, s.active, 1) < 0) return false;
  if (c.config.extraTurn === 'needs-majority' && slice(s).majorityTurn !== s.turn) return false;
  const bag = s.bag;
  for (let i = 0; i < bag.length; i++) if (bag[i]! > 0) return true;
  return false;
}

/** The `castle/extra-turn` moves at the end of the active player's turn (wall token 1). */
function extraTurnMoves(c: CastleRules, s: Immutable<GameView>): Move[] {
  if (!mayTakeExtraTurn(c, s)) return [];
  return [
    { type: 'castle/extra-turn', player: s.active, use: false },
    { type: 'castle/extra-turn', player: s.active, use: true },
  ];
}

/** The Castle as a game module, from its options (validated). @internal */
export function castleGame(options: unknown): Result<GameModule, MeepleError> {
  const config = castleConfig(options);
  if (!config.ok) return config;
  const cfg = config.value;
  const c = new CastleRules(cfg);
  const layout = cfg.layout;
  // The play area as a mask indexed by packed cell key (from cell 0,0): one lookup per question.
  const origin = cellKey(0, 0);
  const mask = new Uint8Array(cellKey(layout.width - 1, layout.height - 1) - origin + 1);
  for (let y = 0; y < layout.height; y++) {
    for (let x = 0; x < layout.width; x++) if (layout.inside[y * layout.width + x] === 1) mask[cellKey(x, y) - origin] = 1;
  }
  const inside = (key: number): boolean => mask[key - origin] === 1;
  const tileIds = new Set(cfg.tiles.map((t) => t.id));
  for (const st of layout.startTiles) {
    if (tileIds.has(st.def.id)) return err(meepleError('options/castle-tiles', `tile id ${st.def.id} is reserved for a start field`));
  }
  const module: GameModule & { castle: CastleRules } = {
    game: 'castle',
    kinds: CASTLE_KINDS,
    tiles: [...cfg.tiles, ...layout.startTiles.map((st) => st.def)],
    minPlayers: 2,
    maxPlayers: 2,
    // 7 followers, one of which is the score marker (digest, Material).
    followers: 6,
    start: layout.startTiles.map((st) => ({ tile: st.def.id, x: st.x, y: st.y, rotation: 0 })),
    inside,
    rules: rulesModule(c),
    options: cfg.spec,
    idOptions: cfg.idOptions,
    deployable: ['path', 'tower', 'house', 'court'],
    scoreCompleted: (ctx, root) => c.scoreCompleted(ctx, root),
    finalScoring: (ctx) => c.finalScoring(ctx),
    castle: c,
  };
  return ok(module);
}

export type { CastleOptions } from './options.js';
