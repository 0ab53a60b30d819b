/**
 * Typed moves (issue 30): every module's moves are typed, and a ruleset made by `createRuleset`
 * carries its modules' move types to `applyMove`, so that a misspelt module move (`'tower/plase'`),
 * a move of a module the ruleset does not have, or a misspelt field of any move does not compile.
 * This file is type-checked by `npm run typecheck`: each `@ts-expect-error` line must fail to
 * compile (the check fails if it compiles), and every other line must compile. The tests also run
 * the lines, to show that what does not compile is refused at run time too.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  applyMove,
  createRuleset,
  legalMoves,
  newGame,
  type CoreMove,
  type Expansion,
  type ExpansionMove,
  type Move,
  type Ruleset,
  type RulesetMoves,
} from '../src/index.js';
import { castle, type CastleMove } from '../src/games/castle/entry.js';
import { classic } from '../src/games/classic/entry.js';
import { count, type CountMove } from '../src/expansions/count/index.js';
import { kingRobber, type KingRobberMove } from '../src/expansions/king-robber/index.js';
import { princessDragon, type PrincessDragonMove } from '../src/expansions/princess-dragon/index.js';
import { river, type RiverMove } from '../src/expansions/river/index.js';
import { shrines, type ShrinesMove } from '../src/expansions/shrines/index.js';
import { tower, type TowerMove } from '../src/expansions/tower/index.js';
import { must } from './helpers.js';

const code = (r: { ok: boolean; error?: { code: string } }): string => (r.ok ? 'ok' : r.error!.code);

describe('each module exports the type of its moves', () => {
  it('factories carry them', () => {
    expectTypeOf(tower()).toEqualTypeOf<Expansion<TowerMove>>();
    expectTypeOf(count()).toEqualTypeOf<Expansion<CountMove>>();
    expectTypeOf(princessDragon()).toEqualTypeOf<Expansion<PrincessDragonMove>>();
    expectTypeOf(kingRobber()).toEqualTypeOf<Expansion<KingRobberMove>>();
    expectTypeOf(shrines()).toEqualTypeOf<Expansion<ShrinesMove>>();
    expectTypeOf(river()).toEqualTypeOf<Expansion<RiverMove>>();
    expectTypeOf<KingRobberMove | ShrinesMove | RiverMove>().toBeNever();
    expectTypeOf<TowerMove['type']>().toEqualTypeOf<'tower/build' | 'tower/cap' | 'tower/capture' | 'tower/ransom' | 'tower/decline'>();
    expectTypeOf<CastleMove['type']>().toEqualTypeOf<'castle/score' | 'castle/extra-turn' | 'castle/final-token'>();
    expectTypeOf<CoreMove['type']>().toEqualTypeOf<'place' | 'deploy' | 'pass'>();
  });

  it('createRuleset works out the moves of the modules it is given', () => {
    const c = createRuleset({ game: 'classic' });
    expectTypeOf(c).toEqualTypeOf<ReturnType<typeof createRuleset<{ game: 'classic' }>>>();
    expectTypeOf<RulesetMoves<{ game: 'classic' }>>().toBeNever();
    expectTypeOf<RulesetMoves<{ game: ReturnType<typeof classic>; expansions: [ReturnType<typeof river>, ReturnType<typeof shrines>] }>>().toBeNever();
    expectTypeOf<RulesetMoves<{ game: 'classic'; expansions: [Expansion<TowerMove>, Expansion<CountMove>] }>>().toEqualTypeOf<TowerMove | CountMove>();
    expectTypeOf<RulesetMoves<{ game: ReturnType<typeof castle> }>>().toEqualTypeOf<CastleMove>();
    // Modules whose type does not say which moves they have: any module move, as before.
    expectTypeOf<RulesetMoves<{ game: 'classic'; expansions: readonly Expansion[] }>>().toEqualTypeOf<ExpansionMove>();
    const t = must(createRuleset({ game: 'classic', expansions: [tower(), river()] }));
    expectTypeOf(t).toEqualTypeOf<Ruleset<TowerMove>>();
    // A typed ruleset is still a Ruleset: every function that takes one takes it.
    const plain: Ruleset = t;
    expect(plain.id).toBe(t.id);
  });
});

describe('applyMove: typed moves compile, mistakes do not', () => {
  const rules = must(createRuleset({ game: 'classic', expansions: [tower(), princessDragon(), count()] }));
  const state = must(newGame(rules, { players: 2, seed: 'typed-moves', draws: ['D'] }));

  it('the core moves and every module move of the ruleset compile', () => {
    const first = legalMoves(rules, state)[0]!;
    if (first.type !== 'place') throw new Error('a place step');
    expect(code(applyMove(rules, state, { type: 'place', player: 0, x: first.x, y: first.y, rotation: first.rotation }))).toBe('ok');
    // Legal or not here, each compiles: the run-time checks decide.
    expect(code(applyMove(rules, state, { type: 'tower/build', player: 0, x: 1, y: 0 }))).not.toBe('ok');
    expect(code(applyMove(rules, state, { type: 'tower/capture', player: 0, x: 1, y: 0, feature: 'c1', owner: 1 }))).not.toBe('ok');
    expect(code(applyMove(rules, state, { type: 'princess-dragon/move-dragon', player: 0, x: 1, y: 0 }))).not.toBe('ok');
    expect(code(applyMove(rules, state, { type: 'count/enter', player: 0, quarter: 'market' }))).not.toBe('ok');
    expect(code(applyMove(rules, state, { type: 'pass', player: 0 }))).not.toBe('ok');
    expect(code(applyMove(rules, state, { type: 'deploy', player: 0, feature: 'c1' }))).not.toBe('ok');
  });

  it('a misspelt module move type, or one of a module the ruleset lacks, does not compile', () => {
    // @ts-expect-error: no module has 'tower/plase'
    expect(code(applyMove(rules, state, { type: 'tower/plase', player: 0, x: 1, y: 0 }))).toBe('tower/unknown-move');
    // @ts-expect-error: the ruleset has no Castle
    expect(code(applyMove(rules, state, { type: 'castle/score', player: 0, x: 1, y: 0, feature: 'c1', token: 0 }))).toBe('move/unknown-type');
    const classicOnly = must(createRuleset({ game: 'classic', expansions: [river(), kingRobber(), shrines()] }));
    const start = must(newGame(classicOnly, { players: 2, seed: 'typed-moves' }));
    // @ts-expect-error: the ruleset has no Tower
    expect(code(applyMove(classicOnly, start, { type: 'tower/build', player: 0, x: 1, y: 0 }))).toBe('move/unknown-type');
  });

  it('a misspelt, missing or mistyped field of a move does not compile', () => {
    // @ts-expect-error: 'rotaton' does not exist in type 'PlaceMove' (the error names the field)
    expect(code(applyMove(rules, state, { type: 'place', player: 0, x: 1, y: 0, rotaton: 0 }))).not.toBe('ok');
    // @ts-expect-error: 'rotation' is missing
    expect(code(applyMove(rules, state, { type: 'place', player: 0, x: 1, y: 0 }))).not.toBe('ok');
    // @ts-expect-error: 'featur' does not exist in type 'DeployMove'
    expect(code(applyMove(rules, state, { type: 'deploy', player: 0, featur: 'c1' }))).not.toBe('ok');
    // @ts-expect-error: 'quartr' does not exist in the Count's move
    expect(code(applyMove(rules, state, { type: 'count/enter', player: 0, quartr: 'market' }))).not.toBe('ok');
    // @ts-expect-error: a quarter the Count does not have
    expect(code(applyMove(rules, state, { type: 'count/enter', player: 0, quarter: 'harbour' }))).not.toBe('ok');
    // @ts-expect-error: x must be a number
    expect(code(applyMove(rules, state, { type: 'tower/build', player: 0, x: '1', y: 0 }))).not.toBe('ok');
  });

  it('moves from the engine or from input stay untrusted values, checked at run time', () => {
    const listed: Move[] = legalMoves(rules, state);
    expect(code(applyMove(rules, state, listed[0]!))).toBe('ok');
    const wire: unknown = JSON.parse('{"type":"tower/plase","player":0}');
    expect(code(applyMove(rules, state, wire))).toBe('tower/unknown-move');
    const anyModule: ExpansionMove = { type: 'tower/plase', player: 0 };
    expect(code(applyMove(rules, state, anyModule))).toBe('tower/unknown-move');
    // A ruleset typed without its modules accepts any module move from code, as before.
    const untyped: Ruleset = rules;
    expect(code(applyMove(untyped, state, { type: 'tower/plase', player: 0 }))).toBe('tower/unknown-move');
  });

  it("The Castle's moves are typed too", () => {
    const c = must(createRuleset({ game: castle() }));
    const s = must(newGame(c, { players: 2, seed: 'typed-castle' }));
    expect(code(applyMove(c, s, { type: 'castle/extra-turn', player: 0, use: true }))).not.toBe('ok');
    // @ts-expect-error: 'uses' does not exist in type 'CastleExtraTurnMove'
    expect(code(applyMove(c, s, { type: 'castle/extra-turn', player: 0, uses: true }))).not.toBe('ok');
    // @ts-expect-error: The Castle has no Tower
    expect(code(applyMove(c, s, { type: 'tower/build', player: 0, x: 1, y: 0 }))).toBe('move/unknown-type');
  });
});
