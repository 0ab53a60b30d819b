/**
 * The search tree: one node per sequence of actions and chance outcomes from the root, shared by
 * every determinization (information-set MCTS with a single observer's tree).
 */

/** A decision or chance node. @internal */
export interface TreeNode {
  /** Searches through this node. */
  visits: number;
  /** Sum of each player's reward (0 to 1) over those searches. */
  readonly reward: number[];
  /** Sum of each player's score difference to their best opponent over those searches. */
  readonly margin: number[];
  /** Children by action, or by outcome at a chance node, in the order they were added. */
  readonly children: Map<number, TreeNode>;
  /** Legal actions not tried yet, in the order they will be (decision nodes; null until visited). */
  untried: number[] | null;
  /** How many of `untried`'s first entries are tried before the rest (completing placements). */
  first: number;
}

/** A fresh node for `players` players. @internal */
export function newNode(players: number): TreeNode {
  return { visits: 0, reward: new Array<number>(players).fill(0), margin: new Array<number>(players).fill(0), children: new Map(), untried: null, first: 0 };
}
