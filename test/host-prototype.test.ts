/**
 * A host page whose Object.prototype carries an enumerable key (another library's prototype
 * pollution, or a careless polyfill) must change nothing in the engine's states: the engine copies
 * and freezes plain data by its own keys only. Before, `cloneJson` (expansion slices: observations,
 * trusted parsing, expansion moves) copied the inherited key into the copy, the sharing of
 * `applyMove` wrote it onto changed records, and `deepFreeze` froze the host's object reached
 * through it. Each test plays the same seeded game with and without the key and compares the states.
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  applyMove,
  createRandomSource,
  createRuleset,
  observe,
  parseState,
  randomBot,
  serializeState,
  type Ruleset,
} from '../src/index.js';
import { createResearchSimulator } from '../src/ai/index.js';
import { CLI_EXPANSIONS } from '../src/cli/expansions.js';
import { must, playGame } from './helpers.js';

const KEY = '__meeplekit_host_key__';
const HOST_VALUE = { added: 'by the host' };

function pollute(): void {
  Object.defineProperty(Object.prototype, KEY, { value: HOST_VALUE, enumerable: true, configurable: true, writable: true });
}

function clean(): void {
  delete (Object.prototype as Record<string, unknown>)[KEY];
}

afterEach(clean);

/** Every own key anywhere in `v` named KEY (paths), walking own keys only. */
function ownHostKeys(v: unknown, path = '$', out: string[] = []): string[] {
  if (typeof v !== 'object' || v === null) return out;
  if (Object.hasOwn(v, KEY)) out.push(path);
  for (const k of Object.keys(v)) ownHostKeys((v as Record<string, unknown>)[k], `${path}.${k}`, out);
  return out;
}

const SIX = ['count', 'king-robber', 'princess-dragon', 'shrines', 'tower'] as const;

function sixRules(): Ruleset {
  return must(createRuleset({ game: 'classic', expansions: SIX.map((id) => CLI_EXPANSIONS[id]!({})) }));
}

/** A seeded game of random moves (playGame), and what the engine makes of its states on the way. */
function play(rules: Ruleset, seed: string, turns: number) {
  const { states } = playGame(rules, 3, seed, turns);
  const seen: unknown[] = [];
  for (let i = 1; i < states.length; i += 10) {
    const state = states[i]!;
    seen.push(observe(rules, state, 0));
    seen.push(must(parseState(rules, serializeState(state), { trusted: true })));
    seen.push(createResearchSimulator(rules, state).clone().state);
  }
  return { state: states[states.length - 1]!, seen };
}

describe('a host\'s enumerable key on Object.prototype', () => {
  test('all six that combine: the same states, with no copy of the key and the host\'s value left unfrozen', () => {
    const rules = sixRules();
    const plain = play(rules, 'host', 120);
    pollute();
    const polluted = play(rules, 'host', 120);
    clean();
    expect(ownHostKeys(polluted.state)).toEqual([]);
    expect(ownHostKeys(polluted.seen)).toEqual([]);
    expect(JSON.stringify(polluted.state)).toBe(JSON.stringify(plain.state));
    expect(JSON.stringify(polluted.seen)).toBe(JSON.stringify(plain.seen));
    expect(Object.isFrozen(HOST_VALUE)).toBe(false);
  });

  test('an expansion move is checked by its own keys: the host\'s key does not count against its size', () => {
    const rules = sixRules();
    const { state } = play(rules, 'moves', 60);
    pollute();
    const bot = randomBot(createRandomSource('moves/next'));
    const move = bot(rules, state);
    const next = applyMove(rules, state, move);
    clean();
    expect(next.ok).toBe(true);
    if (next.ok) expect(ownHostKeys(next.value.state)).toEqual([]);
  });
});
