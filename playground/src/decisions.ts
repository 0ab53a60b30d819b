/**
 * Labels for every move that is not a tile placement: the buttons of `#choices` ("Follower on
 * the city (north)", "No follower", "Tower: build with a tower piece at 2,-1", "Dragon flies to
 * 1,0 (north)", ...). Every decision of every game and expansion gets a label, and the labels of
 * one decision's moves are distinct (a move whose label would repeat another's gets its details
 * added), so a player can always tell the buttons apart. Pure: no DOM.
 */
import { tileDefs, type Move, type PublicView, type Ruleset, type TileDef } from 'meeplekit';

const SIDE_NAMES = ['north', 'east', 'south', 'west'] as const;
const KIND_NAMES: Readonly<Record<string, string>> = {
  city: 'city',
  road: 'road',
  field: 'field',
  cloister: 'cloister',
  river: 'river',
  shrine: 'shrine',
};

const defsCache = new WeakMap<Ruleset, Map<string, TileDef>>();
function defsOf(rules: Ruleset): Map<string, TileDef> {
  let defs = defsCache.get(rules);
  if (defs === undefined) defsCache.set(rules, (defs = new Map(tileDefs(rules).map((d) => [d.id, d]))));
  return defs;
}

/** The tile at a cell of a view, or undefined. */
function tileAt(view: PublicView, x: number, y: number): { readonly tile: string; readonly rotation: number } | undefined {
  return view.tiles.find((t) => t.x === x && t.y === y);
}

/** "the city (north)", "the cloister", "the field (north, east)": a feature of the tile at x, y, its sides turned with the tile. */
export function featureWords(rules: Ruleset, view: PublicView, x: number, y: number, feature: string): string {
  if (feature === 'top') return `the top of the tower at ${x},${y}`;
  const placed = tileAt(view, x, y);
  const def = placed === undefined ? undefined : defsOf(rules).get(placed.tile);
  const f = def?.features.find((d) => d.id === feature);
  if (placed === undefined || f === undefined) return `feature ${feature} at ${x},${y}`;
  const kind = KIND_NAMES[f.kind] ?? f.kind.replace(/^.*\//, '');
  const sides: string[] = [];
  for (const port of f.ports) {
    const side = SIDE_NAMES[('NESW'.indexOf(port[0]!) + placed.rotation) % 4]!;
    if (!sides.includes(side)) sides.push(side);
  }
  sides.sort((a, b) => SIDE_NAMES.indexOf(a as (typeof SIDE_NAMES)[number]) - SIDE_NAMES.indexOf(b as (typeof SIDE_NAMES)[number]));
  return `the ${kind}${sides.length === 0 ? '' : ` (${sides.join(', ')})`}`;
}

const player = (p: unknown): string => `Player ${Number(p) + 1}`;
const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v));

/** The direction from one cell to a neighbour ("north"), or the cell itself. */
function direction(from: { x: number; y: number } | null, x: number, y: number): string {
  if (from === null) return `${x},${y}`;
  const dx = x - from.x;
  const dy = y - from.y;
  const name = dx === 0 && dy === -1 ? 'north' : dx === 1 && dy === 0 ? 'east' : dx === 0 && dy === 1 ? 'south' : dx === -1 && dy === 0 ? 'west' : null;
  return name === null ? `to ${x},${y}` : `${name} (to ${x},${y})`;
}

/** Where the dragon stands in a view (its module's public part), or null. */
function dragonCell(view: PublicView): { x: number; y: number } | null {
  const part = view.modules['princess-dragon'] as { dragon?: unknown } | undefined;
  const d = part?.dragon as { x?: unknown; y?: unknown } | null | undefined;
  return d !== null && d !== undefined && typeof d.x === 'number' && typeof d.y === 'number' ? { x: d.x, y: d.y } : null;
}

/** The move types with words of their own in {@link moveLabel} (any other gets its type and fields). */
export const LABELLED_MOVES: readonly string[] = [
  'place', 'deploy', 'pass',
  'tower/build', 'tower/cap', 'tower/capture', 'tower/decline', 'tower/ransom',
  'princess-dragon/move-dragon', 'princess-dragon/fairy', 'princess-dragon/portal', 'princess-dragon/princess',
  'count/enter', 'count/move-count', 'count/move-out', 'count/to-field', 'count/to-feature', 'count/decline',
  'castle/score', 'castle/extra-turn', 'castle/final-token',
];

/** The label of one move (not made distinct: see {@link moveLabels}). */
export function moveLabel(rules: Ruleset, view: PublicView, move: Move): string {
  const m = move as unknown as Record<string, unknown>;
  const step = view.step as unknown as Record<string, unknown>;
  const here = { x: num(step['x']), y: num(step['y']) };
  const at = (): string => featureWords(rules, view, num(m['x']), num(m['y']), str(m['feature']));
  switch (move.type) {
    case 'place':
      return `Place the tile at ${num(m['x'])},${num(m['y'])}, turned ${num(m['rotation']) * 90}°`;
    case 'deploy':
      return Number.isFinite(here.x) ? `Follower on ${featureWords(rules, view, here.x, here.y, str(m['feature']))}` : `Follower on ${str(m['feature'])}`;
    case 'pass':
      return 'No follower';
    case 'tower/build':
      return `Tower: build with a tower piece at ${num(m['x'])},${num(m['y'])}`;
    case 'tower/cap':
      return `Tower: put a follower on top of the tower at ${num(m['x'])},${num(m['y'])}`;
    case 'tower/capture':
      return `Tower: capture ${player(m['owner'])}'s follower on ${at()} at ${num(m['x'])},${num(m['y'])}`;
    case 'tower/decline':
      return 'Tower: capture nobody';
    case 'tower/ransom':
      return `Ransom: pay 3 points to ${player(m['captor'])} for your follower`;
    case 'princess-dragon/move-dragon':
      return `Dragon flies ${direction(dragonCell(view), num(m['x']), num(m['y']))}`;
    case 'princess-dragon/fairy':
      return `Fairy to the tile at ${num(m['x'])},${num(m['y'])}`;
    case 'princess-dragon/portal':
      return `Portal: follower on ${at()} at ${num(m['x'])},${num(m['y'])}`;
    case 'princess-dragon/princess':
      return `Princess: send ${player(m['owner'])}'s knight on ${at()} at ${num(m['x'])},${num(m['y'])} home`;
    case 'count/enter':
      return `Count: a follower into the ${str(m['quarter'])} quarter`;
    case 'count/move-count':
      return `Count: move the Count to the ${str(m['quarter'])} quarter`;
    case 'count/move-out':
      return num(m['count']) === 0 ? 'Count: move no follower out' : `Count: move ${num(m['count'])} follower${num(m['count']) === 1 ? '' : 's'} out of the ${str(step['quarter'] ?? 'quarter')}${typeof step['quarter'] === 'string' ? ' quarter' : ''}`;
    case 'count/to-field':
      return `Count: a follower from the market to ${at()} at ${num(m['x'])},${num(m['y'])}`;
    case 'count/to-feature':
      return `Count: a follower from a quarter to ${at()} at ${num(m['x'])},${num(m['y'])}`;
    case 'count/decline':
      return step['kind'] === 'count/enter' ? 'Count: no follower into the City' : step['kind'] === 'count/move-count' ? 'Count: leave the Count where it is' : 'Count: no more followers';
    case 'castle/score': {
      const token = num(m['token']);
      return `Score ${at()} at ${num(m['x'])},${num(m['y'])}${token === 2 ? ' doubled with the tower token' : token === 3 ? ' doubled with the house token' : ''}`;
    }
    case 'castle/extra-turn':
      return m['use'] === true ? 'Keep: use the token for an extra turn now' : 'Keep the extra-turn token for later';
    case 'castle/final-token':
      return `Final token ${num(m['token'])} on ${at()} at ${num(m['x'])},${num(m['y'])}`;
    default:
      return `${move.type.replace('/', ': ')}${details(m)}`;
  }
}

/** A move's fields other than its type and player, as words. */
function details(m: Record<string, unknown>): string {
  const parts = Object.entries(m)
    .filter(([k]) => k !== 'type' && k !== 'player')
    .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/**
 * The labels of a decision's moves, in order: each non-empty, and no two alike (a label shared by
 * several moves gets each move's details added).
 */
export function moveLabels(rules: Ruleset, view: PublicView, moves: readonly Move[]): string[] {
  const labels = moves.map((m) => moveLabel(rules, view, m));
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  const out = labels.map((l, i) => (counts.get(l)! > 1 ? `${l}${details(moves[i] as unknown as Record<string, unknown>)}` : l));
  // Details could still collide only for identical moves: number what remains.
  const seen = new Map<string, number>();
  return out.map((l) => {
    const n = (seen.get(l) ?? 0) + 1;
    seen.set(l, n);
    return n === 1 ? l : `${l} #${n}`;
  });
}

/** The moves shown as buttons: every legal move but the tile placements (those are cells on the board). */
export function choicesOf(legal: readonly Move[]): Move[] {
  return legal.filter((m) => m.type !== 'place');
}
