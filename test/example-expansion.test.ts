/**
 * The worked example of docs/expansions/writing-an-expansion.md, proven: "Pioneer", an invented
 * rule (an example, not a published expansion): the first player to complete a city scores a
 * bonus at once. The code between the `#region` markers is the code printed in the doc; the first
 * test checks that the two are identical (only the import path differs: the doc imports from
 * 'meeplekit', as a package of its own would, this file from src/).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  createRandomSource,
  createRuleset,
  createSimulator,
  makeReplay,
  newGame,
  replay,
  serializeState,
  type GameEvent,
} from '../src/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { Scenario, readableId } from './helpers.js';

// #region pioneer
import { authoring, type CompletedFeature, type Expansion, type HookContext } from '../src/index.js';

/** Options of the Pioneer example expansion. */
export interface PioneerOptions {
  /** Points for the first completed city: an integer from 1 to 10 (default 3). */
  readonly bonus?: number;
}

/** The Pioneer state slice, `state.ext['pioneer']`: plain JSON. */
export interface PioneerState {
  /** Who completed the first city (-1: nobody yet). */
  claimed: number;
}

/** The expansion's id: the namespace of its slice, events and score reasons. */
export const PIONEER = 'pioneer';

/**
 * Pioneer (an example, not a published expansion): the first player to complete a city, by
 * placing its last tile, scores `bonus` points at once, whoever has knights in it.
 * Event: `pioneer/claimed` `{ player, tiles }`; score reason `pioneer/first-city`.
 */
export function pioneer(options: PioneerOptions = {}): Expansion {
  const bonus = options.bonus ?? 3;
  return {
    id: PIONEER,
    order: 90,
    // Defaults are left out, so pioneer() and pioneer({ bonus: 3 }) are the same ruleset.
    options: bonus === 3 ? {} : { bonus },
    validate: () => (Number.isInteger(bonus) && bonus >= 1 && bonus <= 10 ? null : `bonus must be an integer from 1 to 10, got ${String(bonus)}`),
    setup: (): PioneerState => ({ claimed: -1 }),
    afterScoring(ctx: HookContext, completed: readonly CompletedFeature[]): void {
      const slice = authoring.sliceOf<PioneerState>(ctx.state, PIONEER);
      if (slice.claimed >= 0) return;
      const city = completed.find((f) => f.kind === 'city');
      if (city === undefined) return;
      const player = ctx.state.active; // who placed the tile
      slice.claimed = player;
      authoring.award(ctx, player, bonus, 'pioneer/first-city', city.root);
      authoring.emitExpansionEvent(ctx.emit, 'pioneer/claimed', { player, tiles: city.tiles });
    },
  };
}

// What `--expansion-module` loads: the factory, called with the options of `--option pioneer.<key>=<value>`.
export default pioneer;
// #endregion pioneer

// #region pioneer-test
test('pioneer: the first completed city gives its completer the bonus; the next one gives nothing', () => {
  const rules = createRuleset({ game: 'classic', expansions: [pioneer({ bonus: 5 })] });
  if (!rules.ok) throw new Error(rules.error.message);
  expect(rules.value.id).toMatch(/^classic\+pioneer\{"bonus":5\}#[0-9a-f]{8}$/); // its options, and a digest of what it is made of

  // P0: E turned twice above the start tile closes the start city (2 tiles, nobody on it).
  const sc = new Scenario(rules.value).place('E', 0, -1, 2);
  expect(sc.scored()).toEqual([[0, 5, 'city']]);
  expect(sc.events).toContainEqual({ type: 'pioneer/claimed', player: 0, tiles: 2 });
  expect(sc.state.ext['pioneer']).toEqual({ claimed: 0 });

  // P1 then closes another city (E, then E turned twice above it): no second bonus.
  sc.place('E', 1, -1, 0).place('U', 1, 0, 0).place('E', 1, -2, 2);
  expect(sc.scored()).toEqual([[0, 5, 'city']]);
  expect(sc.state.scores).toEqual([5, 0]);
});
// #endregion pioneer-test

// ---------------------------------------------------------------------------------------------
// The doc's code is this code

describe('docs/expansions/writing-an-expansion.md', () => {
  const doc = readFileSync(new URL('../docs/expansions/writing-an-expansion.md', import.meta.url), 'utf8');
  const self = readFileSync(new URL(import.meta.url), 'utf8');

  /** The text between `// #region name` and `// #endregion name` of this file. */
  function region(name: string): string {
    const start = self.indexOf(`// #region ${name}\n`);
    const end = self.indexOf(`// #endregion ${name}\n`);
    if (start < 0 || end < 0) throw new Error(`no region ${name}`);
    return self.slice(start + `// #region ${name}\n`.length, end);
  }

  /** The TypeScript code blocks of the doc. */
  const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

  test('the example expansion printed in the doc is, character for character, the one tested here (import paths aside)', () => {
    const code = region('pioneer').replaceAll("'../src/index.js'", "'meeplekit'");
    expect(blocks).toContain(code);
  });

  test('examples/pioneer-expansion.ts (which CI compiles and plays with --expansion-module) is, below its comment, the same code', () => {
    const file = readFileSync(new URL('../examples/pioneer-expansion.ts', import.meta.url), 'utf8');
    const code = region('pioneer').replaceAll("'../src/index.js'", "'meeplekit'");
    expect(file.replace(/^\/\*\*[\s\S]*?\*\/\n/, '')).toBe(code);
  });

  test('the example test printed in the doc is the one run here', () => {
    expect(blocks).toContain(region('pioneer-test'));
  });
});

// ---------------------------------------------------------------------------------------------
// More about the example

describe('pioneer: options, interplay, random games', () => {
  test('pioneer: options are validated by createRuleset (options/expansion-options); defaults leave the id bare', () => {
    const bad = createRuleset({ game: 'classic', expansions: [pioneer({ bonus: 0 })] });
    expect(bad.ok ? null : bad.error).toEqual({ code: 'options/expansion-options', message: 'pioneer: bonus must be an integer from 1 to 10, got 0' });
    const odd = createRuleset({ game: 'classic', expansions: [pioneer({ bonus: 2.5 })] });
    expect(odd.ok ? null : odd.error.code).toBe('options/expansion-options');
    const plain = createRuleset({ game: 'classic', expansions: [pioneer()] });
    const same = createRuleset({ game: 'classic', expansions: [pioneer({ bonus: 3 })] });
    expect(readableId(plain.ok ? plain.value.id : '')).toBe('classic+pioneer');
    expect(readableId(same.ok ? same.value.id : '')).toBe('classic+pioneer');
  });

  test('pioneer with King and Robber Baron: both see the same completed city; king-robber (order 30) runs before pioneer (order 90)', () => {
    const rules = createRuleset({ game: 'classic', expansions: [pioneer(), kingRobber()] });
    if (!rules.ok) throw new Error(rules.error.message);
    expect(readableId(rules.value.id)).toBe('classic+king-robber+pioneer');
    const sc = new Scenario(rules.value).place('E', 0, -1, 2);
    const types = sc.events.map((e) => e.type).filter((t) => t !== 'tile-drawn');
    expect(types).toEqual(['tile-placed', 'feature-completed', 'king-robber/king-taken', 'scored', 'pioneer/claimed', 'turn-ended']);
    expect(sc.state.ext).toEqual({ 'king-robber': { king: 0, kingTiles: 2, robber: -1, robberTiles: 0 }, pioneer: { claimed: 0 } });
  });

  test('pioneer: 50 seeded random games end with scores equal to the sum of scored events, at most one bonus each, and replay exactly', () => {
    const rules = createRuleset({ game: 'classic', expansions: [pioneer()] });
    if (!rules.ok) throw new Error(rules.error.message);
    for (let i = 0; i < 50; i++) {
      const g = newGame(rules.value, { players: 2 + (i % 4), seed: `pioneer-${i}` });
      if (!g.ok) throw new Error(g.error.message);
      const sim = createSimulator(rules.value, g.value, { events: true });
      if (!sim.ok) throw new Error(sim.error.message);
      const random = createRandomSource(`pioneer-moves-${i}`);
      const events: GameEvent[] = [];
      while (!sim.value.isOver()) {
        sim.value.playRandom(random);
        events.push(...sim.value.takeEvents());
      }
      const state = sim.value.snapshot();
      const sums = new Array<number>(state.players).fill(0);
      for (const e of events) if (e.type === 'scored') sums[e.player]! += e.points;
      expect(state.scores).toEqual(sums);
      const bonuses = events.filter((e) => e.type === 'scored' && e.reason === 'pioneer/first-city');
      const cities = events.filter((e) => e.type === 'feature-completed' && e.feature.kind === 'city');
      expect(bonuses.length).toBe(cities.length > 0 ? 1 : 0);
      const again = replay(rules.value, JSON.stringify(makeReplay(rules.value, state)));
      expect(again.ok && serializeState(again.value.state)).toBe(serializeState(state));
    }
  });
});
