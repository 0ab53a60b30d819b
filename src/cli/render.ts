/**
 * `meeplekit render`: pictures of tiles and boards as SVG (or PNG through the optional
 * `@resvg/resvg-js`), and the replay viewer (one self-contained HTML file).
 *
 * - `render tile <id>`: one tile kind of a ruleset, turned `--rotation` quarter turns.
 * - `render game`: the board of the seeded bot game `meeplekit play` plays with the same flags,
 *   after turn `--turn` (default: the end).
 * - `render replay <file>`: the board of a replay file (`meeplekit play --replay`, or any
 *   `makeReplay` JSON), validated move by move; `--html` writes the viewer instead.
 *
 * Everything is computed before anything is written: a bad argument or a bad replay file writes
 * nothing and exits with code 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { applyMove } from '../core/engine/apply.js';
import { replay, REPLAY_FORMAT, REPLAY_VERSION, type Replay } from '../core/engine/serialize.js';
import { showValue } from '../core/errors.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { Ruleset } from '../core/ruleset.js';
import type { GameState } from '../core/state.js';
import type { Rotation } from '../core/types.js';
import { renderBoard, renderTile } from '../render/index.js';
import { isRecord, parseFlags, wantsHelp, wholeNumber } from './args.js';
import { EXPANSION_FACTORIES, GAME_FLAGS_HELP, GAME_OPTIONS, modulesFromArgs, NO_MODULES, RULESET_OPTIONS, rulesetFromFlags, rulesetFromSpec, type ExpansionModules } from './expansions.js';
import { BOT_GAME_FLAGS_HELP, setUpBotGame } from './play.js';
import { replayPositions, rulesetName, viewerHtml } from './viewer.js';

/** What `meeplekit render` produced: stdout (text, or the bytes of a PNG), stderr and an exit code. */
export interface RenderOutput {
  readonly stdout: string | Uint8Array;
  readonly stderr: string;
  readonly code: number;
}

/** What `runRender` may be given instead of the real thing (tests). */
export interface RenderDeps {
  /** Loads `@resvg/resvg-js` (default: a dynamic `import()`). */
  readonly loadResvg?: () => Promise<unknown>;
  /** Whether stdout is a terminal: a PNG is then refused unless `--out` is given. */
  readonly stdoutIsTTY?: boolean;
}

/** The usage line of each form of `render`. */
export const RENDER_SYNOPSIS: Readonly<Record<string, string>> = {
  tile: `meeplekit render tile <id> [--game classic|castle] [--expansions id,...] [--option id.key=value]...
                             [--river-set I|II|both] [--expansion-module file.js]... [--rotation 0..3]
                             [--out file] [--png]`,
  game: `meeplekit render game [--game classic|castle] [--expansions id,...] [--option id.key=value]...
                             [--river-set I|II|both] [--expansion-module file.js]... [--players N] [--seed S]
                             [--bots random,greedy,...] [--turn N] [--out file] [--png]`,
  replay: 'meeplekit render replay <file> [--turn N] [--out file] [--html] [--png] [--expansion-module file.js]...',
};

const USAGE = `usage: ${RENDER_SYNOPSIS['tile']}
       ${RENDER_SYNOPSIS['game']}
       ${RENDER_SYNOPSIS['replay']}
(meeplekit render <tile|game|replay> --help: every flag)`;

const OUTPUT_HELP = `  --out FILE            write the picture to FILE instead of stdout
  --png                 PNG instead of SVG (needs the optional package @resvg/resvg-js)
  -h, --help            this help`;

/** `meeplekit render --help` and the help of each sub-form (`render tile --help`, ...). */
export const RENDER_HELP: Readonly<Record<string, string>> = {
  '': `${USAGE.split('\n(')[0]}

Pictures of tiles and boards as SVG (or PNG), and the replay viewer:
  tile     one tile kind
  game     the board of the game meeplekit play plays with the same flags
  replay   the board of a replay file, or (--html) the viewer, one self-contained web page
meeplekit render <tile|game|replay> --help shows each one's flags.
`,
  tile: `usage: ${RENDER_SYNOPSIS['tile']}

Draws one tile kind of the game and expansions given; docs/tiles.md shows every tile with its id.

${GAME_FLAGS_HELP}
  --rotation R          quarter turns clockwise: 0 (default) to 3
${OUTPUT_HELP}
`,
  game: `usage: ${RENDER_SYNOPSIS['game']}

Plays the game meeplekit play plays with the same flags and draws its board after turn N.

${BOT_GAME_FLAGS_HELP}
  --turn N              the board after turn N (0: before the first; default: the end, final scoring included)
${OUTPUT_HELP}
`,
  replay: `usage: ${RENDER_SYNOPSIS['replay']}

Checks a replay file (meeplekit play --replay writes one) move by move and draws its board.

  --turn N              the board after turn N (default: the end); with --html, the position the viewer opens at
  --expansion-module FILE
                        load an expansion of your own (repeatable), for a replay of a game played with it
  --html                write the replay viewer: one self-contained web page stepping through every move
${OUTPUT_HELP}
`,
};

function fail(command: string, message: string): RenderOutput {
  return { stdout: '', stderr: `meeplekit render${command === '' ? '' : ` ${command}`}: ${message}\n${USAGE}\n`, code: 2 };
}

/** Failure without the usage lines (the arguments were fine; the input or the output was not). */
function failNoUsage(command: string, message: string, code = 2): RenderOutput {
  return { stdout: '', stderr: `meeplekit render ${command}: ${message}\n`, code };
}

const OUTPUT_OPTIONS = {
  out: { type: 'string' },
  png: { type: 'boolean', default: false },
} as const;

/**
 * Runs `meeplekit render` with the arguments after `render`. Returns what to print; writes only
 * the `--out` file, and only when everything else succeeded.
 */
export async function runRender(args: readonly string[], deps: RenderDeps = {}): Promise<RenderOutput> {
  const [sub, ...rest] = args;
  if (wantsHelp(args)) {
    const known = sub !== undefined && Object.hasOwn(RENDER_SYNOPSIS, sub);
    return { stdout: RENDER_HELP[known ? sub : '']!, stderr: '', code: 0 };
  }
  if (sub === 'tile') return renderTileCommand(rest, deps);
  if (sub === 'game') return renderGameCommand(rest, deps);
  if (sub === 'replay') return renderReplayCommand(rest, deps);
  return fail('', sub === undefined ? 'what to render? tile, game or replay' : `unknown subcommand '${sub}' (tile, game, replay)`);
}

/** `--out`: no empty name. */
function outProblem(out: string | undefined): string | null {
  return out === '' ? '--out needs a file name' : null;
}

const TILE_OPTIONS = { ...RULESET_OPTIONS, rotation: { type: 'string', default: '0' }, ...OUTPUT_OPTIONS } as const;
const GAME_RENDER_OPTIONS = { ...GAME_OPTIONS, turn: { type: 'string' }, ...OUTPUT_OPTIONS } as const;
const REPLAY_OPTIONS = { turn: { type: 'string' }, html: { type: 'boolean', default: false }, 'expansion-module': GAME_OPTIONS['expansion-module'], ...OUTPUT_OPTIONS } as const;

async function renderTileCommand(args: readonly string[], deps: RenderDeps): Promise<RenderOutput> {
  const parsed = parseFlags(args, TILE_OPTIONS, true);
  if (typeof parsed === 'string') return fail('tile', parsed);
  const modules = await modulesFromArgs(args, TILE_OPTIONS);
  if (typeof modules === 'string') return fail('tile', modules);
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return fail('tile', positionals.length === 0 ? 'which tile? give its id, such as D' : `one tile id at a time, got ${positionals.length}: ${positionals.join(' ')}`);
  const id = positionals[0]!;
  const problem = outProblem(values.out);
  if (problem !== null) return fail('tile', problem);
  if (!/^[0-3]$/.test(values.rotation)) return fail('tile', `--rotation must be 0, 1, 2 or 3 (quarter turns clockwise), got '${values.rotation}'`);
  const chosen = rulesetFromFlags(values, modules);
  if (typeof chosen === 'string') return fail('tile', chosen);
  const { rules } = chosen;
  if (!Object.hasOwn(rules.tileIndex, id)) {
    const known = rules.tiles.map((t) => t.def.id).filter((t) => !t.startsWith('@'));
    return fail('tile', `unknown tile '${id}' in ${rulesetName(rules)} (tiles: ${known.join(', ')})`);
  }
  const svg = renderTile(rules, id, Number(values.rotation) as Rotation);
  if (!svg.ok) return failNoUsage('tile', `${svg.error.code}: ${svg.error.message}`, 1);
  return emit('tile', svg.value, values, deps);
}

async function renderGameCommand(args: readonly string[], deps: RenderDeps): Promise<RenderOutput> {
  const parsed = parseFlags(args, GAME_RENDER_OPTIONS, false);
  if (typeof parsed === 'string') return fail('game', parsed);
  const modules = await modulesFromArgs(args, GAME_RENDER_OPTIONS);
  if (typeof modules === 'string') return fail('game', modules);
  const { values } = parsed;
  const problem = outProblem(values.out);
  if (problem !== null) return fail('game', problem);
  const turn = values.turn === undefined ? null : wholeNumber(values.turn);
  if (values.turn !== undefined && turn === null) return fail('game', `--turn must be a whole number, got '${values.turn}'`);
  const setup = setUpBotGame(values, modules);
  if (typeof setup === 'string') return fail('game', setup);
  const { rules, bots } = setup;
  let state: GameState = setup.state;
  let turns = 0;
  while (state.step.kind !== 'game-over' && (turn === null || turns < turn)) {
    const next = applyMove(rules, state, bots[state.step.player]!(rules, state));
    if (!next.ok) return failNoUsage('game', `internal error: a bot played an illegal move: ${next.error.message}`, 1);
    state = next.value.state;
    turns += next.value.events.filter((e) => e.type === 'turn-ended').length;
  }
  if (turn !== null && turns < turn) return fail('game', `--turn ${turn} is past the end: this game has ${turns} turns`);
  const svg = renderBoard(rules, state);
  if (!svg.ok) return failNoUsage('game', `${svg.error.code}: ${svg.error.message}`, 1);
  return emit('game', svg.value, values, deps);
}

async function renderReplayCommand(args: readonly string[], deps: RenderDeps): Promise<RenderOutput> {
  const parsed = parseFlags(args, REPLAY_OPTIONS, true);
  if (typeof parsed === 'string') return fail('replay', parsed);
  const modules = await modulesFromArgs(args, REPLAY_OPTIONS);
  if (typeof modules === 'string') return fail('replay', modules);
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return fail('replay', positionals.length === 0 ? 'which replay? give its file (meeplekit play --replay game.json writes one)' : `one replay file at a time, got ${positionals.length}`);
  const problem = outProblem(values.out);
  if (problem !== null) return fail('replay', problem);
  if (values.html && values.png) return fail('replay', '--html and --png cannot be combined: the viewer is a web page');
  const turn = values.turn === undefined ? null : wholeNumber(values.turn);
  if (values.turn !== undefined && turn === null) return fail('replay', `--turn must be a whole number, got '${values.turn}'`);
  const file = positionals[0]!;
  const loaded = loadReplayFile(file, modules);
  if (!loaded.ok) return failNoUsage('replay', loaded.error);
  const { rules, data } = loaded.value;
  const positions = replayPositions(rules, data);
  if (!positions.ok) return failNoUsage('replay', `${file}: ${positions.error}`);
  const all = positions.value;
  const total = all[all.length - 1]!.turns;
  // After turn N: the first position where N turns have ended (turn 0: before the first move).
  const at = turn === null ? all.length - 1 : all.findIndex((p) => p.turns >= turn);
  if (at < 0) return fail('replay', `--turn ${turn} is past the end: ${file} has ${total} turns`);
  if (values.html) {
    const html = viewerHtml(rules, data, all, { start: turn === null ? 0 : at });
    if (!html.ok) return failNoUsage('replay', html.error, 1);
    return emit('replay', html.value, values, deps);
  }
  const svg = renderBoard(rules, all[at]!.state);
  if (!svg.ok) return failNoUsage('replay', `${svg.error.code}: ${svg.error.message}`, 1);
  return emit('replay', svg.value, values, deps);
}

/** A replay file read and validated: its rules and its data. */
export interface LoadedReplay {
  /** The replay's ruleset, built from its options. */
  readonly rules: Ruleset;
  /** The replay (checked by `replay()`: every move is legal). */
  readonly data: Replay;
}

/**
 * Expansion factories by id, called with the options a replay stores for them (`rules.options`):
 * the expansion checks them itself (`options/expansion-options`).
 */
export const REPLAY_EXPANSIONS = EXPANSION_FACTORIES;

/** The ruleset a replay's `ruleset` field names, or why there is none. */
export const rulesetFromReplay = rulesetFromSpec;

/**
 * Reads a replay file and validates it with `replay()`: its rules and data, or a message naming
 * the file. `modules`: expansions of `--expansion-module` files the replay's ruleset may name.
 */
export function loadReplayFile(file: string, modules: ExpansionModules = NO_MODULES): Result<LoadedReplay, string> {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return err(`cannot read ${file}: ${(e as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text) as unknown;
  } catch (e) {
    return err(`${file} is not a replay: replay/json: not JSON: ${(e as Error).message}`);
  }
  // The format and version first: the ruleset of another kind of file or version means nothing.
  if (!isRecord(data) || data['format'] !== REPLAY_FORMAT) {
    return err(`${file} is not a replay: replay/malformed: a replay must be an object with format '${REPLAY_FORMAT}'${isRecord(data) ? `, got ${showValue(data['format'])}` : ''}`);
  }
  if (data['version'] !== REPLAY_VERSION) return err(`${file} is not a replay this version reads: replay/version: unsupported replay version ${showValue(data['version'])} (this version reads ${REPLAY_VERSION})`);
  const rules = rulesetFromReplay(data['ruleset'], modules);
  if (!rules.ok) return err(`${file} is not a replay: ${rules.error}`);
  const checked = replay(rules.value, data);
  if (!checked.ok) return err(`${file} is not a valid replay: ${checked.error.code}: ${checked.error.message}`);
  return ok({ rules: rules.value, data: data as unknown as Replay });
}

/**
 * An SVG picture as PNG bytes through `@resvg/resvg-js` (an optional peer dependency, loaded
 * only here), or a message saying how to install it.
 */
export async function svgToPng(svg: string, load: () => Promise<unknown> = () => import('@resvg/resvg-js')): Promise<Result<Uint8Array, string>> {
  let mod: unknown;
  try {
    mod = await load();
  } catch (e) {
    return err(`--png needs the optional package @resvg/resvg-js, which could not be loaded (${(e as Error).message.split('\n')[0]}): install it with npm install @resvg/resvg-js`);
  }
  const Resvg = isRecord(mod) ? (mod['Resvg'] ?? (isRecord(mod['default']) ? mod['default']['Resvg'] : undefined)) : undefined;
  if (typeof Resvg !== 'function') return err('--png: @resvg/resvg-js has no Resvg class: install a 2.x version with npm install @resvg/resvg-js');
  try {
    const r = new (Resvg as new (svg: string, options: unknown) => { render(): { asPng(): Uint8Array } })(svg, {
      fitTo: { mode: 'original' },
      // Text (coordinates) needs fonts; a picture without text renders the same without loading any.
      font: { loadSystemFonts: svg.includes('<text') },
    });
    return ok(new Uint8Array(r.render().asPng()));
  } catch (e) {
    return err(`--png: @resvg/resvg-js could not render the picture: ${(e as Error).message}`);
  }
}

/** The output: PNG bytes if asked, written to `--out` or returned as stdout. */
async function emit(command: string, text: string, values: { readonly out?: string | undefined; readonly png: boolean }, deps: RenderDeps): Promise<RenderOutput> {
  let content: string | Uint8Array = text;
  if (values.png) {
    if (values.out === undefined && deps.stdoutIsTTY === true) return fail(command, '--png writes binary data: give --out picture.png or redirect stdout');
    const png = await svgToPng(text, deps.loadResvg);
    if (!png.ok) return failNoUsage(command, png.error);
    content = png.value;
  }
  if (values.out === undefined) return { stdout: content, stderr: '', code: 0 };
  try {
    writeFileSync(values.out, content);
  } catch (e) {
    return failNoUsage(command, `cannot write ${values.out}: ${(e as Error).message}`);
  }
  return { stdout: '', stderr: '', code: 0 };
}
