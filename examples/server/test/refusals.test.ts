/**
 * What the server refuses, each with a stable code, changing nothing: forged and out-of-turn
 * moves (the other player sees nothing), stale versions, undo outside the policy, bad input and
 * the limits. And a reconnect after missed moves resyncs with one delta.
 */
import { applyViewDelta } from 'meeplekit';
import { describe, expect, it } from 'vitest';
import { Client, decider, play, sqliteServerForFile } from './helpers.js';

const server = sqliteServerForFile();

async function twoPlayers(): Promise<{ a: Client; b: Client; game: string; tokens: string[] }> {
  const [a, b] = await Promise.all([Client.connect(server.url), Client.connect(server.url)]);
  const created = await a.create({ game: 'classic', players: 2 });
  const game = created.game as string;
  const tokens = created.seats.map((s: { token: string }) => s.token);
  await a.join(game, tokens[0]);
  await b.join(game, tokens[1]);
  return { a, b, game, tokens };
}

/** Resolves to the messages `client` got about `game` in the next `ms` milliseconds. */
async function quietFor(client: Client, game: string, ms = 300): Promise<unknown[]> {
  const since = client.inbox.length;
  await new Promise((r) => setTimeout(r, ms));
  return client.inbox.slice(since).filter((m) => m.game === game);
}

describe('refusals change nothing', () => {
  it('a forged move (another seat’s name) and an out-of-turn move are refused; the other player sees nothing', async () => {
    const { a, b, game } = await twoPlayers();
    const before = JSON.stringify(a.games.get(game)!.view);
    const legal = a.games.get(game)!.legal!; // seat 0 decides
    expect(decider(a.games.get(game)!.view!)).toBe(0);
    // B sends seat 0's legal move in seat 0's name: forged.
    const forged = await b.request({ type: 'move', game, version: 0, move: legal[0] });
    expect(forged).toMatchObject({ type: 'refused', code: 'server/not-your-seat', game });
    // B sends a move in its own name out of turn: the library refuses it.
    const outOfTurn = await b.request({ type: 'move', game, version: 0, move: { ...legal[0], player: 1 } });
    expect(outOfTurn).toMatchObject({ type: 'refused', code: 'move/not-your-turn' });
    // A's illegal move: the library's code.
    const illegal = await a.request({ type: 'move', game, version: 0, move: { type: 'place', player: 0, x: 40, y: 40, rotation: 0 } });
    expect(illegal.type).toBe('refused');
    expect(illegal.code).toMatch(/^place\//);
    expect(await quietFor(a, game)).toEqual([]);
    expect(JSON.stringify(a.games.get(game)!.view)).toBe(before);
    // The game goes on at version 0.
    const ok = await a.request({ type: 'move', game, version: 0, move: legal[0] });
    expect(ok).toMatchObject({ type: 'update', version: 1 });
    await b.waitVersion(game, 1);
    await Promise.all([a.close(), b.close()]);
  });

  it('a move against a stale version is refused and the client is resynced', async () => {
    const { a, b, game } = await twoPlayers();
    await play([a, b], game, { moves: 3, seed: 5 });
    const { version, legal, seat } = a.games.get(game)!.seat === decider(a.games.get(game)!.view!) ? a.games.get(game)! : b.games.get(game)!;
    const mover = seat === 0 ? a : b;
    const stale = await mover.request({ type: 'move', game, version: version - 1, move: legal![0] });
    expect(stale).toMatchObject({ type: 'refused', code: 'server/stale-version', version });
    expect(mover.games.get(game)!.version).toBe(version);
    const resynced = await mover.request({ type: 'resync', game, version: version - 2 });
    expect(resynced).toMatchObject({ type: 'update', version });
    expect(resynced.delta.from).toBe(version - 2);
    await Promise.all([a.close(), b.close()]);
  });

  it('undo: a player takes back its own placement before any draw, not a move that drew a tile, never another’s', async () => {
    const { a, b, game } = await twoPlayers();
    const view0 = JSON.stringify(a.games.get(game)!.view);
    // Seat 0 places a tile: the step becomes its deployment, nothing drawn.
    const placed = await a.request({ type: 'move', game, version: 0, move: a.games.get(game)!.legal![0] });
    expect(placed.type).toBe('update');
    expect(a.games.get(game)!.view!.step.kind).toBe('deploy');
    const notYours = await b.request({ type: 'undo', game, version: 1 });
    expect(notYours).toMatchObject({ type: 'refused', code: 'server/undo-not-yours' });
    const undone = await a.request({ type: 'undo', game, version: 1 });
    expect(undone).toMatchObject({ type: 'update', version: 2 });
    expect(JSON.stringify(a.games.get(game)!.view)).toBe(view0);
    await b.waitVersion(game, 2);
    // Place and pass: the turn ends and seat 1's tile is drawn; taking it back is refused.
    await play([a, b], game, { moves: 1, seed: 1 });
    while (decider(a.games.get(game)!.view!) === 0) {
      const legal = a.games.get(game)!.legal!;
      const pass = legal.find((m) => m.type === 'pass') ?? legal[0]!;
      await a.request({ type: 'move', game, version: a.games.get(game)!.version, move: pass });
    }
    const version = a.games.get(game)!.version;
    const seen = await a.request({ type: 'undo', game, version });
    expect(seen).toMatchObject({ type: 'refused', code: 'undo/draw-seen' });
    expect(a.games.get(game)!.version).toBe(version);
    await Promise.all([a.close(), b.close()]);
  });

  it('bad input: each refusal has its code; too large a message closes the connection (1009)', async () => {
    const c = await Client.connect(server.url);
    const codes: string[] = [];
    const ask = async (text: string): Promise<void> => {
      const since = c.inbox.length;
      c.ws.send(text);
      codes.push((await c.wait((m) => m.type === 'refused', 5000, since)).code);
    };
    await ask('not json');
    await ask('[1,2]');
    await ask('{"type":"fly"}');
    await ask('{"type":"join","game":"../etc"}');
    await ask('{"type":"join","game":"nosuchgame"}');
    await ask('{"type":"move","game":"nosuchgame","version":0,"move":{}}');
    await ask('{"type":"create","config":{"game":"chess"}}');
    await ask('{"type":"create","config":{"game":"classic","players":9}}');
    await ask('{"type":"create","config":{"game":"castle","players":4}}');
    await ask('{"type":"create","config":{"players":2},"seats":["human",{"bot":9}]}');
    const created = await c.create({ players: 2 });
    await ask(JSON.stringify({ type: 'join', game: created.game, token: 'x'.repeat(22) }));
    await c.join(created.game);
    await ask(JSON.stringify({ type: 'move', game: created.game, version: 0, move: { type: 'pass', player: 0 } }));
    expect(codes).toEqual([
      'server/bad-json',
      'server/bad-message',
      'server/unknown-type',
      'server/bad-message',
      'server/no-such-game',
      'server/not-joined',
      'server/bad-config',
      'server/bad-config',
      'options/players',
      'server/bad-config',
      'server/bad-token',
      'server/spectator',
    ]);
    c.ws.send(JSON.stringify({ type: 'join', game: 'x', pad: 'x'.repeat(10_000) }));
    expect(await c.closed).toBe(1009);
  });

  it('the rate limit and the number of games per connection', async () => {
    const c = await Client.connect(server.url);
    const hello = c.inbox[0]!;
    for (let i = 0; i < hello.limits.burst + 10; i++) c.ws.send('{"type":"resync","game":"nosuchgame"}');
    await c.wait((m) => m.code === 'server/rate-limited', 5000, 0);
    await c.close();
    const d = await Client.connect(server.url);
    const created = await d.create({ players: 2 });
    for (let i = 0; i < hello.limits.gamesPerConnection - 1; i++) await d.create({ players: 2 });
    expect(await d.request({ type: 'create', config: { players: 2 } })).toMatchObject({ code: 'server/too-many-games' });
    await d.close();
    const e = await Client.connect(server.url);
    for (let i = 0; i < hello.limits.gamesPerConnection; i++) {
      const other = await Client.connect(server.url);
      await e.join((await other.create({ players: 2 })).game);
      await other.close();
    }
    expect(await e.request({ type: 'join', game: created.game })).toMatchObject({ code: 'server/too-many-games' });
    await e.close();
  });
});

describe('reconnect', () => {
  it('a player who missed moves reconnects with its last version and catches up with one delta', async () => {
    const a = await Client.connect(server.url);
    const created = await a.create({ game: 'classic', players: 3 }, ['human', { bot: 1 }, 'human']);
    const game = created.game as string;
    await a.join(game, created.seats[0].token);
    let b = await Client.connect(server.url);
    await b.join(game, created.seats[2].token);
    await play([a, b], game, { moves: 4, seed: 2 });
    while (decider(a.games.get(game)!.view!) !== 0) await play([a, b], game, { moves: 1, seed: 2 });
    // B goes away with its view while seat 0 decides; A and the bot play on until seat 2's turn.
    const kept = b.games.get(game)!;
    const keptView = kept.view!;
    const keptVersion = kept.version;
    await b.close();
    while (decider(a.games.get(game)!.view!) !== 2) {
      const { version, view, legal } = a.games.get(game)!;
      if (decider(view!) === 0) await a.request({ type: 'move', game, version, move: legal![0] });
      await a.waitVersion(game, version + 1);
    }
    const missed = a.games.get(game)!.version;
    expect(missed).toBeGreaterThan(keptVersion);
    b = await Client.connect(server.url);
    const reply = await b.request({ type: 'join', game, token: created.seats[2].token, version: keptVersion });
    expect(reply).toMatchObject({ type: 'joined', seat: 2, version: missed });
    const update = await b.wait((m) => m.type === 'update' && m.game === game, 5000, 0);
    expect(update.delta.from).toBe(keptView.seq);
    const caughtUp = applyViewDelta(keptView, update.delta);
    expect(caughtUp.ok).toBe(true);
    expect(update.legal?.length).toBeGreaterThan(0); // its turn: its moves come with it
    // A client that lost its view asks without a version: a whole view, the same as the caught-up one.
    const whole = await b.request({ type: 'resync', game });
    expect(whole.type).toBe('view');
    expect(JSON.stringify(caughtUp.ok && caughtUp.value)).toBe(JSON.stringify(whole.view));
    await Promise.all([a.close(), b.close()]);
  });
});
