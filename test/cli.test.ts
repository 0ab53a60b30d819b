/**
 * `meeplekit play` through `runPlay(args)`, which is pure: it returns `{ stdout, stderr, code }`
 * instead of printing. (The built binary is exercised by CI, not here.)
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CLI_EXPANSION_INFO, CLI_GAMES, EXPANSION_FACTORIES } from '../src/cli/expansions.js';
import { editDistance, withSuggestion } from '../src/cli/args.js';
import { runPlay } from '../src/cli/play.js';
import { createRuleset } from '../src/ruleset.js';

interface PlayJson {
  ruleset: string;
  seed: string;
  players: number;
  bots: string[];
  scores: number[];
  winners: number[];
  turns: number;
  tilesPlaced: number;
  discarded: number;
  moves: number;
}

function ok(args: readonly string[]): string {
  const out = runPlay(args);
  if (out.code !== 0) throw new Error(`runPlay(${args.join(' ')}) exited ${out.code}: ${out.stderr}`);
  expect(out.stderr).toBe('');
  return out.stdout;
}

function json(args: readonly string[]): PlayJson {
  const text = ok([...args, '--json']);
  expect(text.endsWith('\n')).toBe(true);
  expect(text.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(text) as PlayJson;
}

function argmax(scores: readonly number[]): number[] {
  const best = Math.max(...scores);
  return scores.flatMap((s, p) => (s === best ? [p] : []));
}

/** Scores and winners as the text output states them in its last two lines. */
function textResult(text: string): { scores: number[]; winners: number[]; turns: number } {
  const lines = text.trimEnd().split('\n');
  const scoresLine = lines[lines.length - 2]!;
  const winnerLine = lines[lines.length - 1]!;
  expect(scoresLine).toMatch(/^scores: P0 -?\d+(, P\d -?\d+)+$/);
  expect(winnerLine).toMatch(/^winners?: P\d(, P\d)* after \d+ turns$/);
  const scores = [...scoresLine.matchAll(/P(\d) (-?\d+)/g)].map((m, i) => {
    expect(Number(m[1])).toBe(i);
    return Number(m[2]);
  });
  const winners = [...winnerLine.matchAll(/P(\d)/g)].map((m) => Number(m[1]));
  return { scores, winners, turns: Number(/after (\d+) turns/.exec(winnerLine)![1]) };
}

const GAMES: readonly (readonly string[])[] = [
  [],
  ['--players', '3', '--seed', 'cli'],
  ['--players', '5', '--seed', 'five', '--game', 'classic'],
  ['--players', '4', '--seed', '', '--bots', 'random'],
  ['--players', '2', '--seed', 'greedy', '--bots', 'greedy,random'],
];

describe('meeplekit play', () => {
  test.each(GAMES)('is deterministic: the same args give the same output (%j)', (...args) => {
    const first = runPlay(args);
    expect(first.code).toBe(0);
    expect(runPlay(args)).toEqual(first);
    expect(runPlay([...args, '--json'])).toEqual(runPlay([...args, '--json']));
  });

  test('other seeds give other games', () => {
    expect(ok(['--seed', 'a'])).not.toBe(ok(['--seed', 'b']));
  });

  test.each(GAMES)('--json prints one object: ruleset, seed, players, scores, winners, turns (%j)', (...args) => {
    const j = json(args);
    const players = args.includes('--players') ? Number(args[args.indexOf('--players') + 1]) : 2;
    const seed = args.includes('--seed') ? args[args.indexOf('--seed') + 1] : '1';
    expect(j.ruleset).toBe('classic');
    expect(j.seed).toBe(seed);
    expect(j.players).toBe(players);
    expect(j.bots).toHaveLength(players);
    expect(Array.isArray(j.scores)).toBe(true);
    expect(j.scores).toHaveLength(players);
    for (const s of j.scores) expect(Number.isInteger(s) && s >= 0).toBe(true);
    expect(j.winners).toEqual(argmax(j.scores));
    expect(Number.isInteger(j.turns)).toBe(true);
    // Every tile but the start tile is placed in a turn of its own, or discarded.
    expect(j.turns).toBe(j.tilesPlaced - 1);
    expect(j.tilesPlaced + j.discarded).toBe(72);
    expect(j.moves).toBeGreaterThanOrEqual(j.turns);
    expect(j.moves).toBeLessThanOrEqual(2 * j.turns);
  });

  test.each(GAMES)('the text output agrees with the JSON output (%j)', (...args) => {
    const j = json(args);
    const text = ok(args);
    const result = textResult(text);
    expect(result.scores).toEqual(j.scores);
    expect(result.winners).toEqual(j.winners);
    expect(result.turns).toBe(j.turns);
  });

  test.each(GAMES)("the text output has one 'turn' line per turn, in order, players taking turns (%j)", (...args) => {
    const j = json(args);
    const lines = ok(args).trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^meeplekit play: classic, ${j.players} players, seed ${JSON.stringify(j.seed).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, bots `));
    const turns = lines.filter((l) => l.startsWith('turn'));
    expect(turns).toHaveLength(j.turns);
    turns.forEach((line, i) => {
      expect(line).toMatch(new RegExp(`^turn +${i + 1}  P${i % j.players}  `));
    });
    // Header, turns, final scoring, scores, winner: nothing else.
    expect(lines).toHaveLength(j.turns + 4);
    expect(lines[lines.length - 3]).toMatch(/^final scoring: /);
  });
});

describe('meeplekit play --game castle (issue: The Castle)', () => {
  const seeds = ['castle', 'demo', 'x'];
  test.each(seeds)('is deterministic and its text agrees with its JSON (seed %s)', (seed) => {
    const args = ['--game', 'castle', '--seed', seed];
    const first = runPlay(args);
    expect(first.code).toBe(0);
    expect(runPlay(args)).toEqual(first);
    const j = json(args);
    expect(j.ruleset).toBe('castle');
    expect(j.players).toBe(2);
    const result = textResult(first.stdout);
    expect(result.scores).toEqual(j.scores);
    expect(result.winners).toEqual(argmax(j.scores));
    expect(result.turns).toBe(j.turns);
    // The 60 tiles are each placed or discarded; a turn places one (an extra turn is a turn too).
    expect(j.tilesPlaced + j.discarded).toBe(60);
    expect(j.turns).toBe(j.tilesPlaced);
    expect(first.stdout.split('\n')[0]).toMatch(/^meeplekit play: castle, 2 players, /);
  });

  test('its JSON has exactly the fields of classic\'s, in the same order', () => {
    expect(Object.keys(json(['--game', 'castle', '--seed', 'fields']))).toEqual(Object.keys(json(['--seed', 'fields'])));
  });
});

describe('meeplekit play refuses bad arguments with code 2 and a message on stderr', () => {
  const rows: [string, string[], RegExp][] = [
    ['9 players', ['--players', '9'], /--players must be from 2 to 5 for classic, got 9/],
    ['1 player', ['--players', '1'], /--players must be from 2 to 5 for classic, got 1/],
    ['6 players', ['--players', '6'], /got 6/],
    ['players not a number', ['--players', 'x'], /--players must be a whole number from 2 to 5 for classic, got 'x'/],
    ['players a fraction', ['--players', '2.5'], /--players must be a whole number from 2 to 5 for classic, got '2\.5'/],
    ['players negative', ['--players', '-2'], /--players must be from 2 to 5 for classic, got -2/],
    ['players negative, written with =', ['--players=-1'], /--players must be from 2 to 5 for classic, got -1/],
    ['players empty', ['--players', ''], /--players must be a whole number from 2 to 5 for classic, got ''/],
    ['players missing its value', ['--players'], /argument missing/],
    ['players out of range with expansions', ['--players', '7', '--expansions', 'tower'], /--players must be from 2 to 5 for classic with tower, got 7/],
    ['an unknown game', ['--game', 'nope'], /unknown game 'nope' \(games: classic, castle\)/],
    ['The Castle with 3 players', ['--game', 'castle', '--players', '3'], /--players must be 2 for castle, got 3/],
    ['The Castle with an expansion', ['--game', 'castle', '--expansions', 'river'], /The Castle is a game of its own/],
    ['an unknown bot', ['--bots', 'nope'], /unknown bot 'nope' \(bots: random, greedy\)/],
    ['an unknown bot after a known one', ['--bots', 'random,clever'], /unknown bot 'clever'/],
    ['an empty bot name', ['--bots', 'random,'], /unknown bot ''/],
    ['more bots than players', ['--bots', 'random,greedy,random', '--players', '2'], /3 bots for 2 players: give at most one bot per player/],
    ['an unknown expansion in a list with spaces', ['--expansions', 'river, moon'], /unknown expansion 'moon'/],
    ['an unknown flag, far from every flag: no suggestion', ['--frobnicate'], /Unknown option '--frobnicate'\n/],
    ['a misspelt flag: the nearest flag suggested', ['--seeed', 'x'], /Unknown option '--seeed'\. Did you mean --seed\?/],
    ['a singular for a plural flag: suggested', ['--expansion', 'river'], /Unknown option '--expansion'\. Did you mean --expansions\?/],
    ['an unknown short flag', ['-p', '3'], /Unknown option '-p'/],
    ['a positional argument', ['extra'], /Unexpected argument 'extra'/],
    ['--json with a value', ['--json=yes'], /'--json' does not take an argument/],
    ['a seed too long', ['--seed', 'x'.repeat(300)], /--seed must be at most 256 characters, got 300/],
    ['an --option of an expansion not given', ['--option', 'river.set=II'], /--option river\.set needs --expansions river/],
    ['an --option the expansion refuses', ['--expansions', 'princess-dragon', '--option', 'princess-dragon.princess=never'], /princess-dragon: princess must be 'forced' or 'optional', got "never"|princess must be 'forced' or 'optional'/],
  ];
  test.each(rows)('%s', (_, args, message) => {
    const out = runPlay(args);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^meeplekit play: /);
    expect(out.stderr).toMatch(message);
    expect(out.stderr).toMatch(/usage: meeplekit play /);
    expect(runPlay([...args, '--json'])).toMatchObject({ code: 2, stdout: '' });
  });

  test('fuzz: any arguments: never throws; code 0 with stdout only, or code 2 with stderr only', () => {
    const arg = fc.oneof(
      fc.constantFrom('--players', '--seed', '--game', '--bots', '--json', '--help', '-x', 'classic', 'random', 'greedy', '2', '3', '9', 'x', '', '--'),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(arg, { maxLength: 6 }), (args) => {
        // Keep the fuzz quick: greedy bots think about every move.
        fc.pre(!args.some((a) => a.includes('greedy')));
        const out = runPlay(args);
        if (out.code === 0) {
          expect(out.stderr).toBe('');
          expect(out.stdout.length).toBeGreaterThan(0);
        } else {
          expect(out.code).toBe(2);
          expect(out.stdout).toBe('');
          expect(out.stderr).toMatch(/^meeplekit play: [\s\S]+\nusage: meeplekit play /);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('meeplekit play --expansions tower (issue: The Tower)', () => {
  const sets = ['tower', 'tower,shrines', 'tower,count,king-robber,shrines', 'river,king-robber,shrines,tower'];
  test.each(sets)('plays a deterministic game, every tile accounted for, text agreeing with JSON (--expansions %s)', (list) => {
    const args = ['--expansions', list, '--players', '3', '--seed', 'towers'];
    expect(ok(args)).toBe(ok(args));
    const j = json(args);
    expect(j.ruleset).toMatch(/\+tower/);
    expect(textResult(ok(args))).toMatchObject({ scores: j.scores, winners: j.winners, turns: j.turns });
  });
  test('a Tower game shows its actions with their fields, and every 72 + 18 tiles are placed or discarded', () => {
    const text = ok(['--expansions', 'tower', '--players', '3', '--seed', 'r1']);
    expect(text).toMatch(/tower\/built P\d \(x -?\d+, y -?\d+, height \d+\)/);
    expect(text).toMatch(/P\d -3 tower\/ransom, P\d \+3 tower\/ransom, tower\/ransomed P\d \(captor \d\)/);
    const j = json(['--expansions', 'tower', '--players', '3', '--seed', 'r1']);
    expect(j.tilesPlaced + j.discarded).toBe(90);
  });
});

describe('meeplekit play --expansions princess-dragon (issue: The Princess and the Dragon)', () => {
  const sets = ['princess-dragon', 'princess-dragon,tower', 'princess-dragon,tower,count,king-robber,shrines', 'river,king-robber,shrines,tower,princess-dragon'];
  test.each(sets)('plays a deterministic game, text agreeing with JSON (--expansions %s)', (list) => {
    const args = ['--expansions', list, '--players', '4', '--seed', 'dragons'];
    expect(ok(args)).toBe(ok(args));
    const j = json(args);
    expect(j.ruleset).toMatch(/\+princess-dragon/);
    expect(textResult(ok(args))).toMatchObject({ scores: j.scores, winners: j.winners, turns: j.turns });
  });
  test('a game shows the dragon, the fairy and the portal with their fields; 72 + 30 tiles are placed, discarded or held back', () => {
    const text = ok(['--expansions', 'princess-dragon', '--players', '3', '--seed', 'd1']);
    expect(text).toMatch(/princess-dragon\/dragon-landed \(from [^,]+, to -?\d+,-?\d+\)/);
    expect(text).toMatch(/princess-dragon\/dragon-moved P\d \(from /);
    expect(text).toMatch(/princess-dragon\/fairy-moved P\d/);
    const j = json(['--expansions', 'princess-dragon', '--players', '3', '--seed', 'd1']);
    expect(j.tilesPlaced + j.discarded).toBeLessThanOrEqual(102);
  });
});

describe('meeplekit play --expansions river,count (the spring beside the City)', () => {
  test('the first line is the set-up placement, marked as such; the same player then plays turn 2; text agrees with JSON', () => {
    const args = ['--expansions', 'river,count', '--river-set', 'both', '--players', '3', '--seed', 'spring'];
    const lines = ok(args).split('\n');
    expect(lines[1]).toMatch(/^turn {3}1 {2}P0 {2}R1-01 at -?\d+,-?\d+ r\d+ \(set-up: laid beside the start, no follower\)$/);
    expect(lines[2]).toMatch(/^turn {3}2 {2}P0 {2}R/);
    expect(lines.filter((l) => l.includes('set-up'))).toHaveLength(1);
    const j = json(args);
    expect(textResult(ok(args))).toMatchObject({ scores: j.scores, winners: j.winners, turns: j.turns });
    expect(ok(['--expansions', 'river', '--seed', 'spring'])).not.toMatch(/set-up/);
  });
});

describe('meeplekit play: lists with spaces, --option, --help (issue 14)', () => {
  test('comma lists are trimmed: " river , shrines" is river,shrines; " greedy , random" is greedy,random', () => {
    expect(ok(['--expansions', ' river , shrines', '--bots', ' greedy , random', '--seed', 'trim'])).toBe(ok(['--expansions', 'river,shrines', '--bots', 'greedy,random', '--seed', 'trim']));
  });

  test.each([
    [['--expansions', 'river', '--option', 'river.set=II'], ['--expansions', 'river', '--river-set', 'II'], 'classic+river{"set":"II"}'],
    [['--expansions', 'princess-dragon', '--option', 'princess-dragon.princess=optional'], null, 'classic+princess-dragon{"princess":"optional"}'],
    [['--expansions', 'tower', '--option', 'tower.ransomDebt=true'], null, 'classic+tower{"ransomDebt":true}'],
    [['--expansions', 'count', '--option', 'count.edition=1', '--option', 'count.countMoves=clockwise'], null, 'classic+count{"countMoves":"clockwise","edition":1}'],
    [['--game', 'castle', '--option', 'castle.marketToken=every-court', '--option', 'castle.laps=first-lap'], null, 'castle{"laps":"first-lap","marketToken":"every-court"}'],
  ])('--option reaches the factory: %j', (args, same, ruleset) => {
    const j = json([...args, '--seed', 'opt']);
    expect(j.ruleset.startsWith(ruleset)).toBe(true);
    if (same !== null) expect(ok([...args, '--seed', 'opt'])).toBe(ok([...same, '--seed', 'opt']));
  });

  test('--help and -h print the usage and every flag on stdout, code 0', () => {
    const help = runPlay(['--help']);
    expect(help.code).toBe(0);
    expect(help.stderr).toBe('');
    expect(help.stdout).toMatch(/^usage: meeplekit play /);
    for (const flag of ['--game', '--expansions', '--option', '--river-set', '--players', '--seed', '--bots', '--json', '--replay']) expect(help.stdout).toContain(`  ${flag} `);
    expect(runPlay(['-h', '--players', '9'])).toEqual(help);
  });
});

describe("the command line's table of games, expansions and options (issue 14)", () => {
  const modules = [...Object.entries(CLI_GAMES).map(([id, m]) => [id, m, true] as const), ...Object.entries(CLI_EXPANSION_INFO).map(([id, m]) => [id, m, false] as const)];
  const make = (id: string, isGame: boolean, options: Record<string, unknown>) =>
    createRuleset(isGame ? { game: CLI_GAMES[id]!.make(options) } : { game: 'classic', expansions: [EXPANSION_FACTORIES[id]!(options)] });

  test('it names every expansion the CLI builds', () => {
    expect(Object.keys(CLI_EXPANSION_INFO).sort()).toEqual(Object.keys(EXPANSION_FACTORIES).sort());
  });

  test.each(modules.map(([id, m, isGame]) => [id, m, isGame] as const))("%s: its options are the factory's, and each value listed is accepted", (id, m, isGame) => {
    const refused = make(id, isGame, { zz: 1 });
    if (m.options.length === 0) {
      // No options: any given is refused, or ignored (the same ruleset as none).
      const none = make(id, isGame, {});
      expect(!refused.ok || (none.ok && refused.value.id === none.value.id)).toBe(true);
      return;
    }
    expect(refused.ok).toBe(false);
    const keys = /\(options: ([^)]*)\)/.exec(refused.ok ? '' : refused.error.message)![1]!.split(', ');
    expect(m.options.map((o) => o.key).sort()).toEqual(keys.sort());
    for (const o of m.options) for (const v of o.values ?? []) expect(make(id, isGame, { [o.key]: v }).ok).toBe(true);
  });
});

describe('the command line tells the truth about its expansions and flags', () => {
  test("each expansion's help line says 'not with X' exactly when the two cannot be combined", () => {
    const ids = Object.keys(CLI_EXPANSION_INFO);
    for (const a of ids) {
      for (const b of ids) {
        if (a === b) continue;
        const says = new RegExp(`not with ${b}\\b`).test(CLI_EXPANSION_INFO[a]!.about);
        const combined = createRuleset({ game: 'classic', expansions: [EXPANSION_FACTORIES[a]!({}), EXPANSION_FACTORIES[b]!({})] });
        expect({ a, b, says }).toEqual({ a, b, says: !combined.ok });
      }
    }
  });

  test.each([
    ['seeed', 'seed', 1],
    ['expansion', 'expansions', 1],
    ['sede', 'seed', 1],
    ['', 'abc', 3],
    ['players', 'players', 0],
  ] as const)('editDistance(%j, %j) = %i (a swap of neighbours counts once)', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  test('withSuggestion leaves other messages alone and suggests only a near flag', () => {
    expect(withSuggestion("Option '--seed <value>' argument missing", ['seed'])).toBe("Option '--seed <value>' argument missing");
    expect(withSuggestion("Unknown option '--zzz'", ['seed', 'players'])).toBe("Unknown option '--zzz'");
    expect(withSuggestion("Unknown option '--playrs'", ['seed', 'players'])).toBe("Unknown option '--playrs'. Did you mean --players?");
  });
});
