/**
 * Storage: a game is its record (rules, seed, seats), written once, and its log of entries, one
 * per version. An entry is appended in the same transaction that advances the game's version,
 * and only if the version is still the one the move was checked against: a crash loses nothing
 * that was acknowledged, and two server processes on one database never fork a game (the second
 * append at a version fails, and its process catches up from the log instead).
 */
import type { Move } from 'meeplekit';
import type { GameConfig } from './config.js';

/** One step of a game's log. Version n is the state after entries 1..n. */
export type LogEntry = { readonly type: 'move'; readonly move: Move } | { readonly type: 'undo'; readonly seat: number; readonly count: number };

/** A seat as stored: a bot's level, or the hash of a human seat's token (never the token). */
export interface StoredSeat {
  readonly bot: number | null;
  readonly tokenHash: string | null;
}

/** Everything that defines a game but its log. Holds the seed: it never leaves the server. */
export interface GameRecord {
  readonly id: string;
  readonly config: GameConfig;
  /** 128 random bits as 32 hex digits (node:crypto). */
  readonly seed: string;
  readonly seats: readonly StoredSeat[];
  readonly createdAt: number;
}

export interface StoredGame {
  readonly record: GameRecord;
  readonly log: readonly LogEntry[];
  readonly finished: boolean;
}

export interface Store {
  /** Creates the tables if needed. */
  init(): Promise<void>;
  /** Stores a new game at version 0. */
  createGame(record: GameRecord): Promise<void>;
  /** The game and its whole log, or null. */
  loadGame(id: string): Promise<StoredGame | null>;
  /** The log's entries after `version` (versions version+1, ...). */
  entriesSince(id: string, version: number): Promise<LogEntry[]>;
  /**
   * Appends `entry` as version `version + 1`, in one transaction with the version's advance, if
   * the game is still at `version`; false (and nothing written) if it is not. `finished` marks a
   * game over.
   */
  append(id: string, version: number, entry: LogEntry, finished: boolean): Promise<boolean>;
  /** Games not finished, oldest first (for a restart: their bots go on). */
  activeGames(limit: number): Promise<string[]>;
  /**
   * Calls `listener(game, version)` when another process appends to a game (PostgreSQL's
   * LISTEN/NOTIFY). A store used by one process only does nothing.
   */
  subscribe(listener: (game: string, version: number) => void): Promise<void>;
  close(): Promise<void>;
}

export function parseEntry(text: string): LogEntry {
  return JSON.parse(text) as LogEntry;
}
