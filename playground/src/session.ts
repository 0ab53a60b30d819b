/**
 * What the page's UI consumes: a session, local (the engine in the page, bots in a worker) or
 * online (a WebSocket to the reference server). The UI never touches a game state: it draws the
 * session's public view, offers its legal moves, and calls submit, undo, hint and cost.
 */
import type { GameView, Immutable, Move, PublicView, Ruleset } from 'meeplekit';
import type { SeatKind } from './rules.js';

/** What the page shows in `#status`'s `data-state`. */
export type SessionState = 'connecting' | 'human' | 'bot' | 'waiting' | 'over';

/** A game being played, as the UI sees it. */
export interface Session {
  /** `'local'` or `'online'`. */
  readonly mode: 'local' | 'online';
  /** The rules (null online until the first view names them). */
  readonly rules: Ruleset | null;
  /** The view drawn: the deciding local human's, or the last local human's; never another player's hidden information. */
  readonly view: PublicView | null;
  /**
   * What the board is drawn from and the legal cells computed from: the same view's observation
   * locally (`observe` for the same viewer: the same picture as from the view, and much faster
   * to draw, since the renderer need not rebuild the feature graph), the view itself online.
   */
  readonly board: Immutable<GameView> | PublicView | null;
  /** Who plays each seat (online: from the server's `joined`). */
  readonly seats: readonly SeatKind[];
  /** The seats this page's user plays. */
  readonly mySeats: readonly number[];
  /** `'human'`: a seat of this page decides and `legal` lists its moves; `'bot'`: a bot thinks; `'waiting'`: another player (online); `'over'`. */
  readonly state: SessionState;
  /** The seat that decides, or null at the end. */
  readonly deciding: number | null;
  /** The legal moves of the deciding seat when it is this page's; empty otherwise. */
  readonly legal: readonly Move[];
  /** The event log, oldest first. */
  readonly log: readonly string[];
  /** The last refusal or error, or '' when none. */
  readonly error: string;
  /** The server's version of the game (online), or null. */
  readonly version: number | null;
  /** Whether `hint` and `cost` are available (local play only). */
  readonly canAnalyse: boolean;
  /** Plays a move of the deciding local seat; a refusal shows in `error`. */
  submit(move: Move): void;
  /**
   * Whether `undo` can take a move back now: the last move was a seat of this page's own (online:
   * this page's seat; locally: a human seat, never a bot's), and the undo policy ('before-draw')
   * allows it (no tile drawn and nothing hidden shown since). The page enables Undo by it.
   */
  readonly canUndo: boolean;
  /** Takes back this page's last move, within the undo policy ('before-draw'); a refusal shows in `error`. */
  undo(): void;
  /** The search's best move now, with words for it. */
  hint(): Promise<{ readonly move: Move | null; readonly text: string }>;
  /** What this page's last move cost against the best one, in words. */
  cost(): Promise<string>;
  /** Calls `listener` after every change; returns a function that stops it. */
  subscribe(listener: () => void): () => void;
  /** Ends the session (stops bots, closes the connection). */
  close(): void;
}

/** A set of listeners, for sessions. */
export class Listeners {
  private readonly all = new Set<() => void>();
  /** Adds one; returns its remover. */
  add(listener: () => void): () => void {
    this.all.add(listener);
    return () => this.all.delete(listener);
  }
  /** Calls them all. */
  emit(): void {
    for (const l of [...this.all]) l();
  }
}

/**
 * Events after which a move cannot be taken back under the undo policy 'before-draw': a tile
 * drawn (or drawn and discarded), a face-down wall token of The Castle taken or cleared.
 */
export const REVEALING_EVENTS: ReadonlySet<string> = new Set(['tile-drawn', 'tile-discarded', 'castle/token-taken', 'castle/wall-cleared']);
