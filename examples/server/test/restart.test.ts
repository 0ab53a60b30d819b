/**
 * The server process is killed (SIGKILL) mid-game, a move in flight, and restarted on the same
 * SQLite file: the games are rebuilt from their logs, bots go on (also in a game nobody is
 * connected to), the players reconnect from the versions they had and play to the end, with
 * nothing lost.
 */
import Database from 'better-sqlite3';
import { applyViewDelta } from 'meeplekit';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, decider, expectNoSeeds, play, startServerProcess, tempDb, type ServerProcess } from './helpers.js';

const db = tempDb();
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop();
  expectNoSeeds(db);
  rmSync(dirname(db), { recursive: true, force: true });
});

describe('a crash loses nothing', () => {
  it('SIGKILL mid-game, restart on the same file, reconnect from the last versions seen, play on to the end', async () => {
    server = await startServerProcess({ MEEPLEKIT_DB: db });
    let a = await Client.connect(server.url);
    let b = await Client.connect(server.url);
    const created = await a.create({ game: 'classic', expansions: ['tower'], players: 3 }, ['human', 'human', { bot: 1 }]);
    const game = created.game as string;
    const [tokenA, tokenB] = [created.seats[0].token, created.seats[1].token];
    await a.join(game, tokenA);
    await b.join(game, tokenB);
    await play([a, b], game, { moves: 12, seed: 11 });
    while (decider(a.games.get(game)!.view!) !== 0) await play([a, b], game, { moves: 1, seed: 11 });

    // A game of bots only, just started: it is mid-game when the process dies.
    const botGame = (await b.create({ game: 'castle', players: 2 }, [{ bot: 1 }, { bot: 1 }])).game as string;

    // A sends its move and the process dies at once: the move was stored or it was not, never half.
    const before = { a: { ...a.games.get(game)! }, b: { ...b.games.get(game)! } };
    a.send({ type: 'move', game, version: before.a.version, move: before.a.legal![0] });
    await server.kill();
    await Promise.all([a.closed, b.closed]);

    const file = new Database(db, { readonly: true });
    const killedAt = file.prepare('SELECT version, finished FROM games WHERE id = ?').get(botGame) as { version: number; finished: number };
    file.close();
    expect(killedAt.finished).toBe(0);

    server = await startServerProcess({ MEEPLEKIT_DB: db });
    a = await Client.connect(server.url);
    b = await Client.connect(server.url);
    for (const [client, token, kept] of [
      [a, tokenA, before.a],
      [b, tokenB, before.b],
    ] as const) {
      const since = client.inbox.length;
      const joined = await client.request({ type: 'join', game, token, version: kept.version });
      expect(joined.type).toBe('joined');
      // Every version acknowledged before the crash is still there: the one we had, maybe A's move.
      expect(joined.version).toBeGreaterThanOrEqual(kept.version);
      const update = await client.wait((m) => m.type === 'update' && m.game === game, 5000, since);
      // The delta starts from the very view the client kept: the log replayed gives it byte for byte.
      const caughtUp = applyViewDelta(kept.view!, update.delta);
      expect(caughtUp.ok).toBe(true);
      client.games.set(game, { seat: kept.seat, view: caughtUp.ok ? caughtUp.value : null, version: update.version, legal: update.legal });
    }
    // The bots' game was rebuilt from its log at start and goes on with nobody connected to it.
    const watcher = await Client.connect(server.url);
    await watcher.join(botGame);
    await play([a, b], game, { seed: 12 });
    expect(a.games.get(game)!.view!.step.kind).toBe('game-over');
    const whole = await b.request({ type: 'resync', game });
    expect(JSON.stringify(whole.view)).toBe(JSON.stringify(b.games.get(game)!.view));
    while (watcher.games.get(botGame)!.view!.step.kind !== 'game-over') await watcher.wait((m) => m.game === botGame && m.type === 'update', 30_000);
    expect(watcher.games.get(botGame)!.version).toBeGreaterThan(killedAt.version);
    await Promise.all([a.close(), b.close(), watcher.close()]);
  });
});
