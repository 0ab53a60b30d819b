/**
 * The embedded default: SQLite through better-sqlite3, one file, zero set-up. One server process
 * per file (SQLite's locking would keep two consistent, but nothing would tell one process of the
 * other's moves: use PostgreSQL for several processes).
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseEntry, type GameRecord, type LogEntry, type Store, type StoredGame } from './store.js';

export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private appendTx: ((id: string, version: number, entry: string, finished: boolean) => boolean) | null = null;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    // WAL: readers do not block the writer. synchronous FULL: a transaction is on disk when
    // commit returns, so an acknowledged move survives a power cut, not only a killed process.
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
  }

  async init(): Promise<void> {
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS log (
        game TEXT NOT NULL REFERENCES games(id),
        version INTEGER NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (game, version)
      );
      CREATE INDEX IF NOT EXISTS games_active ON games(finished, created_at);
    `);
    const advance = this.db.prepare('UPDATE games SET version = version + 1, finished = ? WHERE id = ? AND version = ?');
    const insert = this.db.prepare('INSERT INTO log (game, version, entry) VALUES (?, ?, ?)');
    this.appendTx = this.db.transaction((id: string, version: number, entry: string, finished: boolean): boolean => {
      // The conditional update is the check: no row changed, the game moved on without us.
      if (advance.run(finished ? 1 : 0, id, version).changes !== 1) return false;
      insert.run(id, version + 1, entry); // (game, version) is the primary key: never two entries at one version
      return true;
    });
  }

  async createGame(record: GameRecord): Promise<void> {
    this.db.prepare('INSERT INTO games (id, record, created_at) VALUES (?, ?, ?)').run(record.id, JSON.stringify(record), record.createdAt);
  }

  async loadGame(id: string): Promise<StoredGame | null> {
    const row = this.db.prepare('SELECT record, finished FROM games WHERE id = ?').get(id) as { record: string; finished: number } | undefined;
    if (row === undefined) return null;
    return { record: JSON.parse(row.record) as GameRecord, log: await this.entriesSince(id, 0), finished: row.finished === 1 };
  }

  async entriesSince(id: string, version: number): Promise<LogEntry[]> {
    const rows = this.db.prepare('SELECT entry FROM log WHERE game = ? AND version > ? ORDER BY version').all(id, version) as { entry: string }[];
    return rows.map((r) => parseEntry(r.entry));
  }

  async append(id: string, version: number, entry: LogEntry, finished: boolean): Promise<boolean> {
    return this.appendTx!(id, version, JSON.stringify(entry), finished);
  }

  async activeGames(limit: number): Promise<string[]> {
    const rows = this.db.prepare('SELECT id FROM games WHERE finished = 0 ORDER BY created_at LIMIT ?').all(limit) as { id: string }[];
    return rows.map((r) => r.id);
  }

  async subscribe(): Promise<void> {}

  async close(): Promise<void> {
    this.db.close();
  }
}
