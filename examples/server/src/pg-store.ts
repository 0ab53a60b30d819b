/**
 * PostgreSQL through `pg`, for several server processes on one database. The append is the same
 * transaction as SQLite's (a conditional update of the version, then the insert, under a unique
 * (game, version) key); a NOTIFY in it tells the other processes, after the commit, that the game
 * moved on, so that they push the move to their own clients.
 */
import pg from 'pg';
import { parseEntry, type GameRecord, type LogEntry, type Store, type StoredGame } from './store.js';

const CHANNEL = 'meeplekit_log';

export class PgStore implements Store {
  private readonly pool: pg.Pool;
  private listener: pg.PoolClient | null = null;

  constructor(connectionString: string) {
    this.pool = new pg.Pool({ connectionString, max: 8 });
  }

  async init(): Promise<void> {
    // Several processes may start at once: serialise the schema's creation with an advisory lock.
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(727274)');
      await client.query(`
        CREATE TABLE IF NOT EXISTS games (
          id TEXT PRIMARY KEY,
          record JSONB NOT NULL,
          version INTEGER NOT NULL DEFAULT 0,
          finished BOOLEAN NOT NULL DEFAULT false,
          created_at BIGINT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS log (
          game TEXT NOT NULL REFERENCES games(id),
          version INTEGER NOT NULL,
          entry JSONB NOT NULL,
          PRIMARY KEY (game, version)
        );
        CREATE INDEX IF NOT EXISTS games_active ON games(finished, created_at);
      `);
    } finally {
      await client.query('SELECT pg_advisory_unlock(727274)').catch(() => {});
      client.release();
    }
  }

  async createGame(record: GameRecord): Promise<void> {
    await this.pool.query('INSERT INTO games (id, record, created_at) VALUES ($1, $2, $3)', [record.id, JSON.stringify(record), record.createdAt]);
  }

  async loadGame(id: string): Promise<StoredGame | null> {
    const { rows } = await this.pool.query<{ record: GameRecord; finished: boolean }>('SELECT record, finished FROM games WHERE id = $1', [id]);
    if (rows.length === 0) return null;
    return { record: rows[0]!.record, log: await this.entriesSince(id, 0), finished: rows[0]!.finished };
  }

  async entriesSince(id: string, version: number): Promise<LogEntry[]> {
    const { rows } = await this.pool.query<{ entry: string }>('SELECT entry::text AS entry FROM log WHERE game = $1 AND version > $2 ORDER BY version', [id, version]);
    return rows.map((r) => parseEntry(r.entry));
  }

  async append(id: string, version: number, entry: LogEntry, finished: boolean): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const advanced = await client.query('UPDATE games SET version = version + 1, finished = $3 WHERE id = $1 AND version = $2', [id, version, finished]);
      if (advanced.rowCount !== 1) {
        await client.query('ROLLBACK');
        return false;
      }
      await client.query('INSERT INTO log (game, version, entry) VALUES ($1, $2, $3)', [id, version + 1, JSON.stringify(entry)]);
      await client.query('SELECT pg_notify($1, $2)', [CHANNEL, `${version + 1} ${id}`]);
      await client.query('COMMIT');
      return true;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      // Another process's insert at this version (the unique key) is a lost race, not an error.
      if ((e as { code?: string }).code === '23505') return false;
      throw e;
    } finally {
      client.release();
    }
  }

  async activeGames(limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>('SELECT id FROM games WHERE NOT finished ORDER BY created_at LIMIT $1', [limit]);
    return rows.map((r) => r.id);
  }

  async subscribe(listener: (game: string, version: number) => void): Promise<void> {
    const client = await this.pool.connect();
    this.listener = client;
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL || n.payload === undefined) return;
      const space = n.payload.indexOf(' ');
      listener(n.payload.slice(space + 1), Number(n.payload.slice(0, space)));
    });
    await client.query(`LISTEN ${CHANNEL}`);
  }

  async close(): Promise<void> {
    this.listener?.release();
    await this.pool.end();
  }
}
