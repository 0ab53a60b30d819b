/**
 * Events share no object with the state (issue 26): a UI or a log that keeps or edits an event
 * cannot change the game. The property over every ruleset is in test/property-suite.ts; this is
 * the case that was found.
 */
import { expect, test } from 'vitest';
import { createRandomSource, createRuleset, createSimulator, newGame, type GameEvent } from '../src/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { must } from './helpers.js';

test("the Princess and the Dragon: editing a flight-ended event's `at` does not move the dragon", () => {
  const rules = must(createRuleset({ game: 'classic', expansions: [princessDragon()] }));
  const sim = must(createSimulator(rules, must(newGame(rules, { players: 3, seed: 'flight-0' })), { events: true }));
  const random = createRandomSource('flight-0');
  let event: (GameEvent & { at?: { x: number; y: number } }) | undefined;
  while (event === undefined && !sim.isOver()) {
    sim.playRandom(random);
    event = sim.takeEvents().find((e) => e.type === 'princess-dragon/flight-ended');
  }
  expect(event).toBeDefined();
  const before = JSON.stringify(sim.state);
  event!.at!.x = 12345;
  expect(JSON.stringify(sim.state)).toBe(before);
});
