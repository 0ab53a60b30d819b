/**
 * The Castle's face-down wall tokens: dealing them at set-up (or as chosen), and, in research
 * states, concealing them and revealing each at a chance node when it is taken.
 */
import type { Expansion } from '../../core/expansion.js';
import { showValue } from '../../core/errors.js';
import type { GameState, GameView } from '../../core/state.js';
import type { Immutable } from '../../core/types.js';
import { WALL_TOKENS, type CastleSlice, type KeepPlace } from './state.js';
import { orderScorings, askExtraTurn } from './decisions.js';
import { slice, CastleRules } from './rules.js';

/**
 * The slice at set-up: 13 of the 18 tokens face down onto the towers other than 0/1 (5 go back
 * unseen). The first towers (in layout order, skipping the one without a token) get the `chosen`
 * tokens of a game's definition (`newGame`'s `tokens`, checked by {@link chosenTokensError}); the
 * others are drawn with `random` from what is left, as they are with none chosen.
 */
export function castleSetup(c: CastleRules, players: number, random: (n: number) => number, chosen: readonly number[]): CastleSlice {
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
    takenOrder: [],
    keep: new Array<KeepPlace | null>(players).fill(null),
    extraTurn: -1,
    majorityTurn: -1,
    pending: null,
    finals: [],
  };
}

/** Why `chosen` cannot be the first face-down wall tokens of a game, or null. */
export function chosenTokensError(c: CastleRules, chosen: readonly unknown[]): string | null {
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
export function awaitReveal(s: GameState): boolean {
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

/** The value at `path` inside untrusted JSON, or undefined. */
function readPath(value: unknown, path: readonly (string | number)[]): unknown {
  let v = value;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

/** Copies of each token kind 1..9 in the game (index kind - 1): two each. */
const WALL_TOKENS_PER_KIND: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => WALL_TOKENS.filter((t) => t === k).length);

/**
 * The face-down wall tokens as chance (meeplekit/ai): concealed, a token's kind is decided when it
 * is taken, uniformly among the 18 tokens less those already taken face up (the other face-down
 * tokens and the 5 in the box are alike to both players).
 */
export function tokenChance(c: CastleRules): NonNullable<Expansion['chance']> {
  return {
    maxOutcomes: 10,
    conceal(_rules, s) {
      const wall = slice(s).wall;
      for (let t = 0; t < wall.length; t++) if (wall[t]! > 0) wall[t] = -1;
    },
    redraw(_rules, s, random) {
      const sl = slice(s);
      // The unseen tokens as counts per kind; a draw takes the i-th of them in kind order (the
      // token a list of them all, in kind order, would give at i), and one fewer is left.
      const left = unseenTokens(s);
      let size = 0;
      for (let k = 0; k < left.length; k++) {
        if (left[k]! < 0) left[k] = 0;
        size += left[k]!;
      }
      const draw = (): number => {
        let i = random(size--);
        let k = 0;
        while (i >= left[k]!) i -= left[k++]!;
        left[k]!--;
        return k + 1;
      };
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
          sl.takenOrder.push(token);
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
    recorded(_rules, replay, stored) {
      if (concealedHeld(replay) === null) return null;
      // The token just taken is the next one in the order the state says tokens were taken.
      const token = readPath(stored, ['ext', 'castle', 'takenOrder', slice(replay).takenOrder.length]);
      return typeof token === 'number' && Number.isInteger(token) && token >= 1 && token <= 9 ? token : null;
    },
    restore(_rules, replay, stored) {
      const wall = slice(replay).wall;
      const theirs = readPath(stored, ['ext', 'castle', 'wall']);
      if (!Array.isArray(theirs) || theirs.length !== wall.length) return 'the wall tokens must be an array with one entry per tower';
      for (let t = 0; t < wall.length; t++) {
        const token: unknown = theirs[t];
        // Only a token the replay left face down may be told; the others are compared as they are.
        if (wall[t] !== -1 || token === -1) continue;
        if (typeof token !== 'number' || !Number.isInteger(token) || token < 1 || token > 9) return `wall token ${t} must be -1 (concealed) or a kind from 1 to 9`;
        wall[t] = token;
      }
      // Decided face-down tokens are drawn from those nobody has seen: never more than there are.
      if (unseenTokens(replay).some((n) => n < 0)) return 'the face-down wall tokens hold more copies of a kind than the game has';
      return null;
    },
    apply(ctx, outcome) {
      const s = ctx.state;
      const sl = slice(s);
      const at = concealedHeld(s)!;
      const list = sl.held[at[0]]!;
      list[at[1]] = { token: outcome, turn: list[at[1]]!.turn };
      sl.taken[outcome - 1]!++;
      sl.takenOrder.push(outcome);
      // Go on with what the hook that paused for the reveal was about to do.
      const flow = s.flow;
      const next = flow !== null && flow.phase === 'score' ? orderScorings(c, ctx) : askExtraTurn(c, ctx);
      return next === 'wait' ? 'wait' : 'done';
    },
  };
}
