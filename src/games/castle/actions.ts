/**
 * The Castle's part of the integer action encoding of `meeplekit/ai` (`Expansion.actions`).
 */
import { tileAt } from '../../core/board.js';
import type { Expansion } from '../../core/expansion.js';
import { cellKey } from '../../core/state.js';
import type { CastleConfig } from './options.js';

/** A window of cells: north-west corner and size. */
type Window = Readonly<Record<'x' | 'y' | 'width' | 'height', number>>;

/** Most features on one tile: each owns at least one of the 12 ports. */
const MAX_LOCAL = 12;

/**
 * The Castle's part of the integer action encoding (meeplekit/ai). Its moves name a feature by
 * the cell of its oldest tile, which may be a start field just outside the wall, so cells are
 * counted in the play area's bounding box grown by one cell on every side:
 * - `castle/score`: cell x local feature (12) x token (none, 2, 3);
 * - `castle/extra-turn`: decline, use;
 * - `castle/final-token`: token (4..7) x cell x local feature.
 */
export function castleActions(config: CastleConfig): NonNullable<Expansion['actions']> {
  const layout = config.layout;
  const grown = (w: Window): { x: number; y: number; width: number; cells: number } => {
    const width = w.width + 2;
    return { x: w.x - 1, y: w.y - 1, width, cells: width * (w.height + 2) };
  };
  const tiles = config.tiles.reduce((n, t) => n + t.count, 0);
  return {
    version: 1,
    window: { x: 0, y: 0, width: layout.width, height: layout.height },
    size: (w) => 7 * grown(w).cells * MAX_LOCAL + 2,
    // Every tile completes at most 12 features; one extra-turn question per turn; 8 final tokens at most each.
    maxMoves: () => tiles * MAX_LOCAL + tiles + 18,
    encode(rules, s, move, w) {
      const g = grown(w);
      const x = move['x'] as number;
      const y = move['y'] as number;
      if (move.type === 'castle/extra-turn') return 3 * g.cells * MAX_LOCAL + (move['use'] === true ? 1 : 0);
      const t = tileAt(s, cellKey(x, y));
      if (t < 0) return -1;
      const local = rules.tiles[s.tiles[t]!.kind]!.localIndex[move['feature'] as string];
      if (local === undefined) return -1;
      const at = ((y - g.y) * g.width + (x - g.x)) * MAX_LOCAL + local;
      if (move.type === 'castle/score') {
        const token = move['token'] as number;
        return (token === 0 ? 0 : token === 2 ? 1 : 2) * g.cells * MAX_LOCAL + at;
      }
      if (move.type === 'castle/final-token') return 3 * g.cells * MAX_LOCAL + 2 + ((move['token'] as number) - 4) * g.cells * MAX_LOCAL + at;
      return -1;
    },
    decode(rules, s, id, w) {
      const g = grown(w);
      const block = g.cells * MAX_LOCAL;
      const player = s.step.kind === 'game-over' ? -1 : s.step.player;
      if (id === 3 * block) return { type: 'castle/extra-turn', player, use: false };
      if (id === 3 * block + 1) return { type: 'castle/extra-turn', player, use: true };
      let kind: 'castle/score' | 'castle/final-token';
      let token: number;
      let rest: number;
      if (id < 3 * block) {
        kind = 'castle/score';
        token = [0, 2, 3][Math.floor(id / block)]!;
        rest = id % block;
      } else {
        const k = id - 3 * block - 2;
        if (k < 0 || k >= 4 * block) return null;
        kind = 'castle/final-token';
        token = 4 + Math.floor(k / block);
        rest = k % block;
      }
      const cell = Math.floor(rest / MAX_LOCAL);
      const local = rest % MAX_LOCAL;
      const x = g.x + (cell % g.width);
      const y = g.y + Math.floor(cell / g.width);
      const t = tileAt(s, cellKey(x, y));
      if (t < 0) return null;
      const feature = rules.tiles[s.tiles[t]!.kind]!.def.features[local];
      if (feature === undefined) return null;
      return kind === 'castle/score'
        ? { type: kind, player, x, y, feature: feature.id, token }
        : { type: kind, player, token, x, y, feature: feature.id };
    },
  };
}
