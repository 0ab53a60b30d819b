/**
 * The playground's messages to its bot worker: the moves of examples/bot-messages.ts (a bot's
 * move, a stop), unchanged, plus an analysis for the hint and "what did my move cost" buttons.
 */
import type { GameState, Move } from 'meeplekit';
import type { BotReply, BotRequest, MoveRequest } from '../../examples/bot-messages.js';

/** Analyse the decision at `state` (meeplekit/bots' `analyse`); with `played`, also what that move cost. */
export interface AnalyseRequest {
  readonly type: 'analyse';
  readonly id: number;
  readonly game: MoveRequest['game'];
  readonly expansions: readonly string[];
  readonly state: GameState;
  readonly iterations: number;
  readonly seed: string;
  readonly played?: Move;
}

/** The answer to an analysis: the best move, its expected margin, and the cost of `played` (points, or null if it was not searched). */
export type AnalyseReply =
  | {
      readonly id: number;
      readonly ok: true;
      readonly kind: 'analysis';
      readonly best: Move;
      readonly margin: number;
      readonly playedMargin: number | null;
      readonly cost: number | null;
    }
  | { readonly id: number; readonly ok: false; readonly kind: 'analysis'; readonly error: { readonly code: string; readonly message: string } };

/** What the page posts. */
export type PlaygroundRequest = BotRequest | AnalyseRequest;
/** What the worker posts back. */
export type PlaygroundReply = BotReply | AnalyseReply;
