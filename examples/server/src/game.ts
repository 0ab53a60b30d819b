/**
 * A game in memory: its record, its log and the state the log leads to. The state (seed
 * included) stays here; clients get public views and deltas made from it.
 */
import { applyMove, legalMoves, newGame, publicView, undo, type GameState, type Move, type PublicView, type Ruleset, type GameEvent } from 'meeplekit';
import { rulesFor } from './config.js';
import { refusal, type Refusal } from './protocol.js';
import type { GameRecord, LogEntry } from './store.js';

export type Applied = { ok: true; state: GameState; events: readonly GameEvent[] } | { ok: false; refusal: Refusal };

export class LiveGame {
  readonly rules: Ruleset;
  readonly log: LogEntry[] = [];
  state: GameState;

  private constructor(readonly record: GameRecord) {
    const rules = rulesFor(record.config);
    if (!rules.ok) throw new Error(`stored game ${record.id}: ${rules.refusal.code} ${rules.refusal.message}`);
    this.rules = rules.rules;
    this.state = this.initial();
  }

  /** A game rebuilt from its record and log: each entry applied again (a replay). */
  static rebuild(record: GameRecord, log: readonly LogEntry[]): LiveGame {
    const game = new LiveGame(record);
    for (const entry of log) game.advance(entry);
    return game;
  }

  /** The game's version: entries in its log. */
  get version(): number {
    return this.log.length;
  }

  get over(): boolean {
    return this.state.step.kind === 'game-over';
  }

  private initial(): GameState {
    const game = newGame(this.rules, { players: this.record.config.players, seed: this.record.seed });
    if (!game.ok) throw new Error(`stored game ${this.record.id}: ${game.error.code}`);
    return game.value;
  }

  /** What `entry` would make of the current state, or the library's refusal; changes nothing. */
  tryEntry(entry: LogEntry, state: GameState = this.state): Applied {
    if (entry.type === 'move') {
      const next = applyMove(this.rules, state, entry.move as unknown);
      return next.ok ? { ok: true, state: next.value.state, events: next.value.events } : { ok: false, refusal: libraryRefusal(next.error) };
    }
    // Undo follows the documented policy for served games: nothing after which a draw was seen.
    const back = undo(this.rules, state, entry.count, { policy: 'before-draw' });
    return back.ok ? { ok: true, state: back.value, events: [] } : { ok: false, refusal: libraryRefusal(back.error) };
  }

  /** Appends an entry already stored (from this process or another) and moves the state on. */
  advance(entry: LogEntry, applied?: Applied): void {
    const next = applied ?? this.tryEntry(entry);
    if (!next.ok) throw new Error(`game ${this.record.id}: stored entry ${this.version + 1} refused (${next.refusal.code})`);
    this.log.push(entry);
    this.state = next.state;
  }

  /** The state at an earlier version, replayed from the start (for a client's resync). */
  stateAt(version: number): GameState {
    let state = this.initial();
    for (const entry of this.log.slice(0, version)) {
      const next = this.tryEntry(entry, state);
      if (!next.ok) throw new Error('unreachable: a stored entry refused');
      state = next.state;
    }
    return state;
  }

  view(viewer: number | null, state: GameState = this.state): PublicView {
    const view = publicView(this.rules, state, viewer);
    if (!view.ok) throw new Error(view.error.message);
    return view.value;
  }

  /** The moves the seat may make now, for the client that cannot compute them from a public view. */
  legalFor(seat: number | null): Move[] | undefined {
    const step = this.state.step;
    if (seat === null || step.kind === 'game-over' || step.player !== seat) return undefined;
    return legalMoves(this.rules, this.state);
  }

  /** How many of the last moves are `seat`'s: what it may take back (its own, and nothing since). */
  trailingMovesOf(seat: number): number {
    const moves = this.state.moves;
    let n = 0;
    while (n < moves.length && moves[moves.length - 1 - n]!.player === seat) n++;
    return n;
  }
}

/**
 * The library's refusal as sent to a client: its code and message. Games here have no chosen
 * draws, so no message names a tile to come (`draw/held-back`, positions-and-draws.md), and no
 * message holds the seed (the library never writes it in one; the tests scan for it).
 */
function libraryRefusal(error: { code: string; message: string }): Refusal {
  return refusal(error.code, error.message.slice(0, 300));
}
