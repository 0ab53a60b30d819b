/**
 * Shrines (heretics): 5 shrine tiles shuffled in. A shrine is a new kind of religious building,
 * `shrine` (code `h`), that completes and scores exactly like a cloister (9 when its 8 neighbours
 * are filled; at the end 1 + neighbours); a follower on it is a heretic. Rules:
 * the expansions digest, "Shrines (heretics)"; the Czech "Count, King and Robber" rules (2nd edition), "Svatyně"
 * (the Czech 2nd-edition annotated rules, which win where the two differ).
 *
 * - Placement: a shrine tile may not lie next to (8 cells around) more than one cloister, nor a
 *   cloister tile next to more than one shrine; and, so that every monk and heretic has at most
 *   one opponent, a shrine may not lie next to a cloister that already has a shrine next to it,
 *   nor a cloister next to a shrine that already has a cloister next to it (docs/expansions/shrines.md
 *   explains this reading of the original).
 * - Challenge: an occupied shrine and an occupied cloister next to each other are in a challenge.
 *   The first of the two to be completed scores as usual; the other one's followers then go back
 *   to their owners and score nothing. Both completed by the same tile: both score. Unresolved at
 *   the end: both score as unfinished cloisters.
 *
 * Events: `shrines/challenge-won` and `shrines/challenge-lost`, each
 * `{ feature, players, against }`: `feature` is the winning (completed) or losing (emptied)
 * shrine or cloister, `players` the players who had followers on it (ascending), `against` the
 * other side of the challenge. The lost event comes before the losers' `follower-returned`
 * events and is the "scored nothing" signal other rules (the Count's) may look for.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { shrines } from 'meeplekit/expansions/shrines';
 *
 * const rules = createRuleset({ game: 'classic', expansions: [shrines()] });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'heretics' });
 * if (!game.ok) throw new Error(game.error.message);
 * console.log(rules.value.tileCount); // 77: 72 base tiles + 5 shrines
 * ```
 *
 * @module meeplekit/expansions/shrines
 */
import { tileAt } from '../../core/board.js';
import { showValue } from '../../core/errors.js';
import type { FeatureRef } from '../../core/events.js';
import { type CompletedFeature, type Expansion, type HookContext } from '../../core/expansion.js';
import { emitExpansionEvent } from '../../core/module-helpers.js';
import { featureRef, followersOn, returnFollowers } from '../../core/engine/scoring.js';
import { findRoot } from '../../core/features.js';
import type { Ruleset } from '../../core/ruleset.js';
import { AROUND_DELTA, cellKey, keyX, keyY, type GameView } from '../../core/state.js';
import { parseTileSpec, type CompiledTile, type FeatureKindDef } from '../../core/tiles.js';
import type { Immutable } from '../../core/types.js';
import { CLASSIC_KINDS } from '../../games/classic/index.js';

/** The expansion's id. */
export const SHRINES = 'shrines';

/**
 * The shrine feature kind: completed by its 8 surroundings like a cloister, owning no ports, and
 * valued by the base game exactly as a cloister (`scoring: 'cloister'`).
 */
export const SHRINE_KIND: FeatureKindDef = {
  name: 'shrine',
  code: 'h',
  completion: 'surroundings',
  tracksTiles: false,
  edgeClass: 0,
  scoring: 'cloister',
};

/**
 * The 5 shrine tiles (ids as in the reference, SH-01 to SH-05), in the project's tile spec
 * (`parseTileSpec`; `h` is the shrine). Source: test/fixtures/classic-tiles.json, set
 * "shrines"; test/shrines.test.ts checks this table against it port by port.
 */
export const SHRINE_TILES: readonly (readonly [id: string, count: number, spec: string])[] = [
  ['SH-01', 1, 'h f:N,E,S,W'],
  ['SH-02', 1, 'h c:N f:E,S,W>c1'],
  ['SH-03', 1, 'h r:S2 f:N,E,S1,S3,W'],
  ['SH-04', 1, 'h c:N r:S2 f:E,S1,S3,W>c1'],
  // Two separate roads, from the north and from the south, both ending at the shrine.
  ['SH-05', 1, 'h r:N2 r:S2 f:N1,S3,W f:N3,E,S1'],
];

/** What a kind is to this expansion: a shrine, a cloister (anything else scored as one), or neither. */
type Role = 0 | 1 | 2;
const NONE: Role = 0;
const SHRINE: Role = 1;
const CLOISTER: Role = 2;

function roleOfKind(rules: Ruleset, kind: number): Role {
  if (rules.kindNames[kind] === SHRINE_KIND.name) return SHRINE;
  return rules.kindScoring[kind] === 'cloister' ? CLOISTER : NONE;
}

/** The role of a tile kind's 'surroundings' feature (a tile has at most one). */
function roleOfTile(rules: Ruleset, tile: CompiledTile): Role {
  return tile.areaFeature < 0 ? NONE : roleOfKind(rules, tile.kinds[tile.areaFeature]!);
}

const ROLE_NAME = ['', 'shrine', 'cloister'] as const;

/** The role of each feature kind of a ruleset, by kind index. */
type KindRoles = Uint8Array;

/**
 * The roles of the kinds of the ruleset last asked about (a module object may serve several
 * rulesets): the placement rule asks for roles at every cell a cloister or shrine tile could go to.
 */
function kindRoles(): (rules: Ruleset) => KindRoles {
  let forRules: Ruleset | null = null;
  let roles: KindRoles = new Uint8Array(0);
  return (rules) => {
    if (forRules !== rules) {
      forRules = rules;
      roles = Uint8Array.from(rules.kindNames, (_, kind) => roleOfKind(rules, kind));
    }
    return roles;
  };
}

/**
 * Roots of the features of role `role` on the tiles around cell `key` (8-neighbourhood), each with
 * the cell it lies on.
 */
function around(rules: Ruleset, s: Immutable<GameView>, key: number, role: Role): { root: number; key: number }[] {
  const out: { root: number; key: number }[] = [];
  for (let i = 0; i < 8; i++) {
    const k = key + AROUND_DELTA[i]!;
    const t = tileAt(s, k);
    if (t < 0) continue;
    const placed = s.tiles[t]!;
    const tile = rules.tiles[placed.kind]!;
    if (roleOfTile(rules, tile) !== role) continue;
    out.push({ root: findRoot(s.features.parent, placed.node + tile.areaFeature), key: k });
  }
  return out;
}

const NO_NEIGHBOUR = -1;
const SEVERAL = -2;

/**
 * The cell key of the one tile of role `role` around cell `key` (8-neighbourhood), or
 * `NO_NEIGHBOUR`, or `SEVERAL`: what the placement rule asks, without building a list.
 */
function loneNeighbour(rules: Ruleset, s: Immutable<GameView>, key: number, role: Role): number {
  let found = NO_NEIGHBOUR;
  for (let i = 0; i < 8; i++) {
    const k = key + AROUND_DELTA[i]!;
    const t = tileAt(s, k);
    if (t < 0 || roleOfTile(rules, rules.tiles[s.tiles[t]!.kind]!) !== role) continue;
    if (found !== NO_NEIGHBOUR) return SEVERAL;
    found = k;
  }
  return found;
}

/**
 * {@link loneNeighbour} for an empty cell `x, y`, from the unfinished cloister-like features
 * (`state.areas`) instead of the 8 cells around: a shrine or cloister next to an empty cell lacks
 * a neighbour, so it is unfinished and listed there. The placement rule asks this for every cell a
 * cloister or shrine tile could go to, and the few unfinished ones are cheaper to scan than 8
 * cells to look up.
 */
function loneNeighbourOfEmpty(roles: KindRoles, s: Immutable<GameView>, x: number, y: number, role: Role): number {
  const g = s.features;
  const areas = s.areas;
  let found = NO_NEIGHBOUR;
  for (let i = 0; i < areas.length; i++) {
    const seg = areas[i]!;
    // Entries whose feature is complete wait to leave the list at the turn's end.
    if (g.open[seg] === 0 || roles[g.kind[seg]!] !== role) continue;
    const at = s.tiles[g.tile[seg]!]!;
    if (Math.abs(at.x - x) > 1 || Math.abs(at.y - y) > 1) continue;
    if (found !== NO_NEIGHBOUR) return SEVERAL;
    found = cellKey(at.x, at.y);
  }
  return found;
}

/**
 * Shrines rules, "Přiložení kartičky Svatyně": a shrine tile may not lie next to more than one
 * cloister, a cloister tile next to more than one shrine. Read with the house-rule note of the
 * same section ("a monk or heretic may not take part in more than one challenge at a time" once
 * several are allowed in one area), the pairing is exclusive: the one neighbour of the other
 * kind must not already have a neighbour of our kind.
 */
function placementError(rules: Ruleset, roles: KindRoles, s: Immutable<GameView>, tile: CompiledTile, x: number, y: number): string | null {
  const role = tile.areaFeature < 0 ? NONE : (roles[tile.kinds[tile.areaFeature]!] as Role);
  if (role === NONE) return null;
  const other = role === SHRINE ? CLOISTER : SHRINE;
  // The cell is empty: the hook is asked only where the tile could lie.
  const partner = loneNeighbourOfEmpty(roles, s, x, y, other);
  if (partner === NO_NEIGHBOUR) return null;
  if (partner === SEVERAL) return `a ${ROLE_NAME[role]} may not lie next to more than one ${ROLE_NAME[other]}`;
  // The cell being placed is empty, so any neighbour of our kind found here is another one.
  if (loneNeighbour(rules, s, partner, role) !== NO_NEIGHBOUR) {
    return `the ${ROLE_NAME[other]} at ${keyX(partner)},${keyY(partner)} already has a ${ROLE_NAME[role]} next to it`;
  }
  return null;
}

/** Players with at least one follower in `counts`, ascending. */
function present(counts: readonly number[]): number[] {
  const out: number[] = [];
  counts.forEach((c, p) => {
    if (c > 0) out.push(p);
  });
  return out;
}

/**
 * Shrines rules, "Započítání bodů": the first of the two completed wins (the base game has just
 * scored it), the other scores nothing and its followers come back; both completed by the same
 * tile both score (the base game scored both, and the other is no longer occupied here).
 */
function resolveChallenges(ctx: HookContext, completed: readonly CompletedFeature[]): void {
  const { rules, state: s } = ctx;
  const g = s.features;
  for (const f of completed) {
    const role = roleOfKind(rules, g.kind[f.root]!);
    if (role === NONE) continue;
    // Completed without followers of its own: it was in no challenge. Followers moved onto it
    // only for its scoring (the Count's cathedral) start none: a challenge begins when a follower
    // is deployed ("při přiložení kartičky s klášterem a obsazení kláštera mnichem dojde k výzvě").
    if (!f.completedWith.some((c) => c > 0)) continue;
    const at = s.tiles[g.tile[f.root]!]!;
    const other = role === SHRINE ? CLOISTER : SHRINE;
    for (const partner of around(rules, s, cellKey(at.x, at.y), other)) {
      // Completed too (by this tile or earlier): it was scored, or had no challenge to lose.
      if (g.open[partner.root] === 0) continue;
      const losers = present(followersOn(s, partner.root));
      if (losers.length === 0) continue;
      if (ctx.emit !== null) {
        const winners = present(f.followers);
        const mine = featureRef(rules, s, f.root);
        const theirs = featureRef(rules, s, partner.root);
        const won: Omit<ChallengeEvent, 'type'> = { feature: mine, players: winners, against: theirs };
        const lost: Omit<ChallengeEvent, 'type'> = { feature: theirs, players: losers, against: mine };
        emitExpansionEvent(ctx.emit, 'shrines/challenge-won', won);
        emitExpansionEvent(ctx.emit, 'shrines/challenge-lost', lost);
      }
      // The loser "scores nothing": its followers simply go home.
      returnFollowers(ctx, partner.root);
    }
  }
}

/** A challenge in progress between an occupied shrine and an occupied cloister next to it. */
export interface Challenge {
  /** The shrine. */
  readonly shrine: FeatureRef;
  /** The cloister. */
  readonly cloister: FeatureRef;
  /** Players with a heretic on the shrine, ascending. */
  readonly heretics: readonly number[];
  /** Players with a monk on the cloister, ascending. */
  readonly monks: readonly number[];
}

/**
 * The shape of the expansion's two events (`ExpansionEvent` narrowed by `type`): who won or lost
 * a challenge, and on which feature.
 */
export interface ChallengeEvent {
  /** `shrines/challenge-won`: `feature` was completed first and scored; `shrines/challenge-lost`: its followers went home unscored. */
  readonly type: 'shrines/challenge-won' | 'shrines/challenge-lost';
  /** The winning (completed) or losing (emptied) shrine or cloister. */
  readonly feature: FeatureRef;
  /** Players who had followers on it, ascending. */
  readonly players: readonly number[];
  /** The other side of the challenge. */
  readonly against: FeatureRef;
}

/**
 * The challenges in progress: every unfinished, occupied shrine with an unfinished, occupied
 * cloister next to it (8-neighbourhood), in the order the shrines were laid. A challenge needs
 * no record of its own: it exists exactly while both sides are occupied and open.
 *
 * @example
 * ```ts
 * import { createRuleset, newGame } from 'meeplekit';
 * import { challenges, shrines } from 'meeplekit/expansions/shrines';
 *
 * const rules = createRuleset({ game: 'classic', expansions: [shrines()] });
 * if (!rules.ok) throw new Error(rules.error.message);
 * const game = newGame(rules.value, { players: 2, seed: 'heretics' });
 * if (!game.ok) throw new Error(game.error.message);
 * console.log(challenges(rules.value, game.value)); // [] at the start
 * ```
 */
export function challenges(rules: Ruleset, state: Immutable<GameView>): Challenge[] {
  const g = state.features;
  const out: Challenge[] = [];
  // `areas` lists the unfinished cloister-like features, in the order they were laid.
  for (const seg of state.areas) {
    const root = findRoot(g.parent, seg);
    if (roleOfKind(rules, g.kind[root]!) !== SHRINE || g.open[root] === 0) continue;
    const heretics = present(followersOn(state, root));
    if (heretics.length === 0) continue;
    const at = state.tiles[g.tile[root]!]!;
    for (const partner of around(rules, state, cellKey(at.x, at.y), CLOISTER)) {
      if (g.open[partner.root] === 0) continue;
      const monks = present(followersOn(state, partner.root));
      if (monks.length === 0) continue;
      out.push({ shrine: featureRef(rules, state, root), cloister: featureRef(rules, state, partner.root), heretics, monks });
    }
  }
  return out;
}

/** The Shrines' own moves: none (a challenge is decided by the tiles, not by a move). */
export type ShrinesMove = never;

/**
 * The Shrines (heretics) expansion module: the shrine kind and its 5 tiles, the placement rule
 * and challenges between heretics and monks. Takes no options: anything given is refused by
 * `createRuleset` (`options/expansion-options`). Hook order 40.
 */
export function shrines(): Expansion<ShrinesMove> {
  // No parameter, so TypeScript callers cannot pass options; JavaScript callers may, and
  // `createRuleset` then refuses them through `validate`.
  const given: readonly unknown[] = Array.from(arguments);
  const kinds = [...CLASSIC_KINDS, SHRINE_KIND];
  const rolesOf = kindRoles();
  return {
    id: SHRINES,
    order: 40,
    options: {},
    kinds: [SHRINE_KIND],
    deployable: [SHRINE_KIND.name],
    tiles: SHRINE_TILES.map(([id, count, spec]) => parseTileSpec(id, count, spec, kinds)),
    validate: () =>
      given.length === 0 || (given.length === 1 && given[0] === undefined)
        ? null
        : `shrines() takes no options, got ${given.map(showValue).join(', ')}`,
    // The placement limits concern only tiles with a cloister or a shrine.
    placementTiles: (tile) => tile.features.some((f) => f.kind === 'cloister' || f.kind === SHRINE_KIND.name),
    placementError: (rules, state, tile, x, y) => placementError(rules, rolesOf(rules), state, tile, x, y),
    // The limits concern the cells around, whatever the rotation.
    placementByCell: true,
    afterScoring: resolveChallenges,
    // The score bounds of meeplekit/ai: Shrines award no points of their own. A shrine scores as a
    // cloister through the base game (its share counts 9 per shrine); a challenge only sends the
    // loser's followers home unscored ("Svatyně"), which gives nobody more than the feature's value.
    scoreBounds: () => ({ min: 0, max: 0 }),
  };
}
