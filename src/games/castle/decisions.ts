/**
 * The Castle's decisions of a turn: the placing player's order of scorings and tokens 2 and 3
 * (offered only when they matter), the final-token choices, and the extra turn of wall token 1.
 */
import { sortShort } from '../../core/board.js';
import type { HookContext } from '../../core/expansion.js';
import { featureRef } from '../../core/engine/scoring.js';
import type { GameView, Move } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import type { Ruleset } from '../../core/ruleset.js';
import { PATH, TOWER, HOUSE, COURT, slice, scorerOf, completedValue, heldCount, usable, CastleRules, rootsWithFollowers } from './rules.js';

/** Names feature `root` the way moves do. */
export function refOf(rules: Ruleset, s: Immutable<GameView>, root: number): { x: number; y: number; feature: string } {
  const r = featureRef(rules, s, root);
  return { x: r.x, y: r.y, feature: r.feature };
}

/** Whether every order of scoring `amounts` from `score` takes the same tokens. */
function orderIrrelevant(c: CastleRules, wall: readonly number[], score: number, amounts: readonly number[]): boolean {
  if (amounts.length < 2) return true;
  if (amounts.length > 6) return false;
  // Sets as bit masks: the amounts scored so far (one bit per index) and the towers hit (one bit
  // per tower: the wall has TOWERS = 14). `first` is the towers the first order tried hits.
  const all = (1 << amounts.length) - 1;
  let first = -1;
  const perm = (used: number, at: number, hits: number): boolean => {
    if (used === all) {
      if (first < 0) first = hits;
      return hits === first;
    }
    for (let i = 0; i < amounts.length; i++) {
      if ((used & (1 << i)) !== 0) continue;
      const next = at + amounts[i]!;
      const t = c.towerHit(wall, next);
      if (!perm(used | (1 << i), next, t >= 0 ? hits | (1 << t) : hits)) return false;
    }
    return true;
  };
  return perm(0, score, 0);
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

/**
 * Whether the placing player has a choice to make about the next scoring (order or token), when
 * `group` ({@link nextGroup}) is scored next for `scorer`.
 */
function scoreDecision(c: CastleRules, s: Immutable<GameView>, scorer: number, group: readonly number[]): boolean {
  if (group.length === 0) return false;
  // A token that could double one of them is a choice; with one feature (most scorings), the only one.
  for (const root of group) if (tokenFor(s, scorer, root) !== 0) return true;
  return !orderIrrelevant(c, slice(s).wall, s.scores[scorer]!, group.map((r) => completedValue(s, r, false)));
}

/** The `castle/score` moves now (empty when nothing is left to decide). */
export function scoreChoices(c: CastleRules, rules: Ruleset, s: Immutable<GameView>): Move[] {
  const { scorer: first, group } = nextGroup(s);
  if (!scoreDecision(c, s, first, group)) return [];
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
export function nextFinalChoice(c: CastleRules, s: Immutable<GameView>): { player: number; token: number; candidates: number[] } | null {
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

/** Puts the placing player's scorings first (then the opponent's, then those that score nobody) and asks about the order when it matters. */
export function orderScorings(c: CastleRules, ctx: HookContext): 'wait' | void {
  const s = ctx.state;
  const roots = s.flow!.roots;
  if (roots.length === 1) {
    const scorer = scorerOf(s, roots[0]!);
    // Most completed features hold no follower: nobody scores them, nothing to decide.
    if (scorer < 0 || !scoreDecision(c, s, scorer, roots)) return;
  } else {
    // Sorted by (rank, root) with keys packed as rank * 2^24 + root (roots are segment
    // indices, far below 2^24), in place (a handful of numbers, no comparator), then the keys
    // unpacked below.
    for (let i = 0; i < roots.length; i++) {
      const p = scorerOf(s, roots[i]!);
      roots[i] = (p === s.active ? 0 : p >= 0 ? 1 : 2) * 0x1000000 + roots[i]!;
    }
    sortShort(roots);
    // The group scored next (nextGroup's): the leading roots of the first one's rank, which
    // share its scorer (the rank names it: two players) and are ascending already.
    const rank = Math.floor(roots[0]! / 0x1000000);
    let n = 0;
    while (n < roots.length && Math.floor(roots[n]! / 0x1000000) === rank) n++;
    for (let i = 0; i < roots.length; i++) roots[i] = roots[i]! % 0x1000000;
    const scorer = rank === 0 ? s.active : rank === 1 ? 1 - s.active : -1;
    // Nobody scores the first (nor any after it): nothing to decide.
    if (scorer < 0 || !scoreDecision(c, s, scorer, n === roots.length ? roots : roots.slice(0, n))) return;
  }
  s.step = { kind: 'castle/score', player: s.active };
  return 'wait';
}

/** Asks the active player about wall token 1 at the end of the turn, when it can be used. */
export function askExtraTurn(c: CastleRules, ctx: HookContext): 'wait' | void {
  const s = ctx.state;
  if (!mayTakeExtraTurn(c, s)) return;
  s.step = { kind: 'castle/extra-turn', player: s.active };
  return 'wait';
}

/** Whether the active player may use wall token 1 now, at the end of the turn (a tile must be left to draw). */
function mayTakeExtraTurn(c: CastleRules, s: Immutable<GameView>): boolean {
  if (usable(s, s.active, 1) < 0) return false;
  if (c.config.extraTurn === 'needs-majority' && slice(s).majorityTurn !== s.turn) return false;
  return s.bagSize > 0;
}

/** The `castle/extra-turn` moves at the end of the active player's turn (wall token 1). */
export function extraTurnMoves(c: CastleRules, s: Immutable<GameView>): Move[] {
  if (!mayTakeExtraTurn(c, s)) return [];
  return [
    { type: 'castle/extra-turn', player: s.active, use: false },
    { type: 'castle/extra-turn', player: s.active, use: true },
  ];
}
