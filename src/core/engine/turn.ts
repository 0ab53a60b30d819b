/**
 * The rest of a turn after its action: the modules' reactions (`afterAction`), scoring what the
 * tile completed (with the modules' scoring hooks, which may pause it for decisions), the
 * `beforeTurnEnd` hooks, then the next player and the next draw. `resumeTurn` goes on from
 * `state.flow` after a module's decision.
 */
import type { Emit } from '../events.js';
import { findRoot, tileCount } from '../features.js';
import type { ScoringContext } from '../game.js';
import type { Ruleset } from '../ruleset.js';
import type { GameState } from '../state.js';
import { drawTile } from './draw.js';
import { resumeFinal } from './game-end.js';
import { featureRef, followersOn } from './scoring.js';

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
export function finishTurn(rules: Ruleset, s: GameState, emit: Emit): void {
  // Expansions may react to the action before anything is scored (the dragon's flight).
  if (runHooks(rules, s, emit, rules.hooks.afterAction, 'react')) scoreTurn(rules, s, emit);
}

/**
 * Runs the hooks of a pausable moment in order (`react`: afterAction; `end`: beforeTurnEnd) and
 * says whether the turn goes on. Most turns nobody waits: the turn's flow is recorded only when a
 * hook pauses the turn for a decision (`resumeTurn` goes on from the next hook).
 */
function runHooks(rules: Ruleset, s: GameState, emit: Emit, hooks: readonly ((ctx: ScoringContext) => 'wait' | void)[], phase: 'react' | 'end'): boolean {
  if (hooks.length === 0) return true;
  const ctx: ScoringContext = { rules, state: s, emit };
  for (let i = 0; i < hooks.length; i++) {
    if (hooks[i]!(ctx) === 'wait') {
      s.flow = { phase, roots: [], hook: i + 1, completed: [] };
      return false;
    }
  }
  return true;
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
  if (runHooks(rules, s, emit, rules.hooks.beforeTurnEnd, 'end')) endTurn(rules, s, emit);
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

/**
 * Ends a set-up placement (a start tile that gave way, laid on turn 0: see `Expansion.startYields`):
 * no follower was deployed and nothing is scored; the turn passes back to the same player, who
 * draws the first turn's tile. @internal
 */
export function endSetupPlacement(rules: Ruleset, s: GameState, emit: Emit): void {
  closeTurnRecord(rules, s, emit);
  startTurn(rules, s, emit, s.active);
}

/** Ends the turn: passes it on and draws the next tile. */
function endTurn(rules: Ruleset, s: GameState, emit: Emit): void {
  closeTurnRecord(rules, s, emit);
  let next = (s.active + 1) % s.players;
  const pick = rules.hooks.nextPlayer;
  for (let i = 0; i < pick.length; i++) {
    const p = pick[i]!(rules, s);
    if (p !== null) {
      next = p;
      break;
    }
  }
  startTurn(rules, s, emit, next);
}

/** The end of a turn's record: the watch list trimmed, `turn-ended`. */
function closeTurnRecord(rules: Ruleset, s: GameState, emit: Emit): void {
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
}

/** Starts player `next`'s turn: the turn count, the modules' `turnStart`, the draw. */
function startTurn(rules: Ruleset, s: GameState, emit: Emit, next: number): void {
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
