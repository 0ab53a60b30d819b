/**
 * A game played in the page: the engine's state here, hot-seat humans and bots of
 * meeplekit/bots thinking in the Web Worker. The UI is shown the public view of the deciding
 * human (or, while a bot decides, of the last human who decided), never more. Every move is saved
 * (storage.ts). A bot's search is seeded from the game's seed and the number of moves played, so
 * a game replays the same. Undo takes back this page's own last move, with the policy
 * 'before-draw' (a move after which a tile was drawn or a token shown stays played).
 */
import { applyMove, isLegal, legalMoves, newGame, observe, publicView, undo, type GameEvent, type GameState, type GameView, type Immutable, type Move, type PublicView, type Ruleset } from 'meeplekit';
import { moveLabel } from './decisions.js';
import { eventLines } from './events.js';
import { rulesFor, type Checked, type GameConfig } from './rules.js';
import { Listeners, REVEALING_EVENTS, type Session, type SessionState } from './session.js';
import { save, type KeyValueStore } from './storage.js';
import type { BotWorker } from './worker-client.js';

/** Searches per hint or cost analysis. */
const ANALYSIS_ITERATIONS = 300;

/** Options of a local session. */
export interface LocalOptions {
  /** Where the game is saved after every move. */
  readonly store: KeyValueStore;
  /** The bots. */
  readonly bots: BotWorker;
  /** Milliseconds between a bot's answer and its move being played, so that players can follow. */
  readonly botDelay: number;
}

/** Starts a new local game. */
export function newLocalSession(config: GameConfig, options: LocalOptions): Checked<Session> {
  const rules = rulesFor(config.game, config.expansions);
  if (!rules.ok) return rules;
  const game = newGame(rules.value, { players: config.players, seed: config.seed });
  if (!game.ok) return { ok: false, message: `${game.error.code}: ${game.error.message}` };
  return { ok: true, value: new LocalSession(config, rules.value, game.value, options, ['New game.']) };
}

/** Resumes a local game (restored from storage). */
export function resumeLocalSession(config: GameConfig, rules: Ruleset, state: GameState, options: LocalOptions): Session {
  return new LocalSession(config, rules, state, options, [`Game restored after ${state.moves.length} moves.`]);
}

class LocalSession implements Session {
  readonly mode = 'local';
  readonly canAnalyse = true;
  readonly seats;
  readonly mySeats: number[];
  view: PublicView | null = null;
  board: Immutable<GameView> | null = null;
  state: SessionState = 'human';
  deciding: number | null = null;
  legal: Move[] = [];
  log: string[];
  error = '';
  readonly version = null;
  private readonly listeners = new Listeners();
  /** Bumped by every change: a bot's answer for an older position is dropped. */
  private generation = 0;
  private thinking: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private viewer: number | null;
  private closed = false;
  /** The events of the last move played here, or null when not known (a restored game, an undo). */
  private lastEvents: readonly GameEvent[] | null = null;
  /** Whether `undo()` may take the last move back now (checked after every change). */
  private undoable = false;

  /** Whether Undo can take the last move back now (see {@link Session.canUndo}). */
  get canUndo(): boolean {
    return this.undoable;
  }

  constructor(
    private readonly config: GameConfig,
    readonly rules: Ruleset,
    private game: GameState,
    private readonly options: LocalOptions,
    log: string[],
  ) {
    this.seats = config.seats;
    this.mySeats = config.seats.flatMap((s, i) => (s === 'human' ? [i] : []));
    this.viewer = this.mySeats[0] ?? null;
    this.log = log;
    this.refresh();
  }

  subscribe(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  /** Recomputes what the UI shows, saves, and asks a bot if one decides. */
  private refresh(): void {
    this.generation++;
    const step = this.game.step;
    this.deciding = step.kind === 'game-over' ? null : step.player;
    const human = this.deciding !== null && this.config.seats[this.deciding] === 'human';
    if (human) this.viewer = this.deciding;
    const view = publicView(this.rules, this.game, this.viewer);
    if (!view.ok) throw new Error(`${view.error.code}: ${view.error.message}`);
    this.view = view.value;
    this.board = observe(this.rules, this.game, this.viewer);
    this.state = this.deciding === null ? 'over' : human ? 'human' : 'bot';
    this.legal = human ? legalMoves(this.rules, this.game) : [];
    this.undoable = this.undoNow();
    save(this.options.store, this.config, this.game);
    this.listeners.emit();
    if (this.state === 'bot') this.askBot();
  }

  private askBot(): void {
    const seat = this.deciding!;
    const kind = this.config.seats[seat];
    if (kind === undefined || kind === 'human') return;
    const generation = this.generation;
    const asked = this.options.bots.move({
      game: this.config.game,
      expansions: this.config.expansions,
      state: this.game,
      level: kind.bot,
      seed: `${this.config.seed}/bot/${this.game.moves.length}`,
    });
    this.thinking = asked.id;
    void asked.reply.then((reply) => {
      if (this.closed || generation !== this.generation) return;
      this.thinking = null;
      if (!reply.ok) {
        this.error = `The bot failed (${reply.error.code}): ${reply.error.message}`;
        this.listeners.emit();
        return;
      }
      if (!isLegal(this.rules, this.game, reply.move)) {
        this.error = `The bot answered an illegal move: ${JSON.stringify(reply.move)}`;
        this.listeners.emit();
        return;
      }
      const play = (): void => {
        this.timer = null;
        if (!this.closed && generation === this.generation) this.play(reply.move);
      };
      if (this.options.botDelay > 0) this.timer = setTimeout(play, this.options.botDelay);
      else play();
    });
  }

  /**
   * Whether this page may take the last move back: a human seat's move (a bot's stays played),
   * before the game's end, within the policy 'before-draw': read off the move's events when they
   * are known (a tile drawn, a token shown), else asked of the engine (which replays the game).
   */
  private undoNow(): boolean {
    const last = this.game.moves.at(-1);
    if (last === undefined || this.deciding === null || this.config.seats[last.player] !== 'human') return false;
    if (this.lastEvents !== null) return !this.lastEvents.some((e) => REVEALING_EVENTS.has(e.type));
    return undo(this.rules, this.game, 1, { policy: 'before-draw' }).ok;
  }

  private play(move: Move): boolean {
    const label = this.view === null ? move.type : moveLabel(this.rules, this.view, move);
    const next = applyMove(this.rules, this.game, move);
    if (!next.ok) {
      this.error = `Refused (${next.error.code}): ${next.error.message}`;
      this.listeners.emit();
      return false;
    }
    this.error = '';
    this.game = next.value.state;
    this.lastEvents = next.value.events;
    if (move.type !== 'place') this.log.push(`Player ${move.player + 1}: ${label}`);
    this.log.push(...eventLines(next.value.events));
    this.refresh();
    return true;
  }

  submit(move: Move): void {
    if (this.state !== 'human' || move.player !== this.deciding) {
      this.error = 'It is not your turn to decide.';
      this.listeners.emit();
      return;
    }
    this.play(move);
  }

  undo(): void {
    const last = this.game.moves.at(-1);
    if (last === undefined) {
      this.error = 'Nothing to undo.';
      this.listeners.emit();
      return;
    }
    if (this.config.seats[last.player] !== 'human') {
      this.error = "Undo takes back your own last move only: a bot's move stays played.";
      this.listeners.emit();
      return;
    }
    const back = undo(this.rules, this.game, 1, { policy: 'before-draw', events: true });
    if (!back.ok) {
      this.error = `Cannot undo (${back.error.code}): ${back.error.message}`;
      this.listeners.emit();
      return;
    }
    this.error = '';
    this.game = back.value.state;
    this.lastEvents = null;
    this.log.push(...eventLines(back.value.events));
    this.refresh();
  }

  async hint(): Promise<{ readonly move: Move | null; readonly text: string }> {
    if (this.state !== 'human' || this.view === null) return { move: null, text: 'A hint is for your own decision.' };
    const view = this.view;
    const reply = await this.options.bots.analyse({
      game: this.config.game,
      expansions: this.config.expansions,
      state: this.game,
      iterations: ANALYSIS_ITERATIONS,
      seed: `${this.config.seed}/hint/${this.game.moves.length}`,
    });
    if (!reply.ok) return { move: null, text: `No hint (${reply.error.code}): ${reply.error.message}` };
    return { move: reply.best, text: `Hint: ${moveLabel(this.rules, view, reply.best)} (expected margin ${signed(reply.margin)} points).` };
  }

  async cost(): Promise<string> {
    // The state before this page's last move, and that move.
    let back = 0;
    for (let i = this.game.moves.length - 1; i >= 0; i--) {
      back++;
      if (this.config.seats[this.game.moves[i]!.player] === 'human') break;
      if (i === 0) back = 0;
    }
    if (back === 0) return 'You have not moved yet.';
    const played = this.game.moves[this.game.moves.length - back]!;
    const before = undo(this.rules, this.game, back);
    if (!before.ok) return `No analysis (${before.error.code}).`;
    const view = publicView(this.rules, before.value, played.player);
    const reply = await this.options.bots.analyse({
      game: this.config.game,
      expansions: this.config.expansions,
      state: before.value,
      iterations: ANALYSIS_ITERATIONS,
      seed: `${this.config.seed}/cost/${before.value.moves.length}`,
      played,
    });
    if (!reply.ok) return `No analysis (${reply.error.code}): ${reply.error.message}`;
    const words = view.ok ? moveLabel(this.rules, view.value, played) : played.type;
    const best = view.ok ? moveLabel(this.rules, view.value, reply.best) : reply.best.type;
    if (reply.cost === null) return `Your move (${words}) was not among the moves the search looked at; its best was: ${best}.`;
    if (reply.cost <= 0.05) return `Your move (${words}) was as good as the search's best.`;
    return `Your move (${words}) cost about ${reply.cost.toFixed(1)} points against the best: ${best}.`;
  }

  close(): void {
    this.closed = true;
    this.generation++;
    if (this.thinking !== null) this.options.bots.stop(this.thinking);
    if (this.timer !== null) clearTimeout(this.timer);
  }
}

function signed(n: number): string {
  return `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;
}
