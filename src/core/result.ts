/**
 * The outcome of an operation that can fail for an expected reason (bad input, an illegal
 * move): either `{ ok: true, value }` or `{ ok: false, error }`. Expected failures are values,
 * never exceptions; only broken invariants throw.
 *
 * @example
 * ```ts
 * import { createRuleset } from 'meeplekit';
 *
 * const r = createRuleset({ game: 'classic' });
 * if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
 * const rules = r.value; // narrowed to Ruleset
 * ```
 */
export type Result<T, E> = Ok<T> | Err<E>;

/** A successful {@link Result}. */
export interface Ok<T> {
  /** Always `true`: discriminates success. */
  readonly ok: true;
  /** The value produced. */
  readonly value: T;
}

/** A failed {@link Result}. */
export interface Err<E> {
  /** Always `false`: discriminates failure. */
  readonly ok: false;
  /** What went wrong: for this library always a {@link MeepleError}. */
  readonly error: E;
}

/** Wraps a value as a successful {@link Result}. */
export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

/** Wraps an error as a failed {@link Result}. */
export function err<E>(error: E): Err<E> {
  return { ok: false, error };
}
