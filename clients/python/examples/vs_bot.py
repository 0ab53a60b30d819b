"""A Python agent evaluated against meeplekit's search bot at level N, through meeplekit serve.

The agent (uniformly random, or the flat Monte Carlo of ``flat_mc.py``) plays 2-player classic
games against the server's bot (``State.bot``: the move of the player who decides, at a level from
1 to 5). Games come in pairs with the seats swapped and the same tile draws (the chance outcomes
come from one random source per pair), so that neither the first move nor the luck of the draw
decides the result. Prints each game and the agent's wins, draws, losses and mean margin.

    python3 clients/python/examples/vs_bot.py --level 1 --games 4
    python3 clients/python/examples/vs_bot.py --agent mc --playouts 2 --depth 12 --level 2 --games 2
    python3 clients/python/examples/vs_bot.py --games 2 --iterations 8 --turns 6   # a quick run

``--iterations`` replaces the level's budget by a tiny one (and ``--turns`` stops each game after
that many of the agent's decisions, comparing the scores then): for a smoke test, not an
evaluation. The bot is reproducible: the same level, seed and game give the same moves.

The server is ``--serve`` (e.g. ``"node dist/cli.js serve"`` in a checkout), else ``MEEPLEKIT_SERVE``,
else ``npx --no-install meeplekit serve``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from meeplekit_client import Server, State, load_game  # noqa: E402
from flat_mc import flat_mc, margin, sample  # noqa: E402


def agent_move(state: State, args, rng: random.Random) -> int:
    """The agent's action: uniformly random, or flat Monte Carlo."""
    if args.agent == "mc":
        return flat_mc(state, args.playouts, args.depth, rng)
    return rng.choice(state.legal_actions())


def play(game, args, pair: int, seat: int) -> list:
    """One game, the agent in ``seat``; returns the scores (at the end, or after ``--turns``)."""
    chance = random.Random(f"{args.seed}/{pair}/chance")  # the same draws for both games of a pair
    rng = random.Random(f"{args.seed}/{pair}/{seat}/agent")
    bot_seed = f"{args.seed}/{pair}/{seat}/bot"
    state = game.new_initial_state(seed=f"{args.seed}/{pair}")
    turns = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample(state, chance)
        elif state.current_player() == seat:
            if args.turns is not None and turns >= args.turns:
                break
            turns += 1
            action = agent_move(state, args, rng)
        else:
            action = state.bot(args.level, iterations=args.iterations, seed=bot_seed).action
        state.apply_action(action)
    return state.returns()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", type=int, default=1, help="the bot's level, 1 to 5 (default 1)")
    ap.add_argument("--games", type=int, default=4, help="games, in pairs with the seats swapped (default 4)")
    ap.add_argument("--agent", choices=("random", "mc"), default="random")
    ap.add_argument("--playouts", type=int, default=1, help="mc: random playouts per legal action")
    ap.add_argument("--depth", type=int, default=8, help="mc: cut playouts after this many actions")
    ap.add_argument("--iterations", type=int, default=None, help="the bot's searches per move instead of the level's")
    ap.add_argument("--turns", type=int, default=None, help="stop each game after the agent's first N decisions")
    ap.add_argument("--seed", default="vs-bot")
    ap.add_argument("--serve", default=None, help="the command that starts meeplekit serve")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    wins = draws = losses = 0
    margins = []
    with Server(args.serve) as server:
        game = load_game("classic", players=2, server=server)
        for g in range(args.games):
            pair, seat = divmod(g, 2)
            scores = play(game, args, pair, seat)
            m = margin(scores, seat)
            margins.append(m)
            wins, draws, losses = wins + (m > 0), draws + (m == 0), losses + (m < 0)
            if not args.quiet:
                print(f"  game {g}: {args.agent} (player {seat}) {scores[seat]:.0f}, bot {scores[1 - seat]:.0f}", flush=True)
    mean = sum(margins) / len(margins) if margins else 0.0
    budget = f"{args.iterations} iterations" if args.iterations is not None else f"level {args.level}"
    print(
        f"{args.agent} against the bot at {budget}: {wins} won, {draws} drawn, {losses} lost of {args.games} games, "
        f"mean margin {mean:+.1f} points, in {time.perf_counter() - started:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
