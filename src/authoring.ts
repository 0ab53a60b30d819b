/**
 * The toolkit for writing an expansion outside this repository: the helpers the built-in
 * expansions use, re-exported as the `authoring` namespace of the main entry. An expansion is a
 * plain {@link Expansion} object; these functions read and change the state its hooks are handed
 * (docs/expansions/writing-an-expansion.md).
 *
 * @example
 * ```ts
 * import { authoring, createRuleset, type Expansion } from 'meeplekit';
 *
 * // Every completed road scores its owner 1 extra point.
 * const tollRoads: Expansion = {
 *   id: 'toll-roads',
 *   order: 90,
 *   options: {},
 *   afterScoring(ctx, completed) {
 *     for (const f of completed) {
 *       if (f.kind !== 'road') continue;
 *       f.followers.forEach((n, player) => {
 *         if (n > 0) authoring.award(ctx, player, 1, 'toll-roads/bonus', f.root);
 *       });
 *     }
 *   },
 * };
 * const rules = createRuleset({ game: 'classic', expansions: [tollRoads] });
 * console.log(rules.ok && rules.value.id); // classic+toll-roads
 * ```
 *
 * @module
 */
export { parseTileSpec, oppositePort, rotatePort } from './core/tiles.js';
export { featureTiles, findRoot, segmentLocal, tileCount } from './core/features.js';
export { frontierIndex, tileAt } from './core/board.js';
export {
  featureRef,
  followersOn,
  majority,
  award,
  returnFollowers,
  completeRoots,
  addFollower,
  removeFollower,
  placeFollower,
  followersOnTile,
  heldOnTiles,
  clearTile,
} from './core/engine/scoring.js';
export { emitExpansionEvent, sliceOf } from './core/module-helpers.js';
export { moveShapeError } from './core/errors.js';
