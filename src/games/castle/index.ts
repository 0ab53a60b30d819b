/**
 * Carcassonne: The Castle (Reiner Knizia), two players inside a walled board, on the shared core.
 * Rules: the Castle digest, with the Czech rulebook of The Castle as the
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
import { findRoot } from '../../core/features.js';
import type { GameModule } from '../../core/game.js';
import type { Expansion, HookContext } from '../../core/expansion.js';
import { meepleError, type MeepleError } from '../../core/errors.js';
import type { ChoosableSetup } from '../../core/engine/setup.js';
import { err, ok, type Result } from '../../core/result.js';
import type { ExpansionMove, GameView, Move } from '../../core/state.js';
import { cellKey } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import type { Ruleset } from '../../core/ruleset.js';
import { CASTLE_KINDS } from './kinds.js';
import { castleConfig } from './options.js';
import type { CastleLayout } from './data.js';
import { tileAt } from '../../core/board.js';
import { castleActions } from './actions.js';
import { type CastleSlice } from './state.js';
import { refOf, scoreChoices, nextFinalChoice, orderScorings, askExtraTurn, extraTurnMoves } from './decisions.js';
import { slice, usable, useToken, CastleRules, castleOf } from './rules.js';
import { castleSetup, chosenTokensError, awaitReveal, tokenChance } from './tokens.js';
import { castleScoreBounds } from './bounds.js';

export { WALL_TOKENS, type CastleSlice, type HeldToken, type KeepPlace, type CastleScoreMove, type CastleExtraTurnMove, type CastleFinalTokenMove, type CastleMove } from './state.js';
export { largestEmptyArea, castleOf } from './rules.js';
export { TOKEN_CHANCE_STEP } from './tokens.js';

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
        const local = ctx.rules.tiles[s.tiles[t]!.kind]!.localIndex[m['feature'] as string]!;
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
    // Its rules module's points (keep, courts, tokens) are part of this share.
    scoreBounds: (rules) => castleScoreBounds(rules, cfg),
    castle: c,
  };
  return ok(module);
}

export type { CastleOptions } from './options.js';
