/**
 * Helpers module authors call from their hooks: emitting a module's own events and reading its
 * state slice (also public, in the `authoring` namespace of the main entry `meeplekit`).
 */
import type { Emit } from './events.js';
import type { GameState, GameView } from './state.js';
import type { Immutable } from './types.js';

/**
 * A deep copy of an event's data (plain JSON: arrays, records, primitives), so that an event never
 * shares an object with the state it was made from.
 */
function copyData(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyData(v[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    // defineProperty: a key is data, never a setter (`__proto__`).
    Object.defineProperty(out, k, { value: copyData((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Emits an expansion's own event (`type` is `'<id>/<name>'`). `data` is copied deeply, so it may
 * hold the state's own records (`{ at: slice.dragon }`): whoever receives the event (a UI, a
 * log) can keep or change it without changing the game. Nothing is built or copied when nobody
 * listens (`emit` is `null`, as in playouts).
 */
export function emitExpansionEvent(emit: Emit, type: `${string}/${string}`, data: Readonly<Record<string, unknown>>): void {
  // Copied here, where every module's event passes, rather than by each emitter: one place that a
  // new emitter cannot forget, and it costs only when events are collected (emit is null in
  // playouts). The data is a few small records, so the copy is cheap next to the move itself.
  if (emit !== null) emit({ type, ...(copyData(data) as Record<string, unknown>) } as never);
}

/** The state slice of an expansion. */
export function sliceOf<T>(state: Immutable<GameState> | GameState | Immutable<GameView>, id: string): T {
  return (state.ext as Record<string, unknown>)[id] as T;
}
