/**
 * Feature kinds of Carcassonne: The Castle, with their codes in the tile notation.
 * Rules: the Castle digest.
 *
 * Only paths must match (digest, turn step 1): a path owns the middle port of an edge and gives
 * that edge class 1; towers, houses and courts give class 0, so a path never faces a non-path
 * but the buildings face each other freely (ports of different kinds close each other instead
 * of joining). The wall (`w`) lies only on the virtual start-field tiles: class -1, it demands
 * nothing of the tile facing it and never makes a cell placeable.
 */
import type { FeatureKindDef } from '../../core/tiles.js';

/** The Castle's feature kinds. `+` in a tile spec is a well on a path, a market in a court. */
export const CASTLE_KINDS: readonly FeatureKindDef[] = [
  { name: 'path', code: 'p', completion: 'ports', tracksTiles: true, edgeClass: 1 },
  { name: 'tower', code: 't', completion: 'ports', tracksTiles: true, edgeClass: 0 },
  { name: 'house', code: 'h', completion: 'ports', tracksTiles: true, edgeClass: 0 },
  { name: 'court', code: 'c', completion: 'never', tracksTiles: false, edgeClass: 0 },
  { name: 'wall', code: 'w', completion: 'never', tracksTiles: false, edgeClass: -1 },
];
