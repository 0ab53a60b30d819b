/**
 * A game played through the reference server (examples/server, its README's protocol 1): a
 * WebSocket; join with the game id and a seat token; a whole view, then a delta after every move,
 * applied with applyViewDelta (a delta that does not apply asks for a resync); the seat's legal
 * moves come with them when it decides; a move or an undo is sent with the version the view
 * shows; a refusal shows in `error`; a dropped connection reconnects and joins again with the last
 * version seen, catching up with one delta. Hints need the game's state, which never leaves the
 * server: online, `canAnalyse` is false.
 */
import { applyViewDelta, type GameEvent, type Move, type PublicView, type Ruleset } from 'meeplekit';
import { eventLines } from './events.js';
import { rulesFromId, type GameConfig, type SeatKind } from './rules.js';
import { Listeners, REVEALING_EVENTS, type Session, type SessionState } from './session.js';

/** An invitation to a seat of a game this page created: the link that joins it. */
export interface Invite {
  readonly seat: number;
  readonly url: string;
}

/** The online session, with what only it has. */
export interface OnlineSession extends Session {
  /** The game's id once known. */
  readonly game: string | null;
  /** Links for the other human seats of a game this page created. */
  readonly invites: readonly Invite[];
  /** This seat's own link (to come back from another device). */
  readonly ownUrl: string | null;
}

/** Where to connect and what to join or create. */
export interface OnlineOptions {
  /** `ws://host:port`. */
  readonly server: string;
  /** Join this game with this seat token (both from a link)... */
  readonly join?: { readonly game: string; readonly token: string | null };
  /** ...or create this game and join its first human seat. */
  readonly create?: GameConfig;
  /** Makes the link of a seat of a game (the page's own URL with `game` and `seat`). */
  readonly linkFor: (game: string, token: string) => string;
  /** Called once the game and this page's seat token are known (to put them in the address bar). */
  readonly onJoin?: (game: string, token: string | null) => void;
}

/** Starts an online session. */
export function onlineSession(options: OnlineOptions): OnlineSession {
  return new Online(options);
}

type Message = Record<string, unknown>;

class Online implements OnlineSession {
  readonly mode = 'online';
  readonly canAnalyse = false;
  rules: Ruleset | null = null;
  view: PublicView | null = null;
  get board(): PublicView | null {
    return this.view;
  }
  seats: SeatKind[] = [];
  mySeats: number[] = [];
  state: SessionState = 'connecting';
  deciding: number | null = null;
  legal: Move[] = [];
  log: string[] = [];
  error = '';
  version: number | null = null;
  game: string | null;
  invites: Invite[] = [];
  ownUrl: string | null = null;
  private token: string | null;
  private socket: WebSocket | null = null;
  private readonly listeners = new Listeners();
  private closed = false;
  private retry = 500;
  private created = false;
  /** Whether the shown error is about the connection (cleared once the session has rejoined). */
  private connectionError = false;
  /** Between a `joined` and the view or update that follows it. */
  private rejoining = false;
  /**
   * Whether something left to chance came to light after the last move (a tile drawn, a wall
   * token taken or cleared), as far as this page can tell: from the move's events when the view
   * came one move at a time; else assumed when a tile waits to be placed, or when the rules hide
   * anything (The Castle) and the step is past the deployment.
   */
  private revealed = false;

  /**
   * Whether Undo may be sent: the last move is this page's seat's own (the server refuses taking
   * back another player's, `server/undo-not-yours`), no tile was drawn and nothing hidden shown
   * since (the policy 'before-draw' refuses, `undo/draw-seen`), and the game is not over.
   */
  get canUndo(): boolean {
    const seat = this.mySeats[0];
    const view = this.view;
    if (seat === undefined || view === null || view.last === null || view.last.player !== seat || view.step.kind === 'game-over') return false;
    return !this.revealed;
  }

  constructor(private readonly options: OnlineOptions) {
    this.game = options.join?.game ?? null;
    this.token = options.join?.token ?? null;
    this.log.push(`Connecting to ${options.server}...`);
    this.connect();
  }

  subscribe(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  private changed(): void {
    const step = this.view?.step;
    this.deciding = step === undefined || step.kind === 'game-over' ? null : step.player;
    const seat = this.mySeats[0];
    if (this.view === null) this.state = 'connecting';
    else if (this.deciding === null) this.state = 'over';
    else if (seat !== undefined && this.deciding === seat && this.legal.length > 0) this.state = 'human';
    else this.state = this.seats[this.deciding] === 'human' || this.seats[this.deciding] === undefined ? 'waiting' : 'bot';
    if (this.state !== 'human') this.legal = [];
    this.listeners.emit();
  }

  private connect(): void {
    if (this.closed) return;
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.options.server);
    } catch (e) {
      this.error = `Cannot connect to ${this.options.server}: ${String(e)}`;
      this.connectionError = true;
      this.changed();
      return;
    }
    this.socket = socket;
    socket.onmessage = (event) => {
      let message: unknown;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (typeof message === 'object' && message !== null) this.receive(message as Message);
    };
    socket.onclose = () => {
      if (this.closed || this.socket !== socket) return;
      this.socket = null;
      this.log.push('Connection lost: reconnecting...');
      this.changed();
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
    socket.onerror = () => {
      this.error = `No connection to ${this.options.server}.`;
      this.connectionError = true;
      this.changed();
    };
  }

  private send(message: Message): void {
    if (this.socket !== null && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    else {
      this.error = 'Not connected: try again in a moment.';
      this.connectionError = true;
      this.changed();
    }
  }

  private join(): void {
    if (this.game === null) return;
    this.send({
      type: 'join',
      game: this.game,
      ...(this.token === null ? {} : { token: this.token }),
      ...(this.version === null || this.view === null ? {} : { version: this.version }),
    });
  }

  private receive(m: Message): void {
    switch (m['type']) {
      case 'hello': {
        this.retry = 500;
        const create = this.options.create;
        if (this.game === null && create !== undefined && !this.created) {
          this.send({
            type: 'create',
            config: { game: create.game, expansions: create.expansions, options: {}, players: create.players },
            seats: create.seats.map((s) => (s === 'human' ? 'human' : { bot: s.bot })),
          });
        } else this.join();
        return;
      }
      case 'created': {
        this.created = true;
        const seats = Array.isArray(m['seats']) ? (m['seats'] as Message[]) : [];
        this.game = String(m['game']);
        const humans = seats.filter((s) => typeof s['token'] === 'string');
        this.token = (humans[0]?.['token'] as string | undefined) ?? null;
        this.invites = humans.slice(1).map((s) => ({ seat: Number(s['seat']), url: this.options.linkFor(this.game!, String(s['token'])) }));
        this.log.push(`Game ${this.game} created.`);
        this.join();
        return;
      }
      case 'joined': {
        const seat = m['seat'];
        this.mySeats = typeof seat === 'number' ? [seat] : [];
        this.seats = (Array.isArray(m['seats']) ? (m['seats'] as Message[]) : []).map((s) => (s['kind'] === 'bot' ? { bot: Number(s['level']) } : 'human'));
        this.ownUrl = this.token === null || this.game === null ? null : this.options.linkFor(this.game, this.token);
        this.options.onJoin?.(this.game!, this.token);
        this.log.push(typeof seat === 'number' ? `Joined as Player ${seat + 1}.` : 'Joined as a spectator.');
        this.rejoining = true;
        return;
      }
      case 'view': {
        const view = m['view'] as PublicView;
        const rules = rulesFromId(view?.ruleset);
        if (!rules.ok) {
          this.error = rules.message;
          this.changed();
          return;
        }
        this.rules = rules.value.rules;
        this.view = view;
        this.version = Number(m['version']);
        this.legal = Array.isArray(m['legal']) ? (m['legal'] as Move[]) : [];
        // A whole view: what came to light since the last move is not known.
        this.revealed = this.mayHaveRevealed();
        this.rejoined();
        this.changed();
        return;
      }
      case 'update': {
        if (this.view === null) return this.send({ type: 'resync', game: this.game });
        const delta = m['delta'] as { events?: unknown };
        const next = applyViewDelta(this.view, delta);
        if (!next.ok) {
          this.log.push(`Out of step (${next.error.code}): asking for the whole view.`);
          this.send({ type: 'resync', game: this.game });
          return;
        }
        const seq = this.view.seq;
        this.view = next.value;
        this.version = Number(m['version']);
        this.legal = Array.isArray(m['legal']) ? (m['legal'] as Move[]) : [];
        const events = Array.isArray(delta.events) ? (delta.events as GameEvent[]) : null;
        if (events !== null) this.log.push(...eventLines(events));
        // One move's events: they say whether it drew a tile or showed a token; else not known.
        this.revealed =
          events !== null && next.value.seq === seq + 1 && !events.some((e) => e.type === 'undone')
            ? events.some((e) => REVEALING_EVENTS.has(e.type))
            : this.mayHaveRevealed();
        if (m['id'] !== undefined) {
          this.error = '';
          this.connectionError = false;
        }
        this.rejoined();
        this.changed();
        return;
      }
      case 'refused': {
        this.error = `Refused (${String(m['code'])}): ${String(m['message'])}`;
        if (m['code'] === 'server/no-such-game' || m['code'] === 'server/bad-token') this.state = 'over';
        this.listeners.emit();
        return;
      }
      default:
        return;
    }
  }

  /** After a `joined`, the first view or update: the connection is back, and its error goes. */
  private rejoined(): void {
    if (!this.rejoining) return;
    this.rejoining = false;
    if (this.connectionError) {
      this.error = '';
      this.connectionError = false;
    }
  }

  /** Whether the last move may have been followed by something hidden coming to light, when its events are not known. */
  private mayHaveRevealed(): boolean {
    const view = this.view;
    if (view === null) return true;
    // A tile to place was drawn after the last move, unless that move was one made before placing
    // (a ransom paid): not known, so assumed. The Castle hides its wall tokens: one may be taken
    // in the scoring after a deployment.
    return view.step.kind === 'place-tile' || (Object.hasOwn(view.modules, 'castle') && view.step.kind !== 'deploy');
  }

  submit(move: Move): void {
    if (this.state !== 'human') {
      this.error = 'It is not your turn to decide.';
      this.listeners.emit();
      return;
    }
    this.send({ type: 'move', id: `m${this.version}`, game: this.game, version: this.version, move });
  }

  undo(): void {
    this.send({ type: 'undo', id: `u${this.version}`, game: this.game, version: this.version });
  }

  hint(): Promise<{ readonly move: Move | null; readonly text: string }> {
    return Promise.resolve({ move: null, text: 'Hints are not available online: the game state stays on the server.' });
  }

  cost(): Promise<string> {
    return Promise.resolve('"What did my move cost" is not available online: the game state stays on the server.');
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }
}
