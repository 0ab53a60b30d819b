/**
 * The shape of a ruleset's compiled hooks: each hook kind of the expansion modules gathered once,
 * in hook order, so that the engine walks an array (empty when no module has the hook) instead
 * of asking every module at every point of a turn. Built by `compileRuleset` (ruleset.ts).
 */
import type { Expansion } from './expansion.js';

/**
 * The hook kinds compiled as they are: each module's hook of that kind, bound, in hook order.
 * @internal
 */
export type ListedHook =
  | 'turnStart'
  | 'deployMoves'
  | 'beforeScoring'
  | 'turnMoves'
  | 'scoringOrder'
  | 'beforeTurnEnd'
  | 'nextPlayer'
  | 'deployAllowed'
  | 'tileFollowers'
  | 'releaseAt'
  | 'afterAction'
  | 'beforeFinalScoring'
  | 'drawFilter'
  | 'placementError'
  | 'afterPlace'
  | 'afterScoring'
  | 'finalScoring';

/** The hooks of a ruleset, compiled once: arrays in hook order, empty when no expansion has one. @internal */
export type CompiledHooks = { readonly [K in ListedHook]: readonly NonNullable<Expansion[K]>[] } & {
  /** The expansions with `deployMoves`, in hook order (their counts and draws, for random playouts). */
  readonly deployers: readonly Expansion[];
  /** The expansions that may claim the turn's action, in hook order. */
  readonly claimers: readonly Expansion[];
  /** The `placementError` hooks that concern each tile kind, by tile index. */
  readonly placementByTile: readonly (readonly NonNullable<Expansion['placementError']>[])[];
  /** By tile index: whether every one of those hooks answers per cell (`placementByCell`). */
  readonly placementCellOnly: readonly boolean[];
  /** The `placementCells` hooks that concern each tile kind, by tile index. */
  readonly placementCellsByTile: readonly (readonly NonNullable<Expansion['placementCells']>[])[];
  /**
   * The owners of the move types and step kinds seen so far (`'<id>/<name>'`), filled by
   * `ownerOf` as it finds them and bounded (names come from untrusted moves too).
   */
  readonly owners: Map<string, Expansion>;
};
