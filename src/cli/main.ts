/**
 * The `meeplekit` command. Subcommands: `play`.
 */
import { runPlay } from './play.js';

const HELP = `meeplekit: rules engine for the Carcassonne family of tile-laying games

usage:
  meeplekit play [--game classic] [--expansions river,king-robber,shrines] [--river-set I|II|both]
                 [--players N] [--seed S] [--bots random,greedy] [--json]
      plays a seeded game between bots and prints each turn and the final scores
      (--json: one JSON object with ruleset, seed, players, scores, winners, turns)
  meeplekit help
`;

const [command, ...rest] = process.argv.slice(2);
if (command === 'play') {
  const out = runPlay(rest);
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  process.exitCode = out.code;
} else if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
  process.stdout.write(HELP);
} else {
  process.stderr.write(`meeplekit: unknown command '${command}'\n${HELP}`);
  process.exitCode = 2;
}
