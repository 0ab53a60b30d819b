/**
 * The measurement of bench/render-view.ts, with nothing of Node's in it, so that it runs in
 * Node and, bundled, in Chromium: a seeded game of classic with all six expansions, 4 players,
 * seat 0's public view after every move, each drawn with meeplekit/render's `renderBoard` and
 * `legalPlacements` as a client holding only views does. "cold" forgets the boards the renderer
 * keeps (src/render/view-boards.ts) before every call: what every call cost before they were
 * kept; "warm" draws the views in order. Each figure is the median of `runs` runs; the pictures'
 * digest shows they are the same either way.
 */
import { applyMove, createRuleset, legalMoves, newGame, publicView, type PublicView } from '../src/index.js';
import { count } from '../src/expansions/count/index.js';
import { kingRobber } from '../src/expansions/king-robber/index.js';
import { princessDragon } from '../src/expansions/princess-dragon/index.js';
import { river } from '../src/expansions/river/index.js';
import { shrines } from '../src/expansions/shrines/index.js';
import { tower } from '../src/expansions/tower/index.js';
import { legalPlacements, renderBoard } from '../src/render/index.js';
import { forgetLaidBoards } from '../src/render/view-boards.js';

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** One figure: the median time of a run, and a digest of the pictures drawn. */
export interface Figure {
  readonly ms: number;
  readonly digest: string;
}

/** What {@link measure} found. */
export interface RenderViewFigures {
  readonly views: number;
  readonly tiles: number;
  readonly figures: Readonly<Record<'whole game, cold' | 'whole game, warm' | 'last view, cold', Figure>>;
}

/** Plays the game and times drawing its views, `runs` times each. */
export function measure(runs: number): RenderViewFigures {
  const rules = must(createRuleset({ game: 'classic', expansions: [river(), kingRobber(), tower(), princessDragon(), count(), shrines()] }));
  let state = must(newGame(rules, { players: 4, seed: 'bench/render-view' }));
  const views: PublicView[] = [must(publicView(rules, state, 0))];
  let i = 0;
  while (state.step.kind !== 'game-over') {
    const legal = legalMoves(rules, state);
    // A seeded spread of choices: mostly the first (followers get placed), sometimes others.
    state = must(applyMove(rules, state, legal[(i * 7919) % 3 === 0 ? (i * 31) % legal.length : 0]!)).state;
    views.push(must(publicView(rules, state, 0)));
    i++;
  }
  const last = views[views.length - 1]!;
  // FNV-1a over the pictures and the cells.
  let hash = 0x811c9dc5;
  const add = (text: string): void => {
    for (let k = 0; k < text.length; k++) hash = Math.imul(hash ^ text.charCodeAt(k), 0x01000193) >>> 0;
  };
  const draw = (view: PublicView, cold: boolean): void => {
    if (cold) forgetLaidBoards(rules);
    add(must(renderBoard(rules, view, { tileSize: 64 })));
    if (cold) forgetLaidBoards(rules);
    add(JSON.stringify(must(legalPlacements(rules, view))));
  };
  const figures = {} as Record<keyof RenderViewFigures['figures'], Figure>;
  for (const [name, list, cold] of [
    ['whole game, cold', views, true],
    ['whole game, warm', views, false],
    ['last view, cold', [last], true],
  ] as const) {
    const times: number[] = [];
    let digest = '';
    for (let r = 0; r < runs; r++) {
      forgetLaidBoards(rules);
      hash = 0x811c9dc5;
      const t0 = performance.now();
      for (const v of list) draw(v, cold);
      times.push(performance.now() - t0);
      digest = hash.toString(16).padStart(8, '0');
    }
    times.sort((a, b) => a - b);
    figures[name] = { ms: times[Math.floor(times.length / 2)]!, digest };
  }
  return { views: views.length, tiles: last.tiles.length, figures };
}
