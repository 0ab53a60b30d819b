/**
 * Two WebSocket clients play whole games through the server (SQLite); bots fill seats; the
 * clients' views, kept from deltas, are byte for byte the server's.
 */
import { describe, expect, it } from 'vitest';
import { Client, decider, play, sqliteServerForFile } from './helpers.js';

const server = sqliteServerForFile();

/** A client's view after all its deltas equals, byte for byte, a whole view the server makes now. */
async function expectSameAsServer(client: Client, game: string): Promise<void> {
  const held = JSON.stringify(client.games.get(game)!.view);
  const fresh = await client.request({ type: 'resync', game });
  expect(fresh.type).toBe('view');
  expect(JSON.stringify(fresh.view)).toBe(held);
}

describe('whole games through the server', () => {
  it('two players play a classic game to the end; a spectator watches; every view equals the server’s', async () => {
    const [a, b, watcher] = await Promise.all([Client.connect(server.url), Client.connect(server.url), Client.connect(server.url)]);
    const created = await a.create({ game: 'classic', players: 2 });
    expect(created.seats.map((s: { kind: string }) => s.kind)).toEqual(['human', 'human']);
    const game = created.game as string;
    await a.join(game, created.seats[0].token);
    await b.join(game, created.seats[1].token);
    await watcher.join(game);
    expect(watcher.games.get(game)!.seat).toBe(null);

    const version = await play([a, b, watcher], game, { seed: 7 });
    const end = a.games.get(game)!.view!;
    expect(end.step.kind).toBe('game-over');
    expect(version).toBe(end.seq);
    for (const c of [a, b, watcher]) await expectSameAsServer(c, game);
    expect(a.mismatches + b.mismatches + watcher.mismatches).toBe(0);
    await Promise.all([a, b, watcher].map((c) => c.close()));
  });

  it('a human against a bot (level 1) with all six expansions: the bot thinks in a worker and the game ends', async () => {
    const a = await Client.connect(server.url);
    const created = await a.create(
      { game: 'classic', expansions: ['river', 'king-robber', 'tower', 'princess-dragon', 'count', 'shrines'], players: 2 },
      ['human', { bot: 1 }],
    );
    expect(created.seats[1]).toEqual({ seat: 1, kind: 'bot', level: 1 });
    expect(created.seats[1].token).toBeUndefined();
    const game = created.game as string;
    await a.join(game, created.seats[0].token);
    await play([a], game, { seed: 3 });
    expect(a.games.get(game)!.view!.step.kind).toBe('game-over');
    await expectSameAsServer(a, game);
    await a.close();
  });

  it('bots fill every seat of The Castle and a spectator sees the whole game', async () => {
    const host = await Client.connect(server.url);
    const created = await host.create({ game: 'castle', players: 2 }, [{ bot: 1 }, { bot: 1 }]);
    const game = created.game as string;
    const watcher = await Client.connect(server.url);
    await watcher.join(game);
    const deadline = Date.now() + 50_000;
    while (watcher.games.get(game)!.view!.step.kind !== 'game-over') {
      expect(Date.now()).toBeLessThan(deadline);
      await watcher.wait((m) => m.game === game && m.type === 'update', 20_000);
    }
    expect(decider(watcher.games.get(game)!.view!)).toBe(null);
    await expectSameAsServer(watcher, game);
    await Promise.all([host.close(), watcher.close()]);
  });
});
