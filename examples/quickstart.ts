import { applyMove, createRandomSource, createRuleset, legalMoves, newGame } from 'meeplekit';
import { actionToMove, createResearchSimulator, type ResearchSimulator } from 'meeplekit/ai';

/** Monte Carlo tree search one level deep: UCB1 over the root's actions, random playouts. */
function chooseAction(root: ResearchSimulator, iterations: number, seed: string): number {
  const random = createRandomSource(seed);
  const me = root.currentPlayer();
  const actions = [...root.legalActions()];
  const visits = actions.map(() => 0);
  const value = actions.map(() => 0);
  const ucb = (i: number, n: number): number => (visits[i] === 0 ? Infinity : value[i]! / visits[i]! + Math.sqrt((2 * Math.log(n)) / visits[i]!));
  for (let n = 1; n <= iterations; n++) {
    let i = 0;
    for (let j = 1; j < actions.length; j++) if (ucb(j, n) > ucb(i, n)) i = j;
    const sim = root.clone();
    sim.applyAction(actions[i]!);
    sim.playout(random); // chance nodes sampled by their probabilities, decisions at random
    visits[i]!++;
    value[i]! += (sim.returns('rank')[me]! + 1) / 2; // 1 for a win, 0 for a loss
  }
  return actions[visits.indexOf(Math.max(...visits))]!;
}

const rules = createRuleset({ game: 'classic' });
if (!rules.ok) throw new Error(rules.error.message);
const game = newGame(rules.value, { players: 2, seed: 'quickstart' });
if (!game.ok) throw new Error(game.error.message);
let state = game.value;
const random = createRandomSource('opponent');
for (let turn = 0; state.step.kind !== 'game-over'; turn++) {
  const moves = legalMoves(rules.value, state);
  const move =
    state.step.player === 0 ? actionToMove(rules.value, state, chooseAction(createResearchSimulator(rules.value, state), 200, `search-${turn}`))! : moves[random(moves.length)]!;
  const next = applyMove(rules.value, state, move);
  if (!next.ok) throw new Error(next.error.message);
  state = next.value.state;
}
console.log(state.scores); // the searching player 0 first
