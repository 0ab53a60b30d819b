/**
 * The WebSocket protocol between the reference server and its clients: one JSON object per
 * message. README.md (in this folder) documents every message and refusal code.
 */
import type { Move, PublicView, ViewDelta } from 'meeplekit';
import type { GameConfig } from './config.js';

/** Changes when a message changes meaning or goes away, never when one is added. */
export const PROTOCOL_VERSION = 1;

/** The server's own refusal codes; illegal moves and undos are refused with the library's codes. */
export const SERVER_CODES = [
  'server/bad-json',
  'server/bad-message',
  'server/unknown-type',
  'server/rate-limited',
  'server/too-many-games',
  'server/bad-config',
  'server/no-such-game',
  'server/bad-token',
  'server/not-joined',
  'server/spectator',
  'server/not-your-seat',
  'server/stale-version',
  'server/undo-not-yours',
  'server/unavailable',
] as const;
export type ServerCode = (typeof SERVER_CODES)[number];

/** A refusal: a stable code (`server/...`, or the library's, such as `move/not-your-turn`) and words for people. */
export interface Refusal {
  readonly code: string;
  readonly message: string;
}

export function refusal(code: ServerCode | string, message: string): Refusal {
  return { code, message };
}

/** A seat as everyone may see it: who plays it, never its token. */
export type SeatInfo = { readonly seat: number; readonly kind: 'human' } | { readonly seat: number; readonly kind: 'bot'; readonly level: number };

/** What a client may send. `id`, when given, comes back in the reply (`created`, `view`, `refused`). */
export type ClientMessage =
  | { readonly type: 'create'; readonly id?: RequestId; readonly config: GameConfig; readonly seats?: readonly ('human' | { readonly bot: number })[] }
  | { readonly type: 'join'; readonly id?: RequestId; readonly game: string; readonly token?: string; readonly version?: number }
  | { readonly type: 'move'; readonly id?: RequestId; readonly game: string; readonly version: number; readonly move: Move }
  | { readonly type: 'undo'; readonly id?: RequestId; readonly game: string; readonly version: number; readonly count?: number }
  | { readonly type: 'resync'; readonly id?: RequestId; readonly game: string; readonly version?: number }
  | { readonly type: 'leave'; readonly id?: RequestId; readonly game: string };

export type RequestId = string | number;

/** What the server sends. */
export type ServerMessage =
  | { readonly type: 'hello'; readonly protocol: number; readonly limits: Limits }
  | { readonly type: 'created'; readonly id?: RequestId; readonly game: string; readonly seats: readonly (SeatInfo & { readonly token?: string })[] }
  | { readonly type: 'joined'; readonly id?: RequestId; readonly game: string; readonly seat: number | null; readonly seats: readonly SeatInfo[]; readonly version: number }
  | { readonly type: 'view'; readonly id?: RequestId; readonly game: string; readonly version: number; readonly view: PublicView; readonly legal?: readonly Move[] }
  | {
      readonly type: 'update';
      readonly id?: RequestId;
      readonly game: string;
      readonly version: number;
      readonly delta: ViewDelta;
      readonly legal?: readonly Move[];
    }
  | { readonly type: 'left'; readonly id?: RequestId; readonly game: string }
  | { readonly type: 'refused'; readonly id?: RequestId; readonly game?: string; readonly code: string; readonly message: string; readonly version?: number };

/** Input bounds; README.md explains each. */
export interface Limits {
  /** Largest message in bytes (ws `maxPayload`: a larger one closes the connection with 1009). */
  readonly maxMessageBytes: number;
  /** Messages a connection may send in a burst, then `ratePerSecond` more a second. */
  readonly burst: number;
  readonly ratePerSecond: number;
  /** Games a connection may have joined at once, and create in its lifetime. */
  readonly gamesPerConnection: number;
}

export const DEFAULT_LIMITS: Limits = { maxMessageBytes: 8192, burst: 40, ratePerSecond: 20, gamesPerConnection: 8 };
