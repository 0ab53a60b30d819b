/**
 * The serve protocol's `bot` and `analyse` (src/serve/bot.ts): a legal move of the player who
 * decides, for a state handle, an environment of a vector environment or a state sent as text;
 * the same move as meeplekit/bots' searchBot for the same seed and iterations; every refusal with
 * its code, changing nothing; the server's limits; and over a transport, a search that runs while
 * other connections are answered, keeps its own connection's order and stops when its connection
 * closes.
 */
import { connect, type AddressInfo, type Socket } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createRuleset } from '../src/index.js';
import { actionToMove, deserializeResearchState } from '../src/ai/index.js';
import { searchBot } from '../src/bots/index.js';
import { parseServeArgs } from '../src/cli/serve.js';
import { LIMITS } from '../src/serve/request.js';
import { createSession, type Session } from '../src/serve/session.js';
import { lineQueue, runSession, serveTcp } from '../src/serve/transport.js';
import { Client, TEST_CONFIG, type Response } from './serve-helpers.js';

function classic() {
  const r = createRuleset({ game: 'classic' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A client with game g1 (classic, 2 players), state s1 at its first decision and vector environment v1 of 2. */
function setUp(config = TEST_CONFIG): Client {
  const c = new Client(config);
  c.ok({ op: 'make_game' });
  c.ok({ op: 'new_state', game_id: 'g1', seed: 'bot', initial: 'drawn' });
  c.ok({ op: 'vec_make', game_id: 'g1', num_envs: 2, seed: 'bot' });
  return c;
}

/** The library's state of s1, read back from its serialization. */
function stateOf(c: Client, id: string) {
  const text = c.ok({ op: 'serialize', state_id: id })['text'] as string;
  const s = deserializeResearchState(classic(), text);
  if (!s.ok) throw new Error(s.error.message);
  return { text, state: s.value };
}

/** Plays s's game to its end by each decision's first action and each chance node's first outcome. */
function playOut(c: Client, id: string): void {
  for (let i = 0; i < 1000; i++) {
    const s = c.ok({ op: 'state', state_id: id });
    if (s['is_terminal'] === true) return;
    c.ok({ op: 'apply_action', state_id: id, action: (s['legal_actions'] as number[])[0]! });
  }
  throw new Error('the game did not end');
}

describe('serve: bot and analyse answer a legal move', () => {
  test('bot: the move of the player who decides, as its split action and its move, for a state handle, an environment and a state sent as text', () => {
    const c = setUp();
    const rules = classic();
    const { text, state } = stateOf(c, 's1');
    const legal = c.ok({ op: 'state', state_id: 's1' })['legal_actions'] as number[];
    const bySeed = { iterations: 60, seed: 'same' };
    const a = c.ok({ op: 'bot', state_id: 's1', ...bySeed });
    expect(a).toMatchObject({ player: 0, iterations: 60, cut_short: false });
    expect(legal).toContain(a['action']);
    expect(a['move']).toEqual(actionToMove(rules, state, a['action'] as number));
    // The same state sent as text: the same search.
    const b = c.ok({ op: 'bot', game_id: 'g1', text, ...bySeed });
    expect(b).toMatchObject({ action: a['action'], move: a['move'], iterations: 60 });
    // An environment of a vector environment: one of its legal actions.
    const env = c.ok({ op: 'bot', env_id: 'v1', env: 1, level: 1 });
    expect(env['player']).toBe(0);
    expect(env['cut_short']).toBe(false);
    expect(typeof env['action']).toBe('number');
    // The move plays: apply_action takes the action.
    c.ok({ op: 'apply_action', state_id: 's1', action: a['action'] });
  });

  test('same seed and iterations, same move; the same as searchBot with those options; another seed may differ but stays legal', () => {
    const c = setUp();
    const rules = classic();
    const { state } = stateOf(c, 's1');
    const first = c.ok({ op: 'bot', state_id: 's1', iterations: 120, seed: 'twice' });
    const again = c.ok({ op: 'bot', state_id: 's1', iterations: 120, seed: 'twice' });
    expect(again['action']).toBe(first['action']);
    expect(first['move']).toEqual(searchBot({ iterations: 120, seed: 'twice' })(rules, state));
    // An integer seed is its text.
    expect(c.ok({ op: 'bot', state_id: 's1', iterations: 120, seed: 7 })['move']).toEqual(searchBot({ iterations: 120, seed: '7' })(rules, state));
    // No seed: the library's default seed, so still deterministic.
    expect(c.ok({ op: 'bot', state_id: 's1', iterations: 50 })['move']).toEqual(searchBot({ iterations: 50 })(rules, state));
  });

  test('analyse: every candidate with its visits and expected score difference, most searched first; the first is the move', () => {
    const c = setUp();
    const legal = c.ok({ op: 'state', state_id: 's1' })['legal_actions'] as number[];
    const r = c.ok({ op: 'analyse', state_id: 's1', iterations: 100, seed: 'hint' });
    const candidates = r['candidates'] as { action: number; move: unknown; visits: number; margin: number; value: number }[];
    // With as many searches as legal moves, every legal move is a candidate.
    expect(candidates.map((x) => x.action).sort((x, y) => x - y)).toEqual(legal);
    expect(candidates[0]!.action).toBe(r['action']);
    expect(candidates[0]!.move).toEqual(r['move']);
    expect(candidates.reduce((n, x) => n + x.visits, 0)).toBe(100);
    for (let i = 1; i < candidates.length; i++) expect(candidates[i]!.visits).toBeLessThanOrEqual(candidates[i - 1]!.visits);
    for (const x of candidates) {
      expect(Number.isFinite(x.margin)).toBe(true);
      expect(x.value).toBeGreaterThanOrEqual(0);
      expect(x.value).toBeLessThanOrEqual(1);
    }
    // The same search as bot's: the same move.
    expect(c.ok({ op: 'bot', state_id: 's1', iterations: 100, seed: 'hint' })['action']).toBe(r['action']);
  });

  test('the search works on a copy: the state handle is unchanged', () => {
    const c = setUp();
    const before = c.ok({ op: 'serialize', state_id: 's1' })['text'];
    c.ok({ op: 'analyse', state_id: 's1', iterations: 80 });
    c.ok({ op: 'bot', env_id: 'v1', env: 0, iterations: 80 });
    expect(c.ok({ op: 'serialize', state_id: 's1' })['text']).toBe(before);
  });
});

/** Requests refused, with their codes (s1 at a decision, s2 at a chance node, s3 at the end of its game). */
const REFUSED: readonly (readonly [string, Record<string, unknown>, string])[] = [
  ['an unknown level', { state_id: 's1', level: 6 }, 'bots/unknown-level'],
  ['level 0', { state_id: 's1', level: 0 }, 'bots/unknown-level'],
  ['a level as text', { state_id: 's1', level: '3' }, 'bots/unknown-level'],
  ['iterations 0', { state_id: 's1', iterations: 0 }, 'bots/bad-budget'],
  ['fractional iterations', { state_id: 's1', iterations: 2.5 }, 'bots/bad-budget'],
  ['iterations as text', { state_id: 's1', iterations: '10' }, 'bots/bad-budget'],
  ['a negative time_ms', { state_id: 's1', time_ms: -5 }, 'bots/bad-budget'],
  ['time_ms as text', { state_id: 's1', time_ms: '100' }, 'bots/bad-budget'],
  ['iterations over the server\'s limit', { state_id: 's1', iterations: LIMITS.botIterations + 1 }, 'protocol/too-large'],
  ['time_ms over the server\'s limit', { state_id: 's1', time_ms: LIMITS.botMs + 1 }, 'protocol/too-large'],
  ['a seed that is no seed', { state_id: 's1', seed: 1.5 }, 'options/seed'],
  ['an unknown state', { state_id: 's99' }, 'protocol/unknown-handle'],
  ['a game where a state belongs', { state_id: 'g1' }, 'protocol/unknown-handle'],
  ['an unknown vector environment', { env_id: 'v9', env: 0 }, 'protocol/unknown-handle'],
  ['an environment out of range', { env_id: 'v1', env: 2 }, 'protocol/request'],
  ['an environment without env', { env_id: 'v1' }, 'protocol/request'],
  ['env without env_id', { state_id: 's1', env: 0 }, 'protocol/request'],
  ['text without game_id', { state_id: 's1', text: '{}' }, 'protocol/request'],
  ['two states named', { state_id: 's1', env_id: 'v1', env: 0 }, 'protocol/request'],
  ['no state named', { level: 1 }, 'protocol/request'],
  ['text that is no state', { game_id: 'g1', text: '{"format":"x"}' }, 'state/malformed'],
  ['game_id without text', { game_id: 'g1' }, 'protocol/request'],
  ['a misspelt field', { state_id: 's1', timeMs: 100 }, 'protocol/request'],
  ['a chance node', { state_id: 's2' }, 'protocol/chance-node'],
  ['a finished game', { state_id: 's3' }, 'bots/game-over'],
];

describe('serve: bot refusals', () => {
  test.each(REFUSED)('bot and analyse refuse %s, and nothing changes', (_name, fields, code) => {
    const c = setUp();
    c.ok({ op: 'new_state', game_id: 'g1', seed: 'chance' });
    c.ok({ op: 'new_state', game_id: 'g1', seed: 'over', initial: 'drawn' });
    playOut(c, 's3');
    const texts = () => ['s1', 's2', 's3'].map((s) => c.ok({ op: 'serialize', state_id: s })['text']);
    const before = texts();
    for (const op of ['bot', 'analyse']) {
      const error = c.refused({ op, ...fields }, code);
      expect(error.message).not.toMatch(/undefined|\[object Object\]|timeMs must/);
    }
    expect(texts()).toEqual(before);
    expect(c.ok({ op: 'bot', state_id: 's1', level: 1 })['cut_short']).toBe(false);
  });

  test('a level whose budget is over the server\'s --max-bot-iterations is refused; lower levels and smaller budgets are not', () => {
    const c = setUp({ ...TEST_CONFIG, limits: { botIterations: 200 } });
    expect(c.refused({ op: 'bot', state_id: 's1', level: 3 }, 'protocol/too-large').message).toMatch(/level 3 searches up to 350 times, over this server's limit of 200 \(--max-bot-iterations\)/);
    c.refused({ op: 'bot', state_id: 's1' }, 'protocol/too-large'); // the default level is 3
    c.ok({ op: 'bot', state_id: 's1', level: 2 });
    c.ok({ op: 'bot', state_id: 's1', level: 5, iterations: 200 });
  });

  test('the limit is checked against the level\'s budget in the state\'s game: level 3 searches 250 times in The Castle, 350 in classic', () => {
    const c = setUp({ ...TEST_CONFIG, limits: { botIterations: 250 } });
    expect(c.refused({ op: 'bot', state_id: 's1', level: 3 }, 'protocol/too-large').message).toMatch(/level 3 searches up to 350 times/);
    const castle = c.ok({ op: 'make_game', game: 'castle' })['game_id'];
    const s = c.ok({ op: 'new_state', game_id: castle, seed: 'bot', initial: 'drawn' })['state_id'];
    const r = c.ok({ op: 'bot', state_id: s, level: 3 });
    expect(r['iterations']).toBeLessThanOrEqual(250);
    expect(c.refused({ op: 'bot', state_id: s, level: 4 }, 'protocol/too-large').message).toMatch(/level 4 searches up to 1000 times/);
  });

  test('--max-bot-ms stops any search: the best move found so far, cut_short', () => {
    const c = setUp({ ...TEST_CONFIG, limits: { botMs: 30 } });
    const r = c.ok({ op: 'bot', state_id: 's1', iterations: LIMITS.botIterations });
    expect(r['cut_short']).toBe(true);
    expect(r['iterations']).toBeLessThan(LIMITS.botIterations);
    const legal = c.ok({ op: 'state', state_id: 's1' })['legal_actions'] as number[];
    expect(legal).toContain(r['action']);
    c.refused({ op: 'bot', state_id: 's1', time_ms: 31 }, 'protocol/too-large');
    // A time_ms of its own that ends first is its budget, not a cut.
    expect(c.ok({ op: 'bot', state_id: 's1', time_ms: 20 })['cut_short']).toBe(false);
  });

  test('info reports the bot limits; the flags set them', () => {
    expect(new Client().ok({ op: 'info' })['limits']).toMatchObject({ botIterations: 100_000, botMs: 10_000 });
    expect(parseServeArgs(['--max-bot-iterations', '5000', '--max-bot-ms', '250'])).toMatchObject({ limits: { botIterations: 5000, botMs: 250 } });
    expect(parseServeArgs(['--max-bot-ms', '0'])).toMatch(/--max-bot-ms must be a whole number from 1 to 3600000/);
    expect(parseServeArgs(['--max-bot-iterations', '1.5'])).toMatch(/--max-bot-iterations must be a whole number from 1 to 1000000/);
  });
});

/** The response `answer` gives, awaited and parsed. */
async function answered(session: Session, req: Record<string, unknown>): Promise<Response> {
  return JSON.parse(await session.answer(JSON.stringify(req))) as Response;
}

describe('serve: a search in the background', () => {
  test('answer runs the same search as handle (the same move), and answers a refusal at once', async () => {
    const session = createSession(TEST_CONFIG);
    const c = new Client();
    const lines: string[] = [];
    for (const s of [session, c.session]) {
      lines.push(s.handle('{"id":1,"op":"make_game"}'));
      lines.push(s.handle('{"id":2,"op":"new_state","game_id":"g1","seed":"bot","initial":"drawn"}'));
    }
    lines.splice(2);
    const pending = session.answer('{"id":3,"op":"bot","state_id":"s1","iterations":150,"seed":"s"}');
    expect(typeof pending).not.toBe('string');
    lines.push(await pending);
    const r = JSON.parse(lines[2]!) as Response;
    expect(r).toMatchObject({ id: 3, ok: true, iterations: 150, cut_short: false });
    expect(c.ok({ op: 'bot', state_id: 's1', iterations: 150, seed: 's' })['action']).toBe(r['action']);
    // Refusals and other operations answer at once, as strings.
    const refused = session.answer('{"id":4,"op":"bot","state_id":"s9"}');
    const info = session.answer('{"id":5,"op":"info"}');
    expect(typeof refused).toBe('string');
    expect(typeof info).toBe('string');
    // stats counts each request once, and the characters of the lines answered.
    const stats = JSON.parse(session.handle('{"id":6,"op":"stats"}')) as { chars_out: number; ops: Record<string, { count: number; errors: number; compute_ms: number }> };
    expect(stats.ops['bot']).toMatchObject({ count: 2, errors: 1 });
    expect(stats.ops['bot']!.compute_ms).toBeGreaterThan(0);
    expect(stats.ops['info']).toMatchObject({ count: 1, errors: 0 });
    lines.push(refused as string, info as string);
    expect(stats.chars_out).toBe(lines.reduce((n, l) => n + l.length + 1, 0));
  });

  test('closing the session aborts its search: it answers early, cut short', async () => {
    const session = createSession(TEST_CONFIG);
    session.handle('{"id":1,"op":"make_game"}');
    session.handle('{"id":2,"op":"new_state","game_id":"g1","seed":"bot","initial":"drawn"}');
    const pending = answered(session, { id: 3, op: 'bot', state_id: 's1', iterations: LIMITS.botIterations });
    await new Promise((resolve) => setTimeout(resolve, 20));
    session.close();
    const r = await pending;
    expect(r).toMatchObject({ id: 3, ok: true, cut_short: true });
    expect(r['iterations']).toBeLessThan(LIMITS.botIterations);
  });

  test('over a stream: the next request waits for the search (order kept); a closed output aborts it and drops its answer', async () => {
    const input = new PassThrough();
    const lines: string[] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
        done();
      },
    });
    const session = createSession(TEST_CONFIG);
    const searches: Promise<string>[] = [];
    const watched: Session = { ...session, answer: (line) => {
      const out = session.answer(line);
      if (typeof out !== 'string') searches.push(out);
      return out;
    } };
    let ended = false;
    runSession(input, output, watched, () => (ended = true));
    input.write('{"id":1,"op":"make_game"}\n{"id":2,"op":"new_state","game_id":"g1","seed":"bot","initial":"drawn"}\n');
    input.write('{"id":3,"op":"bot","state_id":"s1","iterations":200}\n{"id":4,"op":"info"}\n');
    await until(() => lines.length === 5, 'the answers');
    expect(lines.slice(1).map((l) => (JSON.parse(l) as Response).id)).toEqual([1, 2, 3, 4]);
    // A search that would run for long: the output closes while it runs.
    input.write(`{"id":5,"op":"bot","state_id":"s1","iterations":${LIMITS.botIterations}}\n`);
    await until(() => searches.length === 2, 'the search to start');
    output.destroy();
    const last = JSON.parse(await searches[1]!) as Response;
    expect(last).toMatchObject({ id: 5, cut_short: true });
    expect(last['iterations']).toBeLessThan(LIMITS.botIterations);
    expect(lines).toHaveLength(5);
    input.end();
    await until(() => ended, 'the session to end');
  });

  test('over a stream: an input that ends while a search runs still gets its answers, in order, then the session ends', async () => {
    const input = new PassThrough();
    const lines: string[] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
        done();
      },
    });
    let ended = false;
    runSession(input, output, createSession(TEST_CONFIG), () => (ended = true));
    input.end('{"id":1,"op":"make_game"}\n{"id":2,"op":"new_state","game_id":"g1","seed":"bot","initial":"drawn"}\n{"id":3,"op":"analyse","state_id":"s1","iterations":300}\n{"id":4,"op":"info"}');
    await until(() => ended, 'the session to end');
    expect(lines.slice(1).map((l) => JSON.parse(l) as Response).map((r) => [r.id, r.ok])).toEqual([[1, true], [2, true], [3, true], [4, true]]);
    expect(JSON.parse(lines[3]!)).toMatchObject({ iterations: 300, cut_short: false });
  });

  test('over TCP: while one connection\'s search runs, another connection is answered', async () => {
    const server = await serveTcp(0, TEST_CONFIG);
    const port = (server.address() as AddressInfo).port;
    const open = (): { socket: Socket; next: () => Promise<string> } => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      return { socket, next: lineQueue(socket) };
    };
    try {
      const a = open();
      const b = open();
      await a.next();
      await b.next();
      a.socket.write('{"id":1,"op":"make_game"}\n{"id":2,"op":"new_state","game_id":"g1","seed":"bot","initial":"drawn"}\n');
      await a.next();
      await a.next();
      // A search bounded only by its time (5 s), then a request behind it on the same connection.
      a.socket.write('{"id":3,"op":"bot","state_id":"s1","time_ms":5000}\n{"id":4,"op":"info"}\n');
      let aAnswered = false;
      const aNext = a.next().then((line) => {
        aAnswered = true;
        return line;
      });
      // Another connection's requests are answered while it runs.
      for (let i = 1; i <= 3; i++) {
        b.socket.write(`{"id":${i},"op":"info"}\n`);
        expect(JSON.parse(await b.next())).toMatchObject({ id: i, ok: true });
      }
      expect(aAnswered).toBe(false);
      // A reset connection aborts its search; the server goes on serving.
      a.socket.resetAndDestroy();
      b.socket.write('{"id":4,"op":"make_game"}\n');
      expect(JSON.parse(await b.next())).toMatchObject({ id: 4, ok: true, game_id: 'g1' });
      void aNext;
      b.socket.end();
    } finally {
      server.close();
    }
  });
});

/** Waits, polling, until `ready()`. */
async function until(ready: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 30_000 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!ready()) throw new Error(`timed out waiting for ${what}`);
}
