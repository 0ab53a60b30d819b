"""Flat Monte Carlo against a random player, through meeplekit serve.

For each legal action of the bot's decision, k random playouts from a copy of the state (``clones``)
with the action applied; the action whose playouts end with the best mean margin (the bot's score
minus the best other score) is played. All playouts of a decision advance in lockstep, so that one
round trip (``fetch``) serves every playout at each step. Trains nothing; prints the win rate.

    python3 clients/python/examples/flat_mc.py --games 4 --playouts 2
    python3 clients/python/examples/flat_mc.py --games 1 --playouts 1 --depth 6   # a quick run

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

from meeplekit_client import Server, State, fetch, free, load_game  # noqa: E402


def sample(state: State, rng: random.Random) -> int:
    """A chance outcome by its probability, or a uniformly random legal action."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def margin(returns, me):
    return returns[me] - max(r for p, r in enumerate(returns) if p != me)


def flat_mc(root: State, playouts: int, depth, rng: random.Random) -> int:
    """The legal action with the best mean playout margin for the player to decide."""
    me = root.current_player()
    legal = root.legal_actions()
    if len(legal) == 1:
        return legal[0]
    sims = root.clones(len(legal) * playouts)  # one round trip for every copy
    for i, sim in enumerate(sims):
        sim.apply_action(legal[i // playouts])  # known legal: sent with the next fetch
    active = list(sims)
    steps = 0
    while active and (depth is None or steps < depth):
        fetch(active)  # one round trip: every playout's next decision (and chance outcomes)
        active = [s for s in active if not s.is_terminal()]
        for s in active:
            s.apply_action(sample(s, rng))
        steps += 1
    fetch(sims)
    totals = [0.0] * len(legal)
    for i, sim in enumerate(sims):
        totals[i // playouts] += margin(sim.returns(), me)
    free(sims)  # their handles, now, in one request
    return legal[max(range(len(legal)), key=lambda i: totals[i])]


def play(game, seed: str, bot_seat: int, playouts: int, depth, verbose: bool):
    rng = random.Random(f"{seed}/bot")
    chance = random.Random(f"{seed}/chance")
    opponent = random.Random(f"{seed}/random")
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample(state, chance)
        elif state.current_player() == bot_seat:
            action = flat_mc(state, playouts, depth, rng)
        else:
            action = opponent.choice(state.legal_actions())
        state.apply_action(action)
    scores = state.returns()
    if verbose:
        print(f"  {seed}: bot (player {bot_seat}) {scores[bot_seat]:.0f}, random {scores[1 - bot_seat]:.0f}", flush=True)
    return scores


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--playouts", type=int, default=2, help="random playouts per legal action (k)")
    ap.add_argument("--depth", type=int, default=None, help="cut playouts after this many actions, chance draws included (default: to the end)")
    ap.add_argument("--seed", default="flat-mc")
    ap.add_argument("--serve", default=None, help="the command that starts meeplekit serve")
    ap.add_argument("--min", type=float, default=0.0, help="exit 1 when the win rate is below this")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    wins = 0.0
    with Server(args.serve) as server:
        game = load_game("classic", players=2, server=server)
        for g in range(args.games):
            seat = g % 2  # the bot first in even games, second in odd ones
            scores = play(game, f"{args.seed}/{g}", seat, args.playouts, args.depth, not args.quiet)
            if scores[seat] > scores[1 - seat]:
                wins += 1
            elif scores[seat] == scores[1 - seat]:
                wins += 0.5
    rate = wins / args.games if args.games else 0.0
    depth = "to the end" if args.depth is None else f"cut after {args.depth} actions"
    print(
        f"flat Monte Carlo ({args.playouts} playouts per action, {depth}) against random: "
        f"won {wins:g} of {args.games} games ({100 * rate:.0f} %) in {time.perf_counter() - started:.1f} s"
    )
    return 0 if rate >= args.min else 1


if __name__ == "__main__":
    sys.exit(main())
