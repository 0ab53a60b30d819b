/**
 * Two server processes on one PostgreSQL database play one game: the players are connected to
 * different processes, each process tells its clients of the other's moves (LISTEN/NOTIFY), and
 * two moves sent at once to both processes at the same version never fork the game.
 *
 * The database: MEEPLEKIT_PG_URL if set; otherwise a throw-away cluster started here when
 * Debian's postgresql package is installed (initdb under /usr/lib/postgresql/<version>/bin);
 * otherwise the file is skipped.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, decider, expectNoSeeds, play, startServerProcess, type ServerProcess } from './helpers.js';
import { pgAvailable, postgresForFile } from './pg-cluster.js';

const database = postgresForFile();
const servers: ServerProcess[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe.skipIf(!pgAvailable)('PostgreSQL: two server processes, one database', () => {
  it('one game played through both processes stays consistent, and simultaneous moves never fork it', async () => {
    const [one, two] = await Promise.all([startServerProcess({ DATABASE_URL: database.url }), startServerProcess({ DATABASE_URL: database.url })]);
    servers.push(one, two);
    const a = await Client.connect(one.url);
    const b = await Client.connect(two.url);
    const a2 = await Client.connect(two.url); // seat 0 again, on the other process
    const created = await a.create({ game: 'classic', players: 2 });
    const game = created.game as string;
    await a.join(game, created.seats[0].token);
    await b.join(game, created.seats[1].token); // process two loads the game from the database
    await a2.join(game, created.seats[0].token);

    await play([a, b, a2], game, { moves: 10, seed: 4 });
    while (decider(a.games.get(game)!.view!) !== 0) await play([a, b, a2], game, { moves: 1, seed: 4 });

    // Seat 0 sends two different moves at the same version, one to each process, at once.
    const { version, legal } = a.games.get(game)!;
    const [r1, r2] = await Promise.all([
      a.request({ type: 'move', game, version, move: legal![0] }),
      a2.request({ type: 'move', game, version, move: legal![legal!.length - 1] }),
    ]);
    const outcomes = [r1.type, r2.type].sort();
    expect(outcomes).toEqual(['refused', 'update']);
    expect([r1, r2].find((r) => r.type === 'refused')!.code).toBe('server/stale-version');
    for (const c of [a, b, a2]) await c.waitVersion(game, version + 1);
    const views = [a, a2].map((c) => JSON.stringify(c.games.get(game)!.view));
    expect(views[1]).toBe(views[0]);

    await play([a, b], game, { seed: 5 });
    expect(a.games.get(game)!.view!.step.kind).toBe('game-over');
    for (const c of [a, b, a2]) await c.waitVersion(game, a.games.get(game)!.version);
    // Each client's view, kept from deltas sent by its own process, equals a whole view made now.
    for (const c of [a, b, a2]) {
      const whole = await c.request({ type: 'resync', game });
      expect(JSON.stringify(whole.view)).toBe(JSON.stringify(c.games.get(game)!.view));
    }

    // The database: one entry per version, no gap, no fork, the game marked finished.
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const row = (await db.query('SELECT version, finished, record FROM games WHERE id = $1', [game])).rows[0];
    const versions = (await db.query('SELECT version FROM log WHERE game = $1 ORDER BY version', [game])).rows.map((r) => r.version as number);
    const seeds = (await db.query('SELECT record FROM games')).rows.map((r) => (r.record as { seed: string }).seed);
    await db.end();
    expect(row.version).toBe(a.games.get(game)!.version);
    expect(row.finished).toBe(true);
    expect(versions).toEqual(Array.from({ length: row.version }, (_, i) => i + 1));
    expectNoSeeds(seeds);
    await Promise.all([a, b, a2].map((c) => c.close()));
  });
});
