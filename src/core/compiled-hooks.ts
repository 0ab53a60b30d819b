/**
 * The shape of a ruleset's compiled hooks: each hook kind of the expansion modules gathered once,
 * in hook order, so that the engine walks an array (empty when no module has the hook) instead
 * of asking every module at every point of a turn. Built by `compileRuleset` (ruleset.ts).
 */
import type { Expansion } from './expansion.js';

/** The hooks of a ruleset, compiled once: arrays in hook order, empty when no expansion has one. @internal */
export interface CompiledHooks {
  readonly turnStart: readonly NonNullable<Expansion['turnStart']>[];
  readonly deployMoves: readonly NonNullable<Expansion['deployMoves']>[];
  /** The expansions with `deployMoves`, in hook order (their counts and draws, for random playouts). */
  readonly deployers: readonly Expansion[];
  readonly beforeScoring: readonly NonNullable<Expansion['beforeScoring']>[];
  readonly turnMoves: readonly NonNullable<Expansion['turnMoves']>[];
  readonly scoringOrder: readonly NonNullable<Expansion['scoringOrder']>[];
  readonly beforeTurnEnd: readonly NonNullable<Expansion['beforeTurnEnd']>[];
  readonly nextPlayer: readonly NonNullable<Expansion['nextPlayer']>[];
  readonly deployAllowed: readonly NonNullable<Expansion['deployAllowed']>[];
  /** The expansions that may claim the turn's action, in hook order. */
  readonly claimers: readonly Expansion[];
  readonly tileFollowers: readonly NonNullable<Expansion['tileFollowers']>[];
  readonly releaseAt: readonly NonNullable<Expansion['releaseAt']>[];
  readonly afterAction: readonly NonNullable<Expansion['afterAction']>[];
  readonly beforeFinalScoring: readonly NonNullable<Expansion['beforeFinalScoring']>[];
  readonly drawFilter: readonly NonNullable<Expansion['drawFilter']>[];
  readonly placementError: readonly NonNullable<Expansion['placementError']>[];
  /** The `placementError` hooks that concern each tile kind, by tile index. */
  readonly placementByTile: readonly (readonly NonNullable<Expansion['placementError']>[])[];
  /** By tile index: whether every one of those hooks answers per cell (`placementByCell`). */
  readonly placementCellOnly: readonly boolean[];
  /** The `placementCells` hooks that concern each tile kind, by tile index. */
  readonly placementCellsByTile: readonly (readonly NonNullable<Expansion['placementCells']>[])[];
  readonly afterPlace: readonly NonNullable<Expansion['afterPlace']>[];
  readonly afterScoring: readonly NonNullable<Expansion['afterScoring']>[];
  readonly finalScoring: readonly NonNullable<Expansion['finalScoring']>[];
  /**
   * The owners of the move types and step kinds seen so far (`'<id>/<name>'`), filled by
   * `ownerOf` as it finds them and bounded (names come from untrusted moves too).
   */
  readonly owners: Map<string, Expansion>;
}
