/**
 * Search speed of meeplekit/bots: iterations per second of the search bot, over the decisions of
 * seeded games played by the greedy bot (every tenth decision of each game by default, so that
 * early, middle and late positions count), on one core; tile placements (the decisions with the
 * most candidates, which use the whole budget) also alone. Decisions with a single legal move
 * are not searched and not counted.
 *
 *   npm run bench:bots -- [--level 5] [--games 3] [--game classic|castle] [--expansions six|id,id,...]
 *                         [--players 2] [--every 10] [--json]
 *
 * `--expansions six` is all six expansions together: the River (I), the Count, the King and Robber
 * Baron, the Princess and the Dragon, the Shrines and the Tower (as `npm run arena -- --config six`).
 */
import { parseArgs } from 'node:util';
import { benchOptions } from './options.js';
import { applyMove, createRandomSource, createRuleset, greedyBot, newGame, type GameState } from '../src/index.js';
import { castle } from '../src/games/castle/entry.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { river } from '../src/expansions/river/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import type { Expansion } from '../src/core/expansion.js';
import { resolveOptions, type Level } from '../src/bots/levels.js';
import { createSearch, runSearch } from '../src/bots/search.js';

const { values: args } = benchOptions(import.meta.url, () => parseArgs({
  options: {
    level: { type: 'string', default: '5' },
    games: { type: 'string', default: '3' },
    game: { type: 'string', default: 'classic' },
    players: { type: 'string', default: '2' },
    every: { type: 'string', default: '10' },
    expansions: { type: 'string', default: '' },
    json: { type: 'boolean', default: false },
  },
}));
const level = Number(args.level) as Level;
const MODULES: Record<string, () => Expansion> = { count, 'king-robber': kingRobber, 'princess-dragon': princessDragon, river, shrines, tower };
const ids = args.expansions === 'six' ? ['count', 'king-robber', 'princess-dragon', 'river', 'shrines', 'tower'] : args.expansions.split(',').filter((s) => s !== '');
const expansions = ids.map((id) => {
  const make = MODULES[id];
  if (make === undefined) throw new Error(`--expansions: unknown '${id}' (${Object.keys(MODULES).join(', ')} or six)`);
  return make();
});
const created = createRuleset(args.game === 'castle' ? { game: castle() } : { game: 'classic', expansions });
if (!created.ok) throw new Error(created.error.message);
const rules = created.value;
let iterations = 0;
let ms = 0;
let decisions = 0;
let slowest = 0;
// Tile placements apart: the decisions with the most candidates, which take the whole budget.
const place = { iterations: 0, ms: 0, decisions: 0 };
for (let g = 0; g < Number(args.games); g++) {
  const game = newGame(rules, { players: Number(args.players), seed: `bench-bots/${g}` });
  if (!game.ok) throw new Error(game.error.message);
  let state: GameState = game.value;
  const greedy = greedyBot(createRandomSource(`bench-bots/${g}`));
  for (let d = 0; state.step.kind !== 'game-over'; d++) {
    if (d % Number(args.every) === 0) {
      const search = createSearch(rules, state, { level });
      if (!search.ok) throw new Error(search.error.message);
      const t = performance.now();
      runSearch(search.value);
      const dt = performance.now() - t;
      if (search.value.iterations > 0) {
        iterations += search.value.iterations;
        ms += dt;
        decisions++;
        slowest = Math.max(slowest, dt);
        if (state.step.kind === 'place-tile') {
          place.iterations += search.value.iterations;
          place.ms += dt;
          place.decisions++;
        }
      }
    }
    const next = applyMove(rules, state, greedy(rules, state));
    if (!next.ok) throw new Error(next.error.message);
    state = next.value.state;
  }
}
// The level's searches a decision in this game (The Castle's rollouts to the end have their own).
const settled = resolveOptions({ level }, rules.game.game);
if (!settled.ok) throw new Error(settled.error.message);
const levelBudget = settled.value.iterations;
const result = { game: rules.id, expansions: ids, players: Number(args.players), level, budget: levelBudget, decisions, iterationsPerSecond: Math.round((iterations / ms) * 1000), meanMsPerDecision: Math.round(ms / decisions), slowestMs: Math.round(slowest), placements: { decisions: place.decisions, iterationsPerSecond: Math.round((place.iterations / place.ms) * 1000), meanMs: Math.round(place.ms / place.decisions) } };
console.log(args.json ? JSON.stringify(result) : `bots: level ${level} in ${result.players}-player ${result.game}: ${result.iterationsPerSecond} iterations/s, ${result.meanMsPerDecision} ms a decision (slowest ${result.slowestMs} ms) over ${decisions} decisions; tile placements alone: ${result.placements.iterationsPerSecond} iterations/s, ${result.placements.meanMs} ms each over ${place.decisions}`);
