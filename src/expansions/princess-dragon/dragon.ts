/**
 * The dragon: it lands on every volcano laid, and flies six steps after a dragon tile is laid.
 *
 * The rulebook ("Carcassonne - Princezná a drak", Slovak): the volcano, "Na túto práve položenú
 * kartu so sopkou sa ihneď umiestni drak (bez ohľadu na to, kde sa v tomto okamihu nachádza)";
 * the dragon symbol, "Počnúc hráčom, ktorý umiestnil kartu so symbolom draka, musí každý hráč
 * pohnúť drakom presne o jedno pole (kartu) zvislo alebo vodorovne. Drak sa pohybuje vždy o šesť
 * polí ... Nesmie na žiadnu kartu vstúpiť viac ako raz. Okrem toho nesmie ani vstúpiť na políčko s
 * figurkou víly ... Vždy keď drak vstúpi na kartu, na ktorej je figurka niektorého hráča, musí si
 * hráč túto svoju figurku vziať späť do zásoby"; the dead end ("Slepá ulička"); no flight while
 * the dragon is off the board ("Pozor: Ak ešte nie je odkrytá žiadna karta so sopkou ..."); dragon
 * tiles drawn before the first volcano are set aside and shuffled back in when it is laid.
 *
 * With the Count of Carcassonne, the dragon flies over landscape only: the Count's rules, "Drak
 * může létat vně města Carcassonne, považovat oblasti krajiny za normální kartičky a jíst na nich
 * všechny figurky" (the dragon may fly outside the City, treat its landscape areas as ordinary
 * tiles and eat every follower on them) and "Do města Carcassonne nelze umístit draka ani vílu"
 * (neither the dragon nor the fairy may be put into the City). The City's ten rim squares show
 * landscape (fields, road stubs, city caps) and may be crossed; its two centre squares are all City
 * (the City's inside alone, a feature no follower may stand on): the dragon never enters them. The
 * rule, without naming the Count: the dragon enters only a tile with a feature a follower may be
 * deployed on ({@link hasLandscape}); every land tile has one.
 */
import { tileAt } from '../../core/board.js';
import { type DrawFilter, type HookContext } from '../../core/expansion.js';
import { emitExpansionEvent } from '../../core/module-helpers.js';
import { clearTile } from '../../core/engine/scoring.js';
import type { Ruleset } from '../../core/ruleset.js';
import { cellKey, SIDE_DELTA, keyX, keyY, type GameView, type Move } from '../../core/state.js';
import type { Cell, Immutable } from '../../core/types.js';
import { FLIGHT_STEPS, pdSlice, type PrincessDragonState } from './state.js';

/** A dragon's step: decided by one player, the flight's next cell. */
export interface DragonStep {
  /** Discriminant. */
  readonly kind: 'princess-dragon/dragon';
  /** Who moves the dragon now: the player who laid the dragon tile, then each next player in turn. */
  readonly player: number;
  /** Steps already taken in this flight (0 to 5). */
  readonly steps: number;
}

/** The dragon's moves of the current step: onto each neighbouring tile (N, E, S, W) it may enter. */
export function dragonMoves(rules: Ruleset, state: Immutable<GameView>): Move[] {
  return movesOf(rules, state, state.step.kind === 'game-over' ? -1 : state.step.player);
}

/**
 * The cells the dragon may enter next, north, east, south, west: a tile with landscape (not a
 * centre square of the Count's City), not visited in this flight, not the fairy's cell. Empty
 * when it is off the board or not flying.
 */
export function dragonTargets(rules: Ruleset, state: Immutable<GameView>): Cell[] {
  return movesOf(rules, state, -1).map((m) => ({ x: m.x, y: m.y }));
}

/**
 * Whether the tile with index `t` has landscape the dragon may fly over: a feature a follower may
 * be deployed on (every land tile has one; a centre square of the Count's City, all City, has
 * none).
 */
export function hasLandscape(rules: Ruleset, state: Immutable<GameView>, t: number): boolean {
  const kinds = rules.tiles[state.tiles[t]!.kind]!.kinds;
  const deployable = rules.deployable;
  for (let f = 0; f < kinds.length; f++) if (deployable[kinds[f]!]) return true;
  return false;
}

/** The moves onto each cell the dragon may enter next (N, E, S, W), for `player`. */
function movesOf(rules: Ruleset, state: Immutable<GameView>, player: number): DragonMove[] {
  const slice = pdSlice(state);
  const sides = openSides(rules, state, slice);
  const out: DragonMove[] = [];
  if (sides === 0) return out;
  const at = cellKey(slice.dragon!.x, slice.dragon!.y);
  for (let side = 0; side < 4; side++) {
    if ((sides & (1 << side)) === 0) continue;
    const k = at + SIDE_DELTA[side]!;
    out.push({ type: 'princess-dragon/move-dragon', player, x: keyX(k), y: keyY(k) });
  }
  return out;
}

/** A move of the dragon, as {@link movesOf} builds it (a type alias: a plain record, as expansion moves are). */
type DragonMove = { readonly type: 'princess-dragon/move-dragon'; readonly player: number; readonly x: number; readonly y: number };

/**
 * The sides (bit `side`: N, E, S, W) on which the dragon may enter the next cell (`slice`: the
 * state's): a tile with landscape, not visited in this flight, not the fairy's cell. 0 when it is
 * off the board or not flying. The visited cells and the fairy's are ruled out first (one pass,
 * no look-up: the cell it came from is always one), then the board is asked about the sides left.
 * Moves, targets, the end of a flight and random playouts (which list the dragon's moves at its
 * step) all come from here.
 */
function openSides(rules: Ruleset, state: Immutable<GameView>, slice: Immutable<PrincessDragonState>): number {
  const at = slice.dragon;
  const flight = slice.flight;
  if (at === null || flight === null) return 0;
  let sides = 0b1111 & ~sideOf(at, slice.fairy);
  const visited = flight.visited;
  for (let i = 0; i < visited.length; i++) sides &= ~sideOf(at, visited[i]!);
  if (sides === 0) return 0;
  const k = cellKey(at.x, at.y);
  for (let side = 0; side < 4; side++) {
    if ((sides & (1 << side)) === 0) continue;
    const t = tileAt(state, k + SIDE_DELTA[side]!);
    if (t < 0 || !hasLandscape(rules, state, t)) sides &= ~(1 << side);
  }
  return sides;
}

/** The bit of the side (N, E, S, W: y - 1, x + 1, y + 1, x - 1) on which `cell` lies next to `at`; 0 when it does not (or is null). */
function sideOf(at: Immutable<Cell>, cell: Immutable<Cell> | null): number {
  if (cell === null) return 0;
  const dx = cell.x - at.x;
  const dy = cell.y - at.y;
  if (dx === 0) return dy === -1 ? 0b0001 : dy === 1 ? 0b0100 : 0;
  if (dy === 0) return dx === 1 ? 0b0010 : dx === -1 ? 0b1000 : 0;
  return 0;
}

/** After placing (tile `index`, a volcano or not): a volcano brings the dragon onto it, from wherever it is (the first one brings it onto the board). */
export function volcanoLanding(ctx: HookContext, volcano: boolean, index: number): void {
  if (!volcano) return;
  const placed = ctx.state.tiles[index]!;
  const slice = pdSlice(ctx.state);
  const from = slice.dragon;
  slice.dragon = { x: placed.x, y: placed.y };
  if (ctx.emit !== null) emitExpansionEvent(ctx.emit, 'princess-dragon/dragon-landed', { from, to: { x: placed.x, y: placed.y } });
}

/**
 * The draw: while the dragon is off the board (no volcano laid yet), dragon tiles are held back
 * (null once it is on the board). Drawing one, setting it aside and drawing again gives every
 * other tile the same chance as drawing among the others only; the set-aside tiles go back into
 * the bag exactly when the first volcano is laid, which is when this filter lifts; and when only
 * held-back tiles are left, the pile is as good as empty and the game ends (docs/expansions/princess-dragon.md).
 */
export function heldBackFilter(dragons: ReadonlySet<string>) {
  // A draw mask by tile index (1: may be drawn, 0: a dragon tile), for the ruleset last asked
  // about (a module object may serve several rulesets): the draw reads one entry per kind.
  let forRules: Ruleset | null = null;
  let allowed: Uint8Array = new Uint8Array(0);
  return (rules: Ruleset, state: Immutable<GameView>): DrawFilter | null => {
    if (pdSlice(state).dragon !== null) return null;
    if (forRules !== rules) {
      forRules = rules;
      allowed = Uint8Array.from(rules.tiles, (t) => (dragons.has(t.def.id) ? 0 : 1));
    }
    return allowed;
  };
}

/**
 * After the action: a dragon tile laid this turn (`dragonTile`) starts a flight (the capture of the
 * Tower, part of the action, came before). The placing player moves first. No flight while the dragon is off
 * the board, and none when it cannot move at all.
 */
export function startFlight(ctx: HookContext, dragonTile: boolean): 'wait' | void {
  if (!dragonTile) return;
  const slice = pdSlice(ctx.state);
  if (slice.dragon === null) return;
  slice.flight = { visited: [{ x: slice.dragon.x, y: slice.dragon.y }] };
  return nextStep(ctx, 0);
}

/** Sets the flight's next step (`steps` taken so far), or ends the flight: 'wait' or nothing. */
function nextStep(ctx: HookContext, steps: number): 'wait' | void {
  const s = ctx.state;
  const slice = pdSlice(s);
  if (steps < FLIGHT_STEPS && openSides(ctx.rules, s, slice) !== 0) {
    s.step = { kind: 'princess-dragon/dragon', player: (s.active + steps) % s.players, steps };
    return 'wait';
  }
  if (ctx.emit !== null) emitExpansionEvent(ctx.emit, 'princess-dragon/flight-ended', { steps, at: slice.dragon });
  slice.flight = null;
}

/**
 * Moves the dragon onto `x, y` (a listed target): every follower on that tile goes back to its
 * owner, those the other expansions hold there included (a tower top: "Drak létá, takže ano").
 */
export function playDragon(ctx: HookContext, player: number, x: number, y: number): 'wait' | 'done' {
  const s = ctx.state;
  const slice = pdSlice(s);
  const from = slice.dragon!;
  slice.dragon = { x, y };
  slice.flight!.visited.push({ x, y });
  const steps = (s.step as Immutable<DragonStep>).steps + 1;
  // Events (here and below) are built only when someone takes them: a playout takes none.
  if (ctx.emit !== null) emitExpansionEvent(ctx.emit, 'princess-dragon/dragon-moved', { player, from, to: { x, y }, step: steps });
  clearTile(ctx, tileAt(s, cellKey(x, y)));
  return nextStep(ctx, steps) === 'wait' ? 'wait' : 'done';
}

/** The dragon tiles held back now (while the dragon is off the board), per tile kind id: what the rules set aside as they are drawn. */
export function heldBack(rules: Ruleset, state: Immutable<GameView>, dragons: ReadonlySet<string>): Record<string, number> {
  const out: Record<string, number> = {};
  if (pdSlice(state).dragon !== null) return out;
  for (const t of rules.tiles) if (dragons.has(t.def.id) && state.bag[t.index]! > 0) out[t.def.id] = state.bag[t.index]!;
  return out;
}
