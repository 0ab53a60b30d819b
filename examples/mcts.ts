/**
 * The information-set MCTS bot of examples/mcts-bot.ts, played against uniformly random play.
 *
 *   npm run build && npm run example:mcts -- --games 200 --iterations 200 [--game classic|castle]
 *
 * Each decision runs `--iterations` searches (examples/mcts-bot.ts describes them). Games
 * alternate seats; everything is seeded.
 *
 * Prints one line per game and a JSON summary; exits 1 if the bot won less than `--min` of the games.
 */
import { parseArgs } from 'node:util';
import { applyMove, createRandomSource, createRuleset, newGame, randomBot } from 'meeplekit';
import { gameInfo } from 'meeplekit/ai';
import { castle } from 'meeplekit/games/castle';
import { mctsBot } from './mcts-bot.js';

const { values: args } = parseArgs({
  options: {
    game: { type: 'string', default: 'classic' },
    games: { type: 'string', default: '200' },
    iterations: { type: 'string', default: '200' },
    from: { type: 'string', default: '0' },
    seed: { type: 'string', default: 'mcts' },
    min: { type: 'string', default: '0.9' },
    quiet: { type: 'boolean', default: false },
  },
});
const games = Number(args.games);
const iterations = Number(args.iterations);
const from = Number(args.from);

if (args.game !== 'classic' && args.game !== 'castle') throw new Error(`--game: classic or castle, not ${args.game}`);
const created = createRuleset({ game: args.game === 'castle' ? castle() : 'classic' });
if (!created.ok) throw new Error(created.error.message);
const rules = created.value;
console.log(`mcts: ${iterations} iterations per decision against uniform random, ${games} two-player games of ${rules.id} (${gameInfo(rules, 2).numDistinctActions.split} actions)`);

let wins = 0;
let margin = 0;
const started = performance.now();
for (let g = from; g < from + games; g++) {
  const seat = g % 2; // the bot plays first in even games, second in odd ones
  const game = newGame(rules, { players: 2, seed: `${args.seed}/${g}` });
  if (!game.ok) throw new Error(game.error.message);
  let state = game.value;
  const bots = [mctsBot({ iterations, seed: `${args.seed}/${g}/mcts` }), randomBot(createRandomSource(`${args.seed}/${g}/bots`))];
  if (seat === 1) bots.reverse();
  while (state.step.kind !== 'game-over') {
    const next = applyMove(rules, state, bots[state.step.player]!(rules, state));
    if (!next.ok) throw new Error(next.error.message);
    state = next.value.state;
  }
  const mine = state.scores[seat]!;
  const theirs = state.scores[1 - seat]!;
  if (mine > theirs) wins++;
  margin += mine - theirs;
  if (!args.quiet) console.log(`game ${g}: bot (P${seat}) ${mine} - random ${theirs}${mine > theirs ? '  win' : ''}`);
}
const seconds = (performance.now() - started) / 1000;
const summary = { games, iterations, wins, winRate: games === 0 ? 0 : wins / games, meanMargin: games === 0 ? 0 : margin / games, seconds: Math.round(seconds) };
console.log(JSON.stringify(summary));
if (summary.winRate < Number(args.min)) {
  console.error(`mcts: won ${wins} of ${games} games, below ${args.min}`);
  process.exitCode = 1;
}
