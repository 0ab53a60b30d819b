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
 */
import { tileAt } from '../../core/board.js';
import { emitExpansionEvent, type HookContext } from '../../core/expansion.js';
import { clearTile } from '../../core/engine/scoring.js';
import type { Ruleset } from '../../core/ruleset.js';
import { cellKey, SIDE_DELTA, keyX, keyY, type GameView, type Move } from '../../core/state.js';
import type { CompiledTile } from '../../core/tiles.js';
import type { Cell, Immutable } from '../../core/types.js';
import { FLIGHT_STEPS, pdSlice, sameCell, type PrincessDragonState } from './state.js';

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
export function dragonMoves(_rules: Ruleset, state: Immutable<GameView>): Move[] {
  const player = state.step.kind === 'game-over' ? -1 : state.step.player;
  const slice = pdSlice(state);
  const out: Move[] = [];
  for (let side = 0; side < 4; side++) {
    const k = targetOnSide(state, slice, side);
    if (k >= 0) out.push({ type: 'princess-dragon/move-dragon', player, x: keyX(k), y: keyY(k) });
  }
  return out;
}

/**
 * The cells the dragon may enter next, north, east, south, west: a tile, not visited in this
 * flight, not the fairy's cell. Empty when it is off the board or not flying.
 */
export function dragonTargets(state: Immutable<GameView>): Cell[] {
  const slice = pdSlice(state);
  const out: Cell[] = [];
  for (let side = 0; side < 4; side++) {
    const k = targetOnSide(state, slice, side);
    if (k >= 0) out.push({ x: keyX(k), y: keyY(k) });
  }
  return out;
}

/** Whether the dragon can take a step now (some cell of {@link dragonTargets}), without listing them. */
function canStep(state: Immutable<GameView>): boolean {
  const slice = pdSlice(state);
  for (let side = 0; side < 4; side++) if (targetOnSide(state, slice, side) >= 0) return true;
  return false;
}

/** The key of the cell next to the dragon on side `side` (N, E, S, W) if it may enter it, else -1 (`slice`: the state's). */
function targetOnSide(state: Immutable<GameView>, slice: Immutable<PrincessDragonState>, side: number): number {
  const at = slice.dragon;
  const flight = slice.flight;
  if (at === null || flight === null) return -1;
  const k = cellKey(at.x, at.y) + SIDE_DELTA[side]!;
  if (tileAt(state, k) < 0) return -1;
  const x = keyX(k);
  const y = keyY(k);
  if (sameCell(slice.fairy, x, y)) return -1;
  const visited = flight.visited;
  for (let i = 0; i < visited.length; i++) if (visited[i]!.x === x && visited[i]!.y === y) return -1;
  return k;
}

/** After placing (tile `index`, a volcano or not): a volcano brings the dragon onto it, from wherever it is (the first one brings it onto the board). */
export function volcanoLanding(ctx: HookContext, volcano: boolean, index: number): void {
  if (!volcano) return;
  const placed = ctx.state.tiles[index]!;
  const slice = pdSlice(ctx.state);
  const from = slice.dragon;
  slice.dragon = { x: placed.x, y: placed.y };
  emitExpansionEvent(ctx.emit, 'princess-dragon/dragon-landed', { from, to: { x: placed.x, y: placed.y } });
}

/**
 * The draw: while the dragon is off the board (no volcano laid yet), dragon tiles are held back
 * (null once it is on the board). Drawing one, setting it aside and drawing again gives every
 * other tile the same chance as drawing among the others only; the set-aside tiles go back into
 * the bag exactly when the first volcano is laid, which is when this filter lifts; and when only
 * held-back tiles are left, the pile is as good as empty and the game ends (docs/expansions/princess-dragon.md).
 */
export function heldBackFilter(dragons: ReadonlySet<string>) {
  // By tile index, for the ruleset last asked about (a module object may serve several rulesets).
  let forRules: Ruleset | null = null;
  let held: Uint8Array = new Uint8Array(0);
  const allow = (tile: CompiledTile): boolean => held[tile.index] === 0;
  return (rules: Ruleset, state: Immutable<GameView>): ((tile: CompiledTile) => boolean) | null => {
    if (pdSlice(state).dragon !== null) return null;
    if (forRules !== rules) {
      forRules = rules;
      held = Uint8Array.from(rules.tiles, (t) => (dragons.has(t.def.id) ? 1 : 0));
    }
    return allow;
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
  if (steps < FLIGHT_STEPS && canStep(s)) {
    s.step = { kind: 'princess-dragon/dragon', player: (s.active + steps) % s.players, steps };
    return 'wait';
  }
  const slice = pdSlice(s);
  emitExpansionEvent(ctx.emit, 'princess-dragon/flight-ended', { steps, at: slice.dragon });
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
  emitExpansionEvent(ctx.emit, 'princess-dragon/dragon-moved', { player, from, to: { x, y }, step: steps });
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
