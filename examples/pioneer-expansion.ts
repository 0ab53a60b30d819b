/**
 * Pioneer, the worked example of docs/expansions/writing-an-expansion.md (an invented rule, not a
 * published expansion): an expansion written outside the library, on its public API only (the
 * `authoring` namespace and the exported types of `meeplekit`). Below this comment the file is,
 * character for character, the code the doc prints (test/example-expansion.test.ts checks it).
 *
 * Compiled to JavaScript, it is loaded by the command line and the server:
 *
 *   npm run build
 *   npx esbuild examples/pioneer-expansion.ts --format=esm --outfile=.scratch/pioneer-expansion.js
 *   node dist/cli.js play --expansion-module .scratch/pioneer-expansion.js --expansions pioneer --option pioneer.bonus=5
 *
 * (CI does this in .ci/run; `meeplekit` resolves to this package's own build, dist/, as it would to
 * an installed copy in a project of one's own.)
 */
import { authoring, type CompletedFeature, type Expansion, type HookContext } from 'meeplekit';

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
