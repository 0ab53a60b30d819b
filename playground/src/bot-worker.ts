/**
 * The playground's Web Worker: the bots think here, never on the page's thread. A bot's move is
 * examples/bot-messages.ts' worker side as it is; an analysis (hints, the cost of a move) runs
 * meeplekit/bots' `analyse` on the same rules.
 */
import { createRuleset, type Ruleset } from 'meeplekit';
import { analyse, moveCost } from 'meeplekit/bots';
import { botWorker, EXPANSIONS, GAMES, type BotRequest } from '../../examples/bot-messages.js';
import type { AnalyseReply, AnalyseRequest, PlaygroundRequest } from './worker-protocol.js';

declare const self: { postMessage(message: unknown): void; onmessage: ((event: MessageEvent<PlaygroundRequest>) => void) | null };

const answer = botWorker((reply) => self.postMessage(reply));
const rulesets = new Map<string, Ruleset>();

function rulesFor(request: AnalyseRequest): Ruleset {
  const key = JSON.stringify([request.game, request.expansions]);
  let rules = rulesets.get(key);
  if (rules === undefined) {
    const modules = request.expansions.map((id) => {
      const make = EXPANSIONS[id];
      if (make === undefined) throw new Error(`unknown expansion '${id}'`);
      return make({});
    });
    const created = createRuleset({ game: GAMES[request.game]({}), expansions: modules });
    if (!created.ok) throw new Error(created.error.message);
    rulesets.set(key, (rules = created.value));
  }
  return rules;
}

function analysis(request: AnalyseRequest): AnalyseReply {
  try {
    // Level 5's evaluation (followers in hand count), with the page's budget of searches.
    const result = analyse(rulesFor(request), request.state, { level: 5, iterations: request.iterations, seed: request.seed });
    if (!result.ok) return { id: request.id, ok: false, kind: 'analysis', error: { code: result.error.code, message: result.error.message } };
    const a = result.value;
    const played = request.played === undefined ? undefined : a.candidates.find((c) => JSON.stringify(c.move) === JSON.stringify(request.played));
    return {
      id: request.id,
      ok: true,
      kind: 'analysis',
      best: a.best,
      margin: a.candidates[0]?.margin ?? 0,
      playedMargin: played?.margin ?? null,
      cost: request.played === undefined ? null : moveCost(a, request.played),
    };
  } catch (e) {
    return { id: request.id, ok: false, kind: 'analysis', error: { code: 'worker/failed', message: String(e) } };
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === 'analyse') self.postMessage(analysis(message));
  else void answer(message as BotRequest);
};
