/**
 * The public view (docs/for-apps.md): its documented fields read off the state, nothing secret
 * in it (the same view for two states that differ only in hidden parts), followers named by
 * cell and feature as moves name them, refusals, The Castle's board as plain JSON, and a client
 * that lists its legal moves from what it holds, with no server call.
 */
import { describe, expect, test } from 'vitest';
import {
  applyViewDelta,
  createRuleset,
  featureAt,
  legalMoves,
  newGame,
  observe,
  offBoardFollowers,
  projectedScores,
  publicView,
  PUBLIC_VIEW_VERSION,
  tileDefs,
  viewDelta,
  whyIllegal,
  type GameState,
  type PublicView,
  type Ruleset,
  type RulesetOptions,
} from '../src/index.js';
import { castleOf } from '../src/games/castle/index.js';
import { featureRef } from '../src/core/engine/scoring.js';
import type { CastleSlice } from '../src/games/castle/state.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { castle as castleModule, castleBoard } from '../src/games/castle/entry.js';
import { must, playGame } from './helpers.js';

function rulesOf(spec: RulesetOptions): Ruleset {
  return must(createRuleset(spec));
}


const classic = rulesOf({ game: 'classic' });
const castle = rulesOf({ game: castleModule() });
const allModules = rulesOf({ game: 'classic', expansions: [count(), kingRobber(), princessDragon(), shrines(), tower()] });

/** A state's JSON with the seed's text replaced: does `text` occur anywhere in it? */
function mentions(view: unknown, text: string): boolean {
  return JSON.stringify(view).includes(text);
}

describe('the fields of the view, read off the state', () => {
  test('a new classic game, exactly', () => {
    const state = must(newGame(classic, { players: 2, seed: 'view-fields' }));
    const view = must(publicView(classic, state, 1));
    const step = state.step as { kind: 'place-tile'; player: number; tile: string };
    const counts: Record<string, number> = {};
    classic.tiles.forEach((t, i) => {
      if (state.bag[i]! > 0) counts[t.def.id] = state.bag[i]!;
    });
    expect(view).toEqual({
      version: PUBLIC_VIEW_VERSION,
      ruleset: 'classic',
      viewer: 1,
      seq: 0,
      players: 2,
      turn: 0,
      active: 0,
      step: { kind: 'place-tile', player: 0, tile: step.tile },
      scores: [0, 0],
      supply: [7, 7],
      held: [0, 0],
      tiles: [{ x: 0, y: 0, tile: 'D', rotation: 0 }],
      followers: [],
      bag: { total: 70, counts },
      discarded: {},
      last: null,
      modules: {},
    });
    expect(Object.keys(view.bag.counts)).toEqual(Object.keys(counts)); // catalogue order
  });

  test.each([
    ['classic', classic, 3],
    ['The Castle', castle, 2],
    ['every module but River', allModules, 3],
  ] as const)('every position of a seeded game of %s', (_name, rules, players) => {
    const { states } = playGame(rules, players, `view-fields-${_name}`);
    for (const state of states) {
      for (const viewer of [0, null]) {
        const view = must(publicView(rules, state, viewer));
        const obs = observe(rules, state, viewer);
        expect(view.seq).toBe(state.moves.length);
        expect([view.turn, view.active, view.scores, view.supply]).toEqual([state.turn, state.active, state.scores, state.supply]);
        expect(view.held).toEqual(offBoardFollowers(rules, state));
        expect(view.tiles).toEqual(state.tiles.map((t) => ({ x: t.x, y: t.y, tile: t.id, rotation: t.rotation })));
        expect(view.bag.total).toBe(state.bag.reduce((a, b) => a + b, 0));
        expect(Object.values(view.bag.counts).reduce((a, b) => a + b, 0)).toBe(view.bag.total);
        for (const [id, n] of Object.entries(view.bag.counts)) expect(state.bag[rules.tileIndex[id]!]).toBe(n);
        for (const [id, n] of Object.entries(view.discarded)) expect(state.discarded[rules.tileIndex[id]!]).toBe(n);
        expect(view.last).toEqual(state.moves[state.moves.length - 1] ?? null);
        // Each module's observed slice; The Castle's names keeps and token choices by cell and
        // feature id instead of feature segments (its viewPart hook).
        for (const [id, part] of Object.entries(view.modules)) {
          if (id !== 'castle') {
            expect(part).toEqual(obs.ext[id]);
            continue;
          }
          const sl = obs.ext[id] as CastleSlice;
          const named = (root: number): { x: number; y: number; feature: string } => {
            const r = featureRef(rules, state, root);
            return { x: r.x, y: r.y, feature: r.feature };
          };
          const { keep, pending, finals, ...rest } = sl;
          expect(part).toEqual({
            ...rest,
            keep: keep.map((k) => (k === null ? null : { ...named(k.root), tiles: k.tiles })),
            pending: pending === null ? null : { ...named(pending.root), token: pending.token },
            finals: finals.map((f) => ({ player: f.player, token: f.token, ...named(f.root) })),
          });
          expect(JSON.stringify(part)).not.toContain('root');
        }
        expect(Object.keys(view.modules)).toEqual(Object.keys(state.ext));
        // The steps: the deploy step names the tile just placed and its cell.
        const s = state.step;
        if (s.kind === 'deploy') {
          const placed = state.tiles[state.tiles.length - 1]!;
          expect(view.step).toEqual({ kind: 'deploy', player: s.player, tile: placed.id, x: placed.x, y: placed.y });
        } else expect(view.step).toEqual(s);
        // Followers by cell and feature, as a deploy move and featureAt name them.
        expect(view.followers).toHaveLength(state.followers.length);
        for (const f of view.followers) {
          const tile = tileDefs(rules).find((d) => d.id === view.tiles.find((t) => t.x === f.x && t.y === f.y)!.tile)!;
          expect(tile.features.map((x) => x.id)).toContain(f.feature);
          expect(must(featureAt(rules, state, { x: f.x, y: f.y, feature: f.feature })).followers).toContainEqual(f);
        }
      }
    }
  });

  test('the same state gives the same bytes, and the state is not changed', () => {
    const { states } = playGame(castle, 2, 'view-determinism', 40);
    const state = states[states.length - 1]!;
    const text = JSON.stringify(state);
    const a = JSON.stringify(must(publicView(castle, state, 0, { observation: true })));
    const b = JSON.stringify(must(publicView(castle, JSON.parse(text) as GameState, 0, { observation: true })));
    expect(a).toBe(b);
    expect(JSON.stringify(state)).toBe(text);
    // A view is plain JSON: it survives the network unchanged.
    expect(JSON.stringify(JSON.parse(a))).toBe(a);
  });
});

describe('no secrets: the view holds nothing the viewer may not see', () => {
  const { states } = playGame(castle, 2, 'view-secrets', 30);
  const state = states[states.length - 1]!;
  const wall = (state.ext['castle'] as CastleSlice).wall;

  test('no seed and no random generator, in any view of any ruleset', () => {
    for (const [rules, s] of [
      [castle, state],
      [classic, playGame(classic, 2, 'view-secret-seed-42', 30).states.at(-1)!],
      [allModules, playGame(allModules, 2, 'view-secret-seed-43', 30).states.at(-1)!],
    ] as const) {
      for (const viewer of [0, 1, null]) {
        for (const view of [must(publicView(rules, s, viewer)), must(publicView(rules, s, viewer, { observation: true }))]) {
          expect(mentions(view, s.seed)).toBe(false);
          expect(mentions(view, '"rng"')).toBe(false);
          expect(mentions(view, '"seed"')).toBe(false);
        }
      }
    }
  });

  test("The Castle's face-down tokens show as -1 to every viewer", () => {
    expect(wall.filter((t) => t > 0).length).toBeGreaterThan(1);
    for (const viewer of [0, 1, null]) {
      const view = must(publicView(castle, state, viewer, { observation: true }));
      expect((view.modules['castle'] as CastleSlice).wall).toEqual(wall.map((t) => (t === 0 ? 0 : -1)));
      expect((view.observation!.ext['castle'] as CastleSlice).wall).toEqual(wall.map((t) => (t === 0 ? 0 : -1)));
    }
  });

  test('two states that differ only in hidden parts (tokens face down, seed, generator) give the same view, byte for byte', () => {
    const secret = JSON.parse(JSON.stringify(state)) as { seed: string; rng: number[]; ext: { castle: CastleSlice } };
    const down = secret.ext.castle.wall.flatMap((t, i) => (t > 0 ? [i] : []));
    const i = down[0]!;
    const j = down.find((k) => secret.ext.castle.wall[k] !== secret.ext.castle.wall[i])!;
    [secret.ext.castle.wall[i], secret.ext.castle.wall[j]] = [secret.ext.castle.wall[j]!, secret.ext.castle.wall[i]!];
    secret.seed = 'another seed';
    secret.rng = [1, 2, 3, 4];
    const other = secret as unknown as GameState;
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(state));
    for (const viewer of [0, 1, null]) {
      for (const options of [{}, { observation: true }]) {
        expect(JSON.stringify(must(publicView(castle, other, viewer, options)))).toBe(JSON.stringify(must(publicView(castle, state, viewer, options))));
      }
    }
    // ...and the comparison can tell: a public difference shows.
    const scored = { ...state, scores: [state.scores[0]! + 1, state.scores[1]!] };
    expect(JSON.stringify(must(publicView(castle, scored, 0)))).not.toBe(JSON.stringify(must(publicView(castle, state, 0))));
  });

  test('classic: two games that differ only in their seed and generator, with the same draws, give the same view', () => {
    const a = playGame(classic, 2, 'view-same-draws', 12).states.at(-1)!;
    const b = { ...a, seed: 'x', rng: [9, 9, 9, 9] } as GameState;
    for (const viewer of [0, 1, null]) expect(JSON.stringify(must(publicView(classic, b, viewer)))).toBe(JSON.stringify(must(publicView(classic, a, viewer))));
  });
});

describe('events name followers by cell and feature, as the view does', () => {
  test.each([
    ['classic', classic],
    ['every module but River', allModules],
  ] as const)('%s: each follower deployed is in the view after, each follower returned was in the view before', (name, rules) => {
    const { states, events } = playGame(rules, 3, `view-events-${name}`);
    let checked = 0;
    for (let i = 1; i < states.length; i++) {
      const before = must(publicView(rules, states[i - 1]!, null));
      const after = must(publicView(rules, states[i]!, null));
      // A follower may come and go within one move: deployed on the tile that completes its
      // feature, or moved out of the Count's City onto a feature scored at once.
      const deployed: unknown[] = [];
      const returned: unknown[] = [];
      for (const e of events[i]!) if (e.type === 'follower-returned') returned.push({ player: e.player, x: e.at.x, y: e.at.y, feature: e.at.feature });
      for (const e of events[i]!) {
        if (e.type !== 'follower-deployed' && e.type !== 'follower-returned') continue;
        const named = { player: e.player, x: e.at.x, y: e.at.y, feature: e.at.feature };
        if (e.type === 'follower-deployed') deployed.push(named);
        if (e.type === 'follower-returned') {
          // The Count's followers stand on the feature's root segment (count/moved-out names it).
          for (const m of events[i]!) {
            const out = m as unknown as { type: string; player: number; feature?: { x: number; y: number; feature: string } };
            if (out.type === 'count/moved-out' && out.feature !== undefined) deployed.push({ player: out.player, x: out.feature.x, y: out.feature.y, feature: out.feature.feature });
          }
        }
        expect(e.type === 'follower-deployed' ? [...after.followers, ...returned] : [...before.followers, ...deployed]).toContainEqual(named);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe('refusals', () => {
  const state = must(newGame(castle, { players: 2, seed: 'view-refusals' }));
  test.each([
    ['a viewer past the last player', 2],
    ['a negative viewer', -1],
    ['a fractional viewer', 0.5],
    ['NaN', Number.NaN],
    ['a viewer as text', '0'],
    ['undefined', undefined],
  ] as const)('%s: view/bad-viewer', (_name, viewer) => {
    const r = publicView(castle, state, viewer as unknown as number);
    expect(r.ok ? 'made' : r.error.code).toBe('view/bad-viewer');
  });

  test('a state of another ruleset: state/ruleset-mismatch, with nothing of it in the error', () => {
    const r = publicView(classic, state, 0);
    expect(r.ok ? 'made' : r.error.code).toBe('state/ruleset-mismatch');
    expect(JSON.stringify(r)).not.toContain('wall');
  });

  test.each([
    ['null', null],
    ['a number', 3],
    ['an object without tiles', { ruleset: 'castle' }],
  ] as const)('not a state (%s): state/malformed', (_name, input) => {
    const r = publicView(castle, input as unknown as GameState, 0);
    expect(r.ok ? 'made' : r.error.code).toBe('state/malformed');
  });
});

describe("The Castle's board in UI data is plain JSON", () => {
  test('plain arrays, equal to the engine\'s typed ones, surviving JSON unchanged; null for other games', () => {
    const board = castleBoard(castle)!;
    const layout = castleOf(castle).config.layout;
    expect(Array.isArray(board.inside) && Array.isArray(board.towerAt)).toBe(true);
    expect(board.inside).toEqual(Array.from(layout.inside));
    expect(board.towerAt).toEqual(Array.from(layout.towerAt));
    expect(JSON.parse(JSON.stringify(board))).toEqual(board);
    expect(structuredClone(board)).toEqual(board);
    expect(board.inside.filter((f) => f === 1)).toHaveLength(board.cellCount);
    expect(Object.isFrozen(board) && Object.isFrozen(board.inside)).toBe(true);
    // The engine's own compiled layout keeps its typed arrays.
    expect(layout.inside).toBeInstanceOf(Uint8Array);
    expect(castleBoard(classic)).toBeNull();
  });
});

describe('a client lists its legal moves from what it holds, with no server call', () => {
  test.each([
    ['classic', classic, 2],
    ['The Castle', castle, 2],
    ['every module but River', allModules, 3],
  ] as const)('%s: a view carrying the observation, kept up to date by deltas only', (name, rules, players) => {
    const { states } = playGame(rules, players, `view-client-${name}`);
    const seat = 1;
    // The client receives one whole view when it joins, then a delta after every move.
    let held: PublicView = JSON.parse(JSON.stringify(must(publicView(rules, states[0]!, seat, { observation: true })))) as PublicView;
    let decisions = 0;
    for (let i = 0; i < states.length; i++) {
      if (i > 0) {
        const delta = must(viewDelta(must(publicView(rules, states[i - 1]!, seat, { observation: true })), must(publicView(rules, states[i]!, seat, { observation: true }))));
        held = must(applyViewDelta(held, JSON.parse(JSON.stringify(delta))));
      }
      const server = states[i]!;
      const mine = held.observation!;
      if (server.step.kind === 'game-over' || server.step.player !== seat) continue;
      decisions++;
      const moves = legalMoves(rules, mine);
      expect(moves).toEqual(legalMoves(rules, server));
      for (const m of moves.slice(0, 3)) expect(whyIllegal(rules, mine, m)).toBeNull();
      expect(projectedScores(rules, mine)).toEqual(projectedScores(rules, server));
      for (const f of held.followers) expect(featureAt(rules, mine, f)).toEqual(featureAt(rules, server, f));
    }
    expect(decisions).toBeGreaterThan(10);
  });

  test('without the observation the view has no feature graph: the queries need observe output', () => {
    const view = must(publicView(classic, must(newGame(classic, { players: 2, seed: 'thin' })), 0));
    expect('observation' in view).toBe(false);
    expect('features' in view).toBe(false);
  });
});
