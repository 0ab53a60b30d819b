/**
 * `npm start`: the reference server on SQLite (a file, created if missing), or on PostgreSQL
 * when DATABASE_URL is set. Prints one JSON line when it listens: `{"listening":8080,...}`.
 *
 *   PORT (8080; 0: any free port)   HOST (127.0.0.1)   MEEPLEKIT_DB (data/games.sqlite)
 *   DATABASE_URL (postgres://...: PostgreSQL instead of SQLite)   BOT_THREADS (1)
 *   MEEPLEKIT_PLAYGROUND (the docs playground's build, served at /; default docs/api/playground
 *   in the repository; empty: serve no page)
 */
import { PgStore } from './pg-store.js';
import { startServer } from './server.js';
import { SqliteStore } from './sqlite-store.js';
import { DEFAULT_PLAYGROUND_DIR } from './static-files.js';
import type { Store } from './store.js';

const env = process.env;
const pgUrl = env['DATABASE_URL'];
const file = env['MEEPLEKIT_DB'] ?? 'data/games.sqlite';
const store: Store = pgUrl ? new PgStore(pgUrl) : new SqliteStore(file);
const playground = env['MEEPLEKIT_PLAYGROUND'] ?? DEFAULT_PLAYGROUND_DIR;

const server = await startServer({
  store,
  port: Number(env['PORT'] ?? 8080),
  host: env['HOST'] ?? '127.0.0.1',
  botThreads: Number(env['BOT_THREADS'] ?? 1),
  staticDir: playground === '' ? null : playground,
});
process.stdout.write(JSON.stringify({ listening: server.port, store: pgUrl ? 'postgresql' : `sqlite:${file}`, playground: playground === '' ? null : playground }) + '\n');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void server.close().then(() => process.exit(0));
  });
}
