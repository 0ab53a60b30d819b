/**
 * Drawing tiles: the chosen draws first, then the bag (with the modules' draw filters), a tile
 * that fits nowhere discarded and another drawn, an empty bag ending the game.
 */
import { canPlaceAnywhere } from '../board.js';
import type { Emit } from '../events.js';
import type { DrawFilter } from '../expansion.js';
import { meepleError } from '../errors.js';
import type { Ruleset } from '../ruleset.js';
import { randomBelow } from '../rng.js';
import type { GameState, GameView } from '../state.js';
import type { CompiledTile } from '../tiles.js';
import type { Immutable } from '../types.js';
import { ChosenDrawError, RECORD, RECORD_DRAWS } from './chosen-draws.js';
import { endGame } from './game-end.js';

/**
 * Scratch list of the tile kinds that may be drawn (drawTile with draw filters): rewritten before
 * every read, never kept across calls, so module-level without being state; grown on demand.
 */
let DRAWABLE = new Int32Array(128);

/**
 * Draws tiles for the active player until one fits (discarding the others); ends the game when the
 * bag is empty. The game's chosen draws come first, in order (see {@link chosenDraw}).
 */
export function drawTile(rules: Ruleset, s: GameState, emit: Emit): void {
  const bag = s.bag;
  for (;;) {
    // One length check per draw when no draw was chosen: the hot path stays as it was.
    if (s.rng.length > RECORD && s.rng[RECORD]! < s.rng[RECORD + 1]!) {
      if (takeTile(rules, s, chosenDraw(rules, s), emit)) return;
      continue;
    }
    let k = 0;
    const filters = drawFilters(rules, s);
    if (filters === null) {
      const total = s.bagSize;
      if (total === 0) {
        endGame(rules, s, emit);
        return;
      }
      let r = randomBelow(s.rng, total);
      while (r >= bag[k]!) r -= bag[k++]!;
    } else {
      // Expansions hold tiles back (River: river tiles first, the lake last). The kinds that may
      // be drawn are listed once (each filter asked once per kind left), then walked. A single
      // mask (the River's phases, the held-back dragon tiles) is read without a call per kind.
      if (DRAWABLE.length < bag.length) DRAWABLE = new Int32Array(bag.length);
      const drawable = DRAWABLE;
      let kinds = 0;
      let n = 0;
      const only = filters.length === 1 && typeof filters[0] !== 'function' ? filters[0]! : null;
      for (let i = 0; i < bag.length; i++) {
        if (bag[i]! > 0 && (only !== null ? only[i] === 1 : mayDraw(filters, rules.tiles[i]!))) {
          drawable[kinds++] = i;
          n += bag[i]!;
        }
      }
      if (n === 0) {
        // The bag is empty, or every tile left is held back (the dragon tiles before any volcano,
        // which would be set aside one by one as they are drawn): the game ends.
        endGame(rules, s, emit);
        return;
      }
      let r = randomBelow(s.rng, n);
      for (let j = 0; ; j++) {
        k = drawable[j]!;
        if (r < bag[k]!) break;
        r -= bag[k]!;
      }
    }
    if (takeTile(rules, s, k, emit)) return;
  }
}

/**
 * The next chosen tile kind, counted as drawn. It was in the bag at set-up (newGame checked the
 * copies) and draws before it were chosen too, so it is in the bag now; but the rules may hold it
 * back at this moment (River: the lake before the course; the dragon before a volcano is laid),
 * which only the board can tell: then the game cannot go on as defined, and the move that got
 * here is refused (`draw/held-back`).
 */
function chosenDraw(rules: Ruleset, s: GameState): number {
  const rng = s.rng;
  const i = rng[RECORD]!;
  const k = rng[RECORD_DRAWS + i]!;
  const filters = drawFilters(rules, s);
  if (s.bag[k]! <= 0 || (filters !== null && !mayDraw(filters, rules.tiles[k]!))) {
    const id = rules.tiles[k]!.def.id;
    throw new ChosenDrawError(
      meepleError('draw/held-back', `chosen draw ${i} (tile ${id}) cannot be drawn now: ${s.bag[k]! <= 0 ? 'no copy is left in the bag' : "the rules hold it back at this point of the game"}`),
    );
  }
  rng[RECORD] = i + 1;
  return k;
}

/**
 * Takes tile kind `k` out of the bag for the active player: it is theirs to place if it fits
 * somewhere (true), else it is discarded (false: classic rules, a tile that fits nowhere is
 * removed from the game and another drawn). The research interface's chance outcomes apply
 * draws through this too. @internal
 */
export function takeTile(rules: Ruleset, s: GameState, k: number, emit: Emit): boolean {
  s.bag[k]!--;
  s.bagSize--;
  const tile = rules.tiles[k]!;
  if (emit !== null) emit({ type: 'tile-drawn', player: s.active, tile: tile.def.id });
  if (canPlaceAnywhere(rules, s, tile)) {
    s.step = { kind: 'place-tile', player: s.active, tile: tile.def.id };
    return true;
  }
  s.discarded[k]!++;
  if (emit !== null) emit({ type: 'tile-discarded', player: s.active, tile: tile.def.id });
  return false;
}

/** The expansions' draw filters in force now, or null when none holds anything back. @internal */
export function drawFilters(rules: Ruleset, s: Immutable<GameView>): DrawFilter[] | null {
  const hooks = rules.hooks.drawFilter;
  let out: DrawFilter[] | null = null;
  for (let i = 0; i < hooks.length; i++) {
    const f = hooks[i]!(rules, s);
    if (f !== null) (out ??= []).push(f);
  }
  return out;
}

/** Whether every filter (predicate or mask) allows the tile kind. @internal */
export function mayDraw(filters: readonly DrawFilter[], tile: CompiledTile): boolean {
  for (let i = 0; i < filters.length; i++) {
    const f = filters[i]!;
    if (typeof f === 'function' ? !f(tile) : f[tile.index] !== 1) return false;
  }
  return true;
}
