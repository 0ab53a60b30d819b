/**
 * Helpers module authors call from their hooks: emitting a module's own events and reading its
 * state slice (also exported publicly from `meeplekit/authoring`).
 */
import type { Emit } from './events.js';
import type { GameState, GameView } from './state.js';
import type { Immutable } from './types.js';

/** Emits an expansion's own event (`type` is `'<id>/<name>'`). */
export function emitExpansionEvent(emit: Emit, type: `${string}/${string}`, data: Readonly<Record<string, unknown>>): void {
  if (emit !== null) emit({ type, ...data } as never);
}

/** The state slice of an expansion. */
export function sliceOf<T>(state: Immutable<GameState> | GameState | Immutable<GameView>, id: string): T {
  return (state.ext as Record<string, unknown>)[id] as T;
}
