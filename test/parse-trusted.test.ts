/**
 * parseState's trusted path (issue 15: "offer a documented faster path for a server that trusts
 * its own storage"): no replay, the envelope and the state's fields still checked.
 */
import { describe, expect, test } from 'vitest';
import { createRandomSource, createRuleset, createSimulator, newGame, parseState, serializeState, STATE_VERSION, type GameState } from '../src/index.js';
import { must } from './helpers.js';

const classic = must(createRuleset({ game: 'classic' }));

function finished(seed: string): GameState {
  const sim = must(createSimulator(classic, must(newGame(classic, { players: 3, seed }))));
  sim.playout(createRandomSource(seed));
  return sim.snapshot();
}

function isDeepFrozen(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (!Object.isFrozen(v)) return false;
  return Object.values(v).every(isDeepFrozen);
}

describe('parseState(rules, text, { trusted: true })', () => {
  test('what serializeState wrote comes back equal and deeply frozen, the same as the checked path', () => {
    for (const seed of ['t1', 't2', 't3']) {
      const text = serializeState(finished(seed));
      const fast = must(parseState(classic, text, { trusted: true }));
      const checked = must(parseState(classic, text));
      expect(serializeState(fast)).toBe(text);
      expect(fast).toEqual(checked);
      expect(isDeepFrozen(fast)).toBe(true);
    }
  });

  test('an edited state is NOT detected (documented): the checked path refuses what the trusted one takes', () => {
    const data = JSON.parse(serializeState(finished('edit'))) as { state: { scores: number[] } };
    data.state.scores[0]! += 100;
    expect(parseState(classic, data).ok).toBe(false);
    const fast = must(parseState(classic, data, { trusted: true }));
    expect(fast.scores[0]).toBe(data.state.scores[0]);
    // Given parsed JSON, the caller's object is neither frozen nor returned.
    expect(Object.isFrozen(data.state)).toBe(false);
    expect(fast).not.toBe(data.state);
  });

  const text = serializeState(must(newGame(classic, { players: 2, seed: 'envelope' })));
  const refused: [string, unknown, string, string | undefined][] = [
    ['not JSON', '{', 'state/json', undefined],
    ['another format', text.replace('meeplekit/state', 'meeplekit/other'), 'state/malformed', '$.format'],
    ['another version', text.replace(`"version":${STATE_VERSION}`, '"version":9'), 'state/version', '$.version'],
    ['another ruleset', text.replace('"ruleset":"classic"', '"ruleset":"castle"'), 'state/ruleset-mismatch', '$.state.ruleset'],
    ['a field missing', text.replace('"frontier":', '"frontyard":'), 'state/malformed', '$.state.frontier'],
    ['a field of the wrong type', text.replace('"turn":0', '"turn":"0"'), 'state/malformed', '$.state.turn'],
    ['a field too many', text.replace('"turn":0', '"turn":0,"cheat":1'), 'state/malformed', '$.state.cheat'],
    // The kept bag size decides every draw: one that is not the bag's sum would draw past its end.
    ['a bag size that is not the sum of the bag', text.replace('"bagSize":70', '"bagSize":71'), 'state/malformed', '$.state.bagSize'],
    ['a bag count that is no count', text.replace('"bag":[', '"bag":[-1,'), 'state/malformed', '$.state.bag'],
  ];
  test.each(refused)('still refused: %s', (_name, input, code, path) => {
    const r = parseState(classic, input, { trusted: true });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(code);
    expect(r.error.path).toBe(path);
  });

  test('bad options are refused, not ignored', () => {
    expect(parseState(classic, text, { trusted: 'yes' } as never).ok).toBe(false);
    expect(parseState(classic, text, { trust: true } as never).ok).toBe(false);
    expect(parseState(classic, text, null as never).ok).toBe(false);
  });
});
