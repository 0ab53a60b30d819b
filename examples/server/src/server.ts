/**
 * The reference server: many games over WebSocket, each player sent its public view and a delta
 * after every move, every move checked by meeplekit and stored before anyone hears of it, bots in
 * a worker thread, resync after a reconnect or a restart. README.md (in this folder) documents
 * the protocol.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import { newGame, viewDelta, type GameEvent, type Move, type PublicView } from 'meeplekit';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { BotPool } from './bots.js';
import { BOT_LEVELS, checkConfig } from './config.js';
import { LiveGame, type Applied } from './game.js';
import { DEFAULT_LIMITS, PROTOCOL_VERSION, refusal, type Limits, type Refusal, type RequestId, type SeatInfo, type ServerMessage } from './protocol.js';
import { serveStatic } from './static-files.js';
import type { GameRecord, LogEntry, StoredSeat, Store } from './store.js';

export interface ServerOptions {
  readonly store: Store;
  /** 0 (the default): any free port; `RunningServer.port` says which. */
  readonly port?: number;
  readonly host?: string;
  readonly limits?: Partial<Limits>;
  /** Worker threads for bots (default 1). */
  readonly botThreads?: number;
  /** Unfinished games loaded at start, so that their bots go on (default 1000). */
  readonly resumeGames?: number;
  readonly log?: (line: string) => void;
  /**
   * A directory of static files served over HTTP on the same port (the docs playground's build:
   * `GET /` and its files); null or absent: none, every other path is 404.
   */
  readonly staticDir?: string | null;
}

export interface RunningServer {
  readonly port: number;
  close(): Promise<void>;
}

/** One connection's part in one game. `sent` is the last view it was sent: the next delta starts there. */
interface Member {
  readonly seat: number | null;
  sent: PublicView;
  version: number;
}

interface Connection {
  readonly ws: WebSocket;
  readonly games: Map<string, Member>;
  /** The connection's messages are handled in order, one at a time. */
  queue: Promise<void>;
  tokens: number;
  refilled: number;
  created: number;
}

interface Hosted {
  readonly game: LiveGame;
  readonly members: Map<Connection, Member>;
  /** Everything that reads or changes the game runs in this chain, one at a time. */
  queue: Promise<unknown>;
  /** The version a bot was last asked to move at. */
  botAskedAt: number;
}

const ID = /^[A-Za-z0-9_-]{1,32}$/;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isVersion(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) >= 0;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { store } = options;
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits };
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const bots = new BotPool(options.botThreads ?? 1);
  const hosted = new Map<string, Hosted>();
  const loading = new Map<string, Promise<Hosted | null>>();
  let closing = false;

  await store.init();

  // ---- games in memory --------------------------------------------------------------------

  function locked<T>(h: Hosted, fn: () => Promise<T> | T): Promise<T> {
    const run = h.queue.then(fn);
    h.queue = run.catch(() => {});
    return run;
  }

  /** The game, from memory or rebuilt from the store (its log replayed), or null. */
  function host(id: string): Promise<Hosted | null> {
    const there = hosted.get(id);
    if (there !== undefined) return Promise.resolve(there);
    let pending = loading.get(id);
    if (pending === undefined) {
      pending = (async () => {
        const stored = await store.loadGame(id);
        if (stored === null) return null;
        const h: Hosted = { game: LiveGame.rebuild(stored.record, stored.log), members: new Map(), queue: Promise.resolve(), botAskedAt: -1 };
        hosted.set(id, h);
        // An entry another process stored after our read, whose notification came before we held
        // the game, would otherwise wait for the next one: read once more.
        await locked(h, () => catchUp(h));
        kickBots(h);
        return h;
      })().finally(() => loading.delete(id));
      loading.set(id, pending);
    }
    return pending;
  }

  function send(conn: Connection, message: ServerMessage): void {
    if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(JSON.stringify(message));
  }

  function refuse(conn: Connection, id: RequestId | undefined, r: Refusal, extra: { game?: string; version?: number } = {}): void {
    send(conn, { type: 'refused', ...(id === undefined ? {} : { id }), ...extra, code: r.code, message: r.message });
  }

  /** Sends the member what changed since the last view it was sent (nothing if nothing did). */
  function update(h: Hosted, conn: Connection, member: Member, events: readonly GameEvent[] = [], id?: RequestId): void {
    const after = h.game.view(member.seat);
    const delta = viewDelta(member.sent, after, events.length > 0 ? { events } : {});
    if (!delta.ok) throw new Error(delta.error.message);
    member.sent = after;
    member.version = h.game.version;
    const legal = h.game.legalFor(member.seat);
    send(conn, { type: 'update', ...(id === undefined ? {} : { id }), game: h.game.record.id, version: h.game.version, delta: delta.value, ...(legal ? { legal } : {}) });
  }

  /** Sends every member its delta; the connection the entry came from gets its request's id with it. */
  function broadcast(h: Hosted, events: readonly GameEvent[], origin?: { conn: Connection; id: RequestId | undefined }): void {
    for (const [conn, member] of h.members) update(h, conn, member, events, conn === origin?.conn ? origin.id : undefined);
  }

  /** Another process moved the game on: read the entries it stored, tell our clients. */
  async function catchUp(h: Hosted): Promise<void> {
    const entries = await store.entriesSince(h.game.record.id, h.game.version);
    if (entries.length === 0) return;
    for (const entry of entries) h.game.advance(entry);
    broadcast(h, []);
    kickBots(h);
  }

  /**
   * Stores the entry (one transaction with the version's advance, only if the game is still at
   * the version it was checked against), then moves the game on and tells everyone. False: the
   * game had moved on in another process; it has been caught up, and nothing was written.
   */
  async function commit(h: Hosted, entry: LogEntry, applied: Applied & { ok: true }, origin?: { conn: Connection; id: RequestId | undefined }): Promise<boolean> {
    const stored = await store.append(h.game.record.id, h.game.version, entry, applied.state.step.kind === 'game-over');
    if (!stored) {
      await catchUp(h);
      return false;
    }
    h.game.advance(entry, applied);
    broadcast(h, applied.events, origin);
    kickBots(h);
    return true;
  }

  /** If a bot decides next, asks the worker for its move (once per version). */
  function kickBots(h: Hosted): void {
    const { game } = h;
    const step = game.state.step;
    if (closing || step.kind === 'game-over' || !('player' in step)) return;
    const seat = game.record.seats[step.player];
    if (seat === undefined || seat.bot === null || h.botAskedAt === game.version) return;
    const version = game.version;
    h.botAskedAt = version;
    // The search's seed: derived from the secret seed by a one-way hash, so that every process
    // asks for the same move at a version (their appends cannot fork the game anyway).
    const seed = createHash('sha256').update(`${game.record.seed}/bot/${version}`).digest('hex').slice(0, 32);
    bots
      .move({ config: game.record.config, state: game.state, level: seat.bot, seed })
      .then((move) =>
        locked(h, async () => {
          if (h.game.version !== version) return; // an undo or another process got there first
          const entry: LogEntry = { type: 'move', move };
          const applied = h.game.tryEntry(entry);
          if (!applied.ok) throw new Error(`bot move refused: ${applied.refusal.code}`);
          await commit(h, entry, applied);
        }),
      )
      .catch((e: unknown) => {
        if (closing) return;
        log(JSON.stringify({ event: 'bot-failed', game: game.record.id, version, error: String(e) }));
        if (h.botAskedAt === version) h.botAskedAt = -1;
        setTimeout(() => kickBots(h), 1000).unref();
      });
  }

  await store.subscribe((id, version) => {
    const h = hosted.get(id);
    if (h !== undefined && version > h.game.version) void locked(h, () => catchUp(h)).catch((e: unknown) => log(JSON.stringify({ event: 'catch-up-failed', game: id, error: String(e) })));
  });

  // ---- messages -----------------------------------------------------------------------------

  function seatsInfo(record: GameRecord): SeatInfo[] {
    return record.seats.map((s, seat) => (s.bot === null ? { seat, kind: 'human' as const } : { seat, kind: 'bot' as const, level: s.bot }));
  }

  async function create(conn: Connection, id: RequestId | undefined, msg: Record<string, unknown>): Promise<void> {
    if (conn.created >= limits.gamesPerConnection) return refuse(conn, id, refusal('server/too-many-games', `a connection may create ${limits.gamesPerConnection} games`));
    const checked = checkConfig(msg['config'] ?? {});
    if (!checked.ok) return refuse(conn, id, checked.refusal);
    const { config, rules } = checked;
    const seatsIn = msg['seats'] ?? Array.from({ length: config.players }, () => 'human');
    if (!Array.isArray(seatsIn) || seatsIn.length !== config.players) return refuse(conn, id, refusal('server/bad-config', 'seats lists one seat per player'));
    const seats: StoredSeat[] = [];
    const tokens: (string | undefined)[] = [];
    for (const s of seatsIn) {
      if (s === 'human') {
        const token = randomBytes(16).toString('base64url');
        tokens.push(token);
        seats.push({ bot: null, tokenHash: hashToken(token) });
      } else if (isRecord(s) && Object.keys(s).length === 1 && (BOT_LEVELS as readonly unknown[]).includes(s['bot'])) {
        tokens.push(undefined);
        seats.push({ bot: s['bot'] as number, tokenHash: null });
      } else {
        return refuse(conn, id, refusal('server/bad-config', "a seat is 'human' or { bot: level } with a level from 1 to 5"));
      }
    }
    // 128 random bits from the operating system's generator: the game's whole future. Stored, never sent.
    const seed = randomBytes(16).toString('hex');
    const check = newGame(rules, { players: config.players, seed });
    if (!check.ok) return refuse(conn, id, refusal(check.error.code, check.error.message));
    const record: GameRecord = { id: randomBytes(9).toString('base64url'), config, seed, seats, createdAt: Date.now() };
    await store.createGame(record);
    conn.created++;
    const h: Hosted = { game: LiveGame.rebuild(record, []), members: new Map(), queue: Promise.resolve(), botAskedAt: -1 };
    hosted.set(record.id, h);
    send(conn, {
      type: 'created',
      ...(id === undefined ? {} : { id }),
      game: record.id,
      seats: seatsInfo(record).map((s, i) => (tokens[i] === undefined ? s : { ...s, token: tokens[i] })),
    });
    kickBots(h);
  }

  function seatOfToken(record: GameRecord, token: string): number | null {
    const hash = Buffer.from(hashToken(token), 'hex');
    let found: number | null = null;
    record.seats.forEach((s, seat) => {
      if (s.tokenHash !== null && timingSafeEqual(Buffer.from(s.tokenHash, 'hex'), hash)) found = seat;
    });
    return found;
  }

  /** Sends a member the current view: a delta from the version it says it has, or a whole view. */
  function resync(h: Hosted, conn: Connection, member: Member, from: unknown, id?: RequestId): void {
    const game = h.game;
    if (isVersion(from) && from <= game.version) {
      member.sent = game.view(member.seat, game.stateAt(from));
      update(h, conn, member, [], id);
      return;
    }
    member.sent = game.view(member.seat);
    member.version = game.version;
    const legal = game.legalFor(member.seat);
    send(conn, { type: 'view', ...(id === undefined ? {} : { id }), game: game.record.id, version: game.version, view: member.sent, ...(legal ? { legal } : {}) });
  }

  async function join(conn: Connection, id: RequestId | undefined, gameId: string, msg: Record<string, unknown>): Promise<void> {
    const token = msg['token'];
    if (token !== undefined && (typeof token !== 'string' || token.length > 64)) return refuse(conn, id, refusal('server/bad-message', 'token is a string'), { game: gameId });
    if (!conn.games.has(gameId) && conn.games.size >= limits.gamesPerConnection) {
      return refuse(conn, id, refusal('server/too-many-games', `a connection may be in ${limits.gamesPerConnection} games at once`), { game: gameId });
    }
    const h = await host(gameId);
    if (h === null) return refuse(conn, id, refusal('server/no-such-game', 'no game with this id'), { game: gameId });
    const seat = token === undefined ? null : seatOfToken(h.game.record, token);
    if (token !== undefined && seat === null) return refuse(conn, id, refusal('server/bad-token', 'this token is no seat of this game'), { game: gameId });
    await locked(h, () => {
      const member: Member = { seat, sent: h.game.view(seat), version: h.game.version };
      conn.games.set(gameId, member);
      h.members.set(conn, member);
      send(conn, { type: 'joined', ...(id === undefined ? {} : { id }), game: gameId, seat, seats: seatsInfo(h.game.record), version: h.game.version });
      resync(h, conn, member, msg['version']);
    });
  }

  async function play(conn: Connection, id: RequestId | undefined, gameId: string, msg: Record<string, unknown>, type: 'move' | 'undo'): Promise<void> {
    const member = conn.games.get(gameId);
    const h = hosted.get(gameId);
    if (member === undefined || h === undefined) return refuse(conn, id, refusal('server/not-joined', 'join the game first'), { game: gameId });
    if (member.seat === null) return refuse(conn, id, refusal('server/spectator', 'spectators do not play'), { game: gameId });
    const seat = member.seat;
    await locked(h, async () => {
      const game = h.game;
      const stale = (): void => {
        refuse(conn, id, refusal('server/stale-version', `the game is at version ${game.version}`), { game: gameId, version: game.version });
        if (member.version !== game.version) update(h, conn, member);
      };
      if (msg['version'] !== game.version) return stale();
      let entry: LogEntry;
      if (type === 'move') {
        const move = msg['move'];
        if (!isRecord(move)) return refuse(conn, id, refusal('server/bad-message', 'move is an object'), { game: gameId });
        // The seat is the connection's, from its token: a move in another player's name is forged.
        if (move['player'] !== seat) return refuse(conn, id, refusal('server/not-your-seat', `you play seat ${seat}`), { game: gameId });
        entry = { type: 'move', move: move as unknown as Move };
      } else {
        const count = msg['count'] ?? 1;
        if (!Number.isInteger(count) || (count as number) < 1) return refuse(conn, id, refusal('server/bad-message', 'count is a positive integer'), { game: gameId });
        // A player takes back only its own last moves, and nothing another player did since.
        if ((count as number) > game.trailingMovesOf(seat)) return refuse(conn, id, refusal('server/undo-not-yours', 'only your own last moves can be taken back'), { game: gameId });
        entry = { type: 'undo', seat, count: count as number };
      }
      const applied = game.tryEntry(entry);
      if (!applied.ok) return refuse(conn, id, applied.refusal, { game: gameId });
      if (!(await commit(h, entry, applied, { conn, id }))) return stale();
    });
  }

  async function handle(conn: Connection, data: RawData, isBinary: boolean): Promise<void> {
    let msg: unknown;
    try {
      if (isBinary) throw new Error('binary');
      msg = JSON.parse(data.toString());
    } catch {
      return refuse(conn, undefined, refusal('server/bad-json', 'a message is one JSON object (text)'));
    }
    if (!isRecord(msg) || typeof msg['type'] !== 'string') return refuse(conn, undefined, refusal('server/bad-message', 'a message is an object with a type'));
    const rawId = msg['id'];
    if (rawId !== undefined && !(typeof rawId === 'string' && rawId.length <= 64) && !Number.isSafeInteger(rawId)) {
      return refuse(conn, undefined, refusal('server/bad-message', 'id is a string of up to 64 characters or an integer'));
    }
    const id = rawId as RequestId | undefined;
    const type = msg['type'];
    if (type === 'create') return create(conn, id, msg);
    if (!['join', 'move', 'undo', 'resync', 'leave'].includes(type)) return refuse(conn, id, refusal('server/unknown-type', `no message type '${type.slice(0, 20)}'`));
    const gameId = msg['game'];
    if (typeof gameId !== 'string' || !ID.test(gameId)) return refuse(conn, id, refusal('server/bad-message', 'game is a game id'));
    if (type === 'join') return join(conn, id, gameId, msg);
    if (type === 'move' || type === 'undo') return play(conn, id, gameId, msg, type);
    const member = conn.games.get(gameId);
    const h = hosted.get(gameId);
    if (member === undefined || h === undefined) return refuse(conn, id, refusal('server/not-joined', 'join the game first'), { game: gameId });
    if (type === 'resync') return locked(h, () => resync(h, conn, member, msg['version'], id));
    conn.games.delete(gameId);
    h.members.delete(conn);
    send(conn, { type: 'left', ...(id === undefined ? {} : { id }), game: gameId });
  }

  // ---- network -----------------------------------------------------------------------------

  const staticDir = options.staticDir ?? null;
  const http: HttpServer = createServer((req, res) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, protocol: PROTOCOL_VERSION, games: hosted.size }));
    } else if (staticDir !== null && (req.method === 'GET' || req.method === 'HEAD')) {
      serveStatic(staticDir, req, res).catch((e: unknown) => {
        log(JSON.stringify({ event: 'http-error', error: String(e) }));
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end();
      });
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('meeplekit reference server: connect with WebSocket\n');
    }
  });
  const wss = new WebSocketServer({ server: http, maxPayload: limits.maxMessageBytes });
  wss.on('connection', (ws) => {
    const conn: Connection = { ws, games: new Map(), queue: Promise.resolve(), tokens: limits.burst, refilled: Date.now(), created: 0 };
    send(conn, { type: 'hello', protocol: PROTOCOL_VERSION, limits });
    ws.on('message', (data, isBinary) => {
      // The rate limit, on arrival: a message over it is dropped before it is even parsed.
      const now = Date.now();
      conn.tokens = Math.min(limits.burst, conn.tokens + ((now - conn.refilled) * limits.ratePerSecond) / 1000);
      conn.refilled = now;
      if (conn.tokens < 1) return refuse(conn, undefined, refusal('server/rate-limited', `at most ${limits.ratePerSecond} messages a second`));
      conn.tokens -= 1;
      conn.queue = conn.queue.then(() =>
        handle(conn, data, isBinary).catch((e: unknown) => {
          // The store is down or a bug: say so without details (they could name internals).
          log(JSON.stringify({ event: 'error', error: String(e) }));
          refuse(conn, undefined, refusal('server/unavailable', 'the server could not do this now; try again'));
        }),
      );
    });
    ws.on('close', () => {
      for (const gameId of conn.games.keys()) hosted.get(gameId)?.members.delete(conn);
      conn.games.clear();
    });
    ws.on('error', () => ws.terminate());
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  // Unfinished games come back from the log, and their bots go on.
  for (const gameId of await store.activeGames(options.resumeGames ?? 1000)) await host(gameId);

  return {
    port,
    async close() {
      closing = true;
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await Promise.all([...hosted.values()].map((h) => h.queue.catch(() => {})));
      await bots.close();
      await store.close();
    },
  };
}
