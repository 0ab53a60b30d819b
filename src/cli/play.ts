/**
 * `meeplekit play`: a seeded game between bots, printed turn by turn or as one JSON object.
 */
import { writeFileSync } from 'node:fs';
import { parseFlags, wantsHelp } from './args.js';
import { BOTS, botGameFromFlags, GAME_FLAGS_HELP, GAME_OPTIONS, makeBots, modulesFromArgs, NO_MODULES, seedProblem, unloadedModule, type BotGameFlags, type ExpansionModules } from './expansions.js';
import { applyMove, newGame } from '../core/engine/apply.js';
import { createRandomSource } from '../core/rng.js';
import type { ExpansionEvent, GameEvent } from '../core/events.js';
import type { Bot } from '../bots.js';
import { makeReplay } from '../core/engine/serialize.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState } from '../core/state.js';

/** What a follower on a feature kind is called (the CLI's and the viewer's words). */
export const FIGURE: Readonly<Record<string, string>> = {
  city: 'knight',
  road: 'thief',
  cloister: 'monk',
  field: 'farmer',
  // The Castle
  path: 'herald',
  tower: 'knight',
  house: 'squire',
  court: 'merchant',
};

/** What a CLI command produced: text for stdout and stderr, and an exit code. */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

/** `play`'s usage line. */
export const PLAY_SYNOPSIS = `meeplekit play [--game classic|castle] [--expansions id,id,...] [--option id.key=value]...
                      [--river-set I|II|both] [--expansion-module file.js]... [--players N] [--seed S]
                      [--bots random,greedy,...] [--json] [--replay game.json]`;
const USAGE = `usage: ${PLAY_SYNOPSIS}\n(meeplekit play --help: every flag)`;

/** The flags of the game `play` and `render game` play, for their `--help`. */
export const BOT_GAME_FLAGS_HELP = `${GAME_FLAGS_HELP}
  --players N           number of players (default 2; the game's range)
  --seed S              any text up to 256 characters (default 1): the tiles' order; bots from S/bots
  --bots LIST           bots given to the seats in turn: ${BOTS.join(', ')}, search:1 to search:5 (default random)`;

/** `meeplekit play --help`. */
export const PLAY_HELP = `usage: ${PLAY_SYNOPSIS}

Plays one seeded game between bots and prints each turn, the final scoring and the winners.

${BOT_GAME_FLAGS_HELP}
  --json                one JSON object (ruleset, seed, players, bots, scores, winners, turns, ...) instead
  --replay FILE         also write the game's replay file (meeplekit render replay reads it)
  -h, --help            this help
`;

function fail(message: string): CommandOutput {
  return { stdout: '', stderr: `meeplekit play: ${message}\n${USAGE}\n`, code: 2 };
}

/** The parsed `play` options ({@link GAME_OPTIONS}), as `parseArgs` returns them. */
export interface GameFlags extends BotGameFlags {
  readonly seed: string;
}

/** A seeded bot game ready to play: its rules, first state, and a bot per player. */
export interface BotGame {
  readonly rules: Ruleset;
  readonly state: GameState;
  readonly bots: readonly Bot[];
  /** The bot names, one per player. */
  readonly botNames: readonly string[];
}

/**
 * Sets up the game `meeplekit play` plays for the given flags (checked in the order `play` checks
 * them): the ruleset, the new game and the bots, seeded from `<seed>/bots`; or the message for a
 * bad flag. `meeplekit render game` plays the very same game. `modules`: the expansions the
 * `--expansion-module` flags loaded.
 */
export function setUpBotGame(values: GameFlags, modules: ExpansionModules = NO_MODULES): BotGame | string {
  const unloaded = unloadedModule(values['expansion-module'], modules);
  if (unloaded !== null) return unloaded;
  const setup = botGameFromFlags(values, modules);
  if (typeof setup === 'string') return setup;
  const { players, bots: botNames } = setup;
  const { rules } = setup.chosen;
  const tooLong = seedProblem(values.seed);
  if (tooLong !== null) return tooLong;
  const game = newGame(rules, { players, seed: values.seed });
  if (!game.ok) return game.error.message;
  const random = createRandomSource(`${values.seed}/bots`);
  return { rules, state: game.value, bots: makeBots(botNames, random), botNames };
}

const OPTIONS = { ...GAME_OPTIONS, json: { type: 'boolean', default: false }, replay: { type: 'string' } } as const;

/**
 * Runs `meeplekit play` as the command line does: loads the files of its `--expansion-module`
 * flags (running their code), then {@link runPlay}. A file that does not load is refused with
 * its code (`expansion-module/...`), exit code 2, and nothing played or written.
 */
export async function runPlayCommand(args: readonly string[]): Promise<CommandOutput> {
  if (wantsHelp(args)) return runPlay(args);
  const modules = await modulesFromArgs(args, OPTIONS);
  if (typeof modules === 'string') return fail(modules);
  return runPlay(args, modules);
}

/**
 * Runs `meeplekit play` with the arguments after `play`. Returns the output instead of printing
 * it; with `--replay <file>` it writes the game's replay ({@link makeReplay}, JSON) to that file
 * once the game is over (nothing is written on a bad argument). `modules`: the expansions of the
 * `--expansion-module` flags, loaded ({@link runPlayCommand} loads them).
 */
export function runPlay(args: readonly string[], modules: ExpansionModules = NO_MODULES): CommandOutput {
  if (wantsHelp(args)) return { stdout: PLAY_HELP, stderr: '', code: 0 };
  const parsed = parseFlags(args, OPTIONS, false);
  if (typeof parsed === 'string') return fail(parsed);
  const { values } = parsed;
  if (values.replay === '') return fail('--replay needs a file name');
  const setup = setUpBotGame(values, modules);
  if (typeof setup === 'string') return fail(setup);
  const { rules, bots, botNames } = setup;
  const players = bots.length;

  const lines: string[] = [];
  lines.push(`meeplekit play: ${rules.id}, ${players} players, seed ${JSON.stringify(values.seed)}, bots ${botNames.join(',')}`);
  let state = setup.state;
  let turnEvents: GameEvent[] = [];
  let turns = 0;
  let discarded = 0;
  while (state.step.kind !== 'game-over') {
    const move = bots[state.step.player]!(rules, state);
    const next = applyMove(rules, state, move);
    if (!next.ok) return { stdout: '', stderr: `internal error: bot played an illegal move: ${next.error.message}\n`, code: 1 };
    state = next.value.state;
    for (const e of next.value.events) {
      turnEvents.push(e);
      if (e.type === 'turn-ended') {
        turns++;
        // The first turn ended with a start tile that gave way (the River's spring beside the Count's City): say so.
        const setUp = turns === 1 && rules.setupTile >= 0 && turnEvents.some((t) => t.type === 'tile-placed' && t.tile === rules.tiles[rules.setupTile]!.def.id);
        lines.push(describeTurn(turns, turnEvents) + (setUp ? ' (set-up: laid beside the start, no follower)' : ''));
        turnEvents = [];
      }
      if (e.type === 'tile-discarded') discarded++;
    }
  }
  const finals = turnEvents.filter((e): e is Extract<GameEvent, { type: 'scored' }> => e.type === 'scored');
  const winners = state.step.winners;
  if (values.replay !== undefined) {
    try {
      writeFileSync(values.replay, `${JSON.stringify(makeReplay(rules, state))}\n`);
    } catch (e) {
      return { stdout: '', stderr: `meeplekit play: cannot write the replay to ${values.replay}: ${(e as Error).message}\n`, code: 2 };
    }
  }
  if (values.json) {
    const out = {
      ruleset: rules.id,
      seed: values.seed,
      players,
      bots: botNames,
      scores: state.scores,
      winners,
      turns,
      // Tiles of the set on the board (The Castle's start fields are part of the wall, not tiles).
      tilesPlaced: state.tiles.filter((t) => !t.id.startsWith('@')).length,
      discarded,
      moves: state.moves.length,
    };
    return { stdout: `${JSON.stringify(out)}\n`, stderr: '', code: 0 };
  }
  lines.push(`final scoring: ${finals.length === 0 ? 'nothing' : finals.map((e) => `P${e.player} +${e.points} ${e.feature?.kind ?? e.reason}`).join(', ')}`);
  lines.push(`scores: ${state.scores.map((s, p) => `P${p} ${s}`).join(', ')}`);
  lines.push(`${winners.length > 1 ? 'winners' : 'winner'}: ${winners.map((p) => `P${p}`).join(', ')} after ${turns} turns`);
  return { stdout: `${lines.join('\n')}\n`, stderr: '', code: 0 };
}

/** An expansion event's fields other than its type and player, as `name value` pairs (a feature as `kind at x,y`, a cell as `x,y`). */
function eventDetails(e: ExpansionEvent): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(e)) {
    if (k === 'type' || k === 'player') continue;
    if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') out.push(`${k} ${v}`);
    else if (Array.isArray(v)) out.push(`${k} ${v.join('/')}`);
    else if (v === null) out.push(`${k} none`);
    else if (typeof v === 'object' && 'x' in v && 'y' in v) {
      // A feature (kind at x,y) or a cell (x,y).
      const f = v as { kind?: unknown; x: unknown; y: unknown };
      out.push(`${k} ${f.kind === undefined ? '' : `${String(f.kind)} at `}${String(f.x)},${String(f.y)}`);
    }
  }
  return out.join(', ');
}

function describeTurn(turn: number, events: readonly GameEvent[]): string {
  const parts: string[] = [];
  let who = '';
  for (const e of events) {
    switch (e.type) {
      case 'tile-discarded':
        parts.push(`discards ${e.tile} (fits nowhere)`);
        break;
      case 'tile-placed':
        who = `P${e.player}`;
        parts.push(`${e.tile} at ${e.x},${e.y} r${e.rotation * 90}`);
        break;
      case 'follower-deployed':
        parts.push(`${FIGURE[e.at.kind] ?? 'follower'} on ${e.at.feature}`);
        break;
      case 'scored':
        parts.push(`P${e.player} ${e.points < 0 ? e.points : `+${e.points}`} ${e.feature?.kind ?? e.reason}`);
        break;
      case 'castle/token-taken':
        parts.push(`P${String(e['player'])} takes wall token ${String(e['token'])} at ${String(e['space'])}`);
        break;
      case 'castle/token-used':
        parts.push(`P${String(e['player'])} uses wall token ${String(e['token'])}`);
        break;
      default:
        // An expansion's own event: name it, with its player if it has one.
        if (e.type.includes('/')) {
          const who = (e as ExpansionEvent)['player'];
          const details = eventDetails(e as ExpansionEvent);
          parts.push(`${typeof who === 'number' ? `${e.type} P${who}` : e.type}${details === '' ? '' : ` (${details})`}`);
        }
        break;
    }
  }
  return `turn ${String(turn).padStart(3)}  ${who}  ${parts.join(', ')}`;
}
