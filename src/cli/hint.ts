/**
 * `meeplekit hint`: the search bot's advice for a saved position. The file is a saved state (the
 * JSON of `serializeState`, checked by `parseState`) or a replay file (`meeplekit play --replay`,
 * checked by `replay()`), of which `--turn N` picks the position after turn N. The state's
 * ruleset is rebuilt from the id it carries (or given by the game flags); `analyse` of
 * meeplekit/bots searches the decision and the best move and the top candidates are printed.
 */
import { readFileSync } from 'node:fs';
import { analyse, LEVELS, type Analysis } from '../bots/index.js';
import { parseState, REPLAY_FORMAT } from '../core/engine/serialize.js';
import { err, ok, type Result } from '../core/result.js';
import type { Ruleset, RulesetSpec } from '../core/ruleset.js';
import type { GameState } from '../core/state.js';
import { createRuleset } from '../ruleset.js';
import { isRecord, parseFlags, wantsHelp, wholeNumber } from './args.js';
import { GAME_FLAGS_HELP, modulesFromArgs, RULESET_OPTIONS, rulesetFromFlags, rulesetFromSpec, unloadedModule, type ExpansionModules } from './expansions.js';
import type { CommandOutput } from './play.js';
import { loadReplayFile } from './render.js';
import { describeMove, describeStep, replayPositions, rulesetName } from './viewer.js';

/** `hint`'s usage line. */
export const HINT_SYNOPSIS = `meeplekit hint <file> [--turn N] [--level 1..5] [--iterations N] [--time-ms MS] [--seed S]
                      [--top K] [--json] [--game classic|castle] [--expansions id,...] [--option id.key=value]...
                      [--river-set I|II|both] [--expansion-module file.js]...`;
const USAGE = `usage: ${HINT_SYNOPSIS}\n(meeplekit hint --help: every flag)`;

/** `meeplekit hint --help`. */
export const HINT_HELP = `usage: ${HINT_SYNOPSIS}

Searches the decision of a saved position with the search bot of meeplekit/bots (analyse) and
prints the best move and the top candidates: how often each was searched and the expected score
difference to the best opponent after it, for the player who decides. <file> is a saved state
(the JSON of serializeState, checked move by move by parseState) or a replay file (meeplekit play
--replay writes one). A state's ruleset is rebuilt from the id it carries; the game flags give it
instead (a state of The Castle with a board or tiles of its own: --option castle.layout=@file.json).

  --turn N              a replay's position after turn N (0: before the first; default: its end)
  --level L             the search's strength level, 1 to 5 (default 3): its budget, rollouts and evaluation
  --iterations N        searches instead of the level's budget (deterministic)
  --time-ms MS          milliseconds instead (not deterministic); with --iterations, whichever ends first
  --seed S              the search's seed (default meeplekit): the same seed, budget and position,
                        the same advice
  --top K               candidates to print (default 5)
  --json                one JSON object (position, search, best move, candidates) instead
${GAME_FLAGS_HELP}
  -h, --help            this help
`;

const OPTIONS = {
  turn: { type: 'string' },
  level: { type: 'string' },
  iterations: { type: 'string' },
  'time-ms': { type: 'string' },
  seed: { type: 'string' },
  top: { type: 'string', default: '5' },
  json: { type: 'boolean', default: false },
  // The game flags without defaults: given, they name the ruleset instead of the state's id.
  game: { type: 'string' },
  expansions: { type: 'string' },
  option: { type: 'string', multiple: true },
  'river-set': { type: 'string' },
  'expansion-module': RULESET_OPTIONS['expansion-module'],
} as const;

function fail(message: string): CommandOutput {
  return { stdout: '', stderr: `meeplekit hint: ${message}\n${USAGE}\n`, code: 2 };
}

/** Failure without the usage lines (the arguments were fine; the file or the position was not). */
function failNoUsage(message: string): CommandOutput {
  return { stdout: '', stderr: `meeplekit hint: ${message}\n`, code: 2 };
}

/**
 * The ruleset spec a ruleset id names: `classic`, `castle{"keep":"majority"}`,
 * `classic+river{"set":"II"}+tower#digest` (the game, then each expansion with its options as
 * canonical JSON; the digest after `#` is ignored: the rebuilt ruleset's own id is compared with
 * the state's by `parseState`). Null for text that is not an id.
 */
export function specFromRulesetId(id: string): RulesetSpec | null {
  const parts: { id: string; options: Record<string, unknown> }[] = [];
  let i = 0;
  for (;;) {
    const name = /^[a-z][\w-]*/.exec(id.slice(i));
    if (name === null) return null;
    i += name[0].length;
    let options: Record<string, unknown> = {};
    if (id[i] === '{') {
      // The options' JSON: up to its closing brace, strings skipped.
      let depth = 0;
      let j = i;
      for (; j < id.length; j++) {
        const c = id[j];
        if (c === '"') {
          for (j++; j < id.length && id[j] !== '"'; j++) if (id[j] === '\\') j++;
        } else if (c === '{' || c === '[') depth++;
        else if ((c === '}' || c === ']') && --depth === 0) break;
      }
      try {
        const parsed = JSON.parse(id.slice(i, j + 1)) as unknown;
        if (!isRecord(parsed)) return null;
        options = parsed;
      } catch {
        return null;
      }
      i = j + 1;
    }
    parts.push({ id: name[0], options });
    if (i === id.length || id[i] === '#') break;
    if (id[i] !== '+') return null;
    i++;
  }
  const [game, ...expansions] = parts as [(typeof parts)[number], ...typeof parts];
  return Object.keys(game.options).length === 0 ? { game: game.id, expansions } : { game: game.id, options: game.options, expansions };
}

/** A position to advise on: its rules and state, and where it comes from. */
interface Position {
  readonly rules: Ruleset;
  readonly state: GameState;
  readonly kind: 'state' | 'replay';
  /** A replay's position: moves played (null for a state). */
  readonly move: number | null;
  /** Turns ended before it (a replay's; a state's `turn` otherwise). */
  readonly turns: number;
}

/** The parsed flags of `hint`. */
interface HintValues {
  readonly game?: string | undefined;
  readonly expansions?: string | undefined;
  readonly option?: string[] | undefined;
  readonly 'river-set'?: string | undefined;
}

/** Whether the flags name a ruleset of their own. */
function givesRuleset(values: HintValues): boolean {
  return values.game !== undefined || values.expansions !== undefined || (values.option?.length ?? 0) > 0 || values['river-set'] !== undefined;
}

/** The position of a saved state file. */
function statePosition(file: string, data: unknown, text: string, values: HintValues, modules: ExpansionModules): Result<Position, string> {
  let rules: Ruleset;
  if (givesRuleset(values)) {
    const chosen = rulesetFromFlags({ game: values.game ?? 'classic', expansions: values.expansions ?? '', option: values.option, 'river-set': values['river-set'] }, modules);
    if (typeof chosen === 'string') return err(chosen);
    rules = chosen.rules;
  } else {
    const id = isRecord(data) && isRecord(data['state']) ? data['state']['ruleset'] : undefined;
    const spec = typeof id === 'string' ? specFromRulesetId(id) : null;
    if (spec === null) {
      // Not a state at all: parseState says what is wrong with it, against any rules.
      const classic = createRuleset({ game: 'classic' });
      if (!classic.ok) return err(classic.error.message);
      const parsed = parseState(classic.value, text);
      return err(`${file}: ${parsed.ok ? 'state/malformed: $.state.ruleset is not a ruleset id' : `${parsed.error.code}: ${parsed.error.message}`}`);
    }
    const built = rulesetFromSpec(spec, modules);
    if (!built.ok) return err(`${file}: its ruleset ${JSON.stringify(id)} cannot be built: ${built.error} (the game flags, such as --game castle --option castle.layout=@file.json, give a ruleset instead)`);
    rules = built.value;
  }
  const state = parseState(rules, text);
  if (!state.ok) return err(`${file}: ${state.error.code}: ${state.error.message}`);
  return ok({ rules, state: state.value, kind: 'state', move: null, turns: state.value.turn });
}

/** The position of a replay file after turn `turn` (null: its end). */
function replayPosition(file: string, turn: number | null, modules: ExpansionModules): Result<Position, string> {
  const loaded = loadReplayFile(file, modules);
  if (!loaded.ok) return err(loaded.error);
  const { rules, data } = loaded.value;
  const positions = replayPositions(rules, data);
  if (!positions.ok) return err(`${file}: ${positions.error}`);
  const all = positions.value;
  const at = turn === null ? all.length - 1 : all.findIndex((p) => p.turns >= turn);
  if (at < 0) return err(`--turn ${turn} is past the end: ${file} has ${all[all.length - 1]!.turns} turns`);
  const p = all[at]!;
  return ok({ rules, state: p.state, kind: 'replay', move: p.index, turns: p.turns });
}

/**
 * Runs `meeplekit hint` with the arguments after `hint`: loads the files of its
 * `--expansion-module` flags, reads the position, searches it. Returns the output instead of
 * printing it: on any error a message on stderr, nothing on stdout, and exit code 2.
 */
export async function runHint(args: readonly string[]): Promise<CommandOutput> {
  if (wantsHelp(args)) return { stdout: HINT_HELP, stderr: '', code: 0 };
  const parsed = parseFlags(args, OPTIONS, true);
  if (typeof parsed === 'string') return fail(parsed);
  const modules = await modulesFromArgs(args, OPTIONS);
  if (typeof modules === 'string') return fail(modules);
  const { values, positionals } = parsed;
  const unloaded = unloadedModule(values['expansion-module'], modules);
  if (unloaded !== null) return fail(unloaded);
  if (positionals.length !== 1) return fail(positionals.length === 0 ? 'which position? give a saved state or a replay file (meeplekit play --replay game.json writes one)' : `one file at a time, got ${positionals.length}: ${positionals.join(' ')}`);
  const file = positionals[0]!;

  // The flags, checked before the file is read.
  const whole = (flag: string, text: string | undefined, min: number): number | undefined | string => {
    if (text === undefined) return undefined;
    const n = wholeNumber(text);
    return n === null || n < min ? `--${flag} must be a ${min === 0 ? '' : 'positive '}whole number, got '${text}'` : n;
  };
  const turn = whole('turn', values.turn, 0);
  const level = whole('level', values.level, 0);
  const iterations = whole('iterations', values.iterations, 1);
  const timeMs = whole('time-ms', values['time-ms'], 1);
  const top = whole('top', values.top, 1);
  for (const v of [turn, level, iterations, timeMs, top]) if (typeof v === 'string') return fail(v);
  if (level !== undefined && !(LEVELS as readonly number[]).includes(level as number)) return fail(`--level must be one of ${LEVELS.join(', ')} (bots/unknown-level), got ${String(level)}`);
  if (values.seed !== undefined && values.seed.length > 256) return fail(`--seed must be at most 256 characters, got ${values.seed.length}`);

  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return failNoUsage(`cannot read ${file}: ${(e as Error).message}`);
  }
  let data: unknown = undefined;
  try {
    data = JSON.parse(text) as unknown;
  } catch {
    // Not JSON: parseState says so below.
  }
  const isReplay = isRecord(data) && data['format'] === REPLAY_FORMAT;
  if (isReplay && givesRuleset(values)) return fail(`${file} is a replay, which names its ruleset: the game flags are for a saved state`);
  if (!isReplay && turn !== undefined) return fail(`--turn picks a position of a replay file: ${file} is not one (a saved state is one position)`);
  const position = isReplay ? replayPosition(file, (turn as number | undefined) ?? null, modules) : statePosition(file, data, text, values, modules);
  if (!position.ok) return failNoUsage(position.error);
  const { rules, state } = position.value;

  const options = {
    ...(level === undefined ? {} : { level: level as number }),
    ...(iterations === undefined ? {} : { iterations: iterations as number }),
    ...(timeMs === undefined ? {} : { timeMs: timeMs as number }),
    ...(values.seed === undefined ? {} : { seed: values.seed }),
  };
  const analysis = analyse(rules, state, options);
  if (!analysis.ok) {
    const { code, message } = analysis.error;
    if (code === 'bots/game-over') {
      const earlier = position.value.kind === 'replay' ? `: give --turn N for an earlier position (${file} has ${position.value.turns} turns)` : '';
      return failNoUsage(`${file}: the game is over, there is no move to advise (${code})${earlier}`);
    }
    return failNoUsage(`${file}: ${code}: ${message}`);
  }
  const a = analysis.value;
  const shown = a.candidates.slice(0, top as number);
  const search = { level: (level as number | undefined) ?? 3, ...(iterations === undefined ? {} : { iterations }), ...(timeMs === undefined ? {} : { timeMs }), seed: values.seed ?? 'meeplekit' };
  if (values.json) {
    const out = {
      file,
      kind: position.value.kind,
      ruleset: rules.id,
      players: state.players,
      turn: state.turn,
      ...(position.value.move === null ? {} : { move: position.value.move }),
      step: state.step,
      scores: state.scores,
      search,
      player: a.player,
      iterations: a.iterations,
      best: a.best,
      candidates: shown.map((c) => ({ move: c.move, text: describeMove(c.move, state.step), visits: c.visits, margin: c.margin, value: c.value })),
    };
    return { stdout: `${JSON.stringify(out)}\n`, stderr: '', code: 0 };
  }
  return { stdout: hintText(file, position.value, a, shown, search), stderr: '', code: 0 };
}

/** The text `hint` prints. */
function hintText(file: string, position: Position, a: Analysis, shown: Analysis['candidates'], search: { readonly level: number; readonly iterations?: unknown; readonly timeMs?: unknown; readonly seed: string }): string {
  const { rules, state } = position;
  const where = `after ${state.turn} turn${state.turn === 1 ? '' : 's'}${position.kind === 'replay' ? ` (move ${position.move} of the replay)` : ''}`;
  const budget = search.iterations !== undefined || search.timeMs !== undefined ? [search.iterations === undefined ? '' : `${String(search.iterations)} iterations`, search.timeMs === undefined ? '' : `${String(search.timeMs)} ms`].filter((s) => s !== '').join(', at most ') : `level ${search.level}`;
  const lines = [
    `meeplekit hint: ${file}: ${rulesetName(rules)}, ${state.players} players, ${where}; scores ${state.scores.map((s, p) => `Player ${p + 1} ${s}`).join(', ')}`,
    `${describeStep(state.step)}`,
    `search: ${budget}, seed ${JSON.stringify(search.seed)}: ${a.iterations} searches`,
    `best: ${describeMove(a.best, state.step)}`,
    '',
  ];
  const texts = shown.map((c) => describeMove(c.move, state.step));
  const width = Math.max(4, ...texts.map((t) => t.length));
  lines.push(`${'#'.padStart(3)}  ${'move'.padEnd(width)}  visits  expected margin`);
  shown.forEach((c, i) => {
    const margin = `${c.margin > 0 ? '+' : ''}${c.margin.toFixed(1)}`;
    lines.push(`${String(i + 1).padStart(3)}  ${texts[i]!.padEnd(width)}  ${String(c.visits).padStart(6)}  ${margin.padStart(15)}`);
  });
  if (a.candidates.length > shown.length) lines.push(`(${a.candidates.length - shown.length} more candidates: --top ${a.candidates.length} lists them all)`);
  lines.push("(expected margin: the deciding player's expected score less the best opponent's after the move)");
  return `${lines.join('\n')}\n`;
}
