/**
 * Checking the Count's options (`edition`, `countMoves`).
 */
import { showValue } from '../../core/errors.js';
import type { CountMoves } from './state.js';

const OPTION_KEYS = ['edition', 'countMoves'] as const;
const COUNT_MOVES: readonly CountMoves[] = ['free', 'clockwise', 'entered'];

/** Why `options` are not valid Count options, or null. */
export function optionsProblem(options: unknown): string | null {
  if (options === undefined) return null;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    return `options must be an object such as { edition: 2, countMoves: 'free' }, got ${showValue(options)}`;
  }
  for (const k of Object.keys(options)) {
    if (!(OPTION_KEYS as readonly string[]).includes(k)) return `unknown option '${k}' (options: ${OPTION_KEYS.join(', ')})`;
  }
  const o = options as Record<string, unknown>;
  if (o['edition'] !== undefined && o['edition'] !== 1 && o['edition'] !== 2) return `edition must be 2 or 1, got ${showValue(o['edition'])}`;
  if (o['countMoves'] !== undefined && !(COUNT_MOVES as readonly unknown[]).includes(o['countMoves'])) {
    return `countMoves must be one of ${COUNT_MOVES.map((m) => `'${m}'`).join(', ')}, got ${showValue(o['countMoves'])}`;
  }
  return null;
}
