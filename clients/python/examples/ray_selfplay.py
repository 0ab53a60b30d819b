"""Games or rollouts sharded over a Ray cluster, one meeplekit serve per Ray actor.

Without --address, starts a local Ray on this machine; with --address auto (or HOST:PORT), joins
the cluster that `ray start` made, whose every node has Node 20 and a built meeplekit (or
MEEPLEKIT_SERVE, or --serve, naming the command there). The client itself is shipped to the
cluster with the job (Ray's runtime_env py_modules), so the nodes need ray but not
meeplekit_client. Prints the throughput and a checksum of the results: the same --seed gives the
same checksum whatever --actors is.

    python3 clients/python/examples/ray_selfplay.py --actors 2 --games 64
    python3 clients/python/examples/ray_selfplay.py --mode bot --level 1 --games 4
    python3 clients/python/examples/ray_selfplay.py --mode rollouts --games 8 --envs 64 --steps 100
    python3 clients/python/examples/ray_selfplay.py --address auto --actors 16 --games 10000
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import meeplekit_client  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--address", default=None, help="a Ray cluster to join ('auto': the one `ray start` made here); default: a local Ray")
    ap.add_argument("--actors", type=int, default=2, help="Ray actors, each with its own meeplekit serve")
    ap.add_argument("--cpus-per-actor", type=float, default=1.0, help="the CPUs Ray reserves for each actor")
    ap.add_argument("--games", type=int, default=32, help="games (or, with --mode rollouts, rollouts)")
    ap.add_argument("--seed", default="ray-selfplay")
    ap.add_argument("--mode", choices=("random", "bot", "rollouts"), default="random")
    ap.add_argument("--level", type=int, default=1, help="--mode bot: the bot's level, 1 to 5")
    ap.add_argument("--iterations", type=int, default=None, help="--mode bot: searches per move instead of the level's")
    ap.add_argument("--bot-seats", default=None, help="--mode bot: the seats the bot plays, such as 0 or 0,1 (default all)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--expansions", default="", help="comma-separated expansion ids")
    ap.add_argument("--per-task", type=int, default=None, help="games (rollouts) per task (default 8 games, 1 rollout)")
    ap.add_argument("--envs", type=int, default=64, help="--mode rollouts: environments per rollout")
    ap.add_argument("--steps", type=int, default=100, help="--mode rollouts: steps per rollout")
    ap.add_argument("--observations", default="none", help="--mode rollouts: none, compact, float32 or entity")
    ap.add_argument("--serve", default=None, help="the command that starts meeplekit serve on each node")
    args = ap.parse_args(argv)

    import ray

    from meeplekit_client import ray as mkray

    runtime_env = {"py_modules": [meeplekit_client]}
    if args.address is None:
        ray.init(include_dashboard=False, runtime_env=runtime_env)
    else:
        ray.init(address=args.address, runtime_env=runtime_env)
    expansions = [e for e in args.expansions.split(",") if e]
    started = time.perf_counter()
    with mkray.ServerPool(args.actors, serve=args.serve, actor_options={"num_cpus": args.cpus_per_actor}) as pool:
        ready = time.perf_counter()
        nodes = sorted({s["node_id"] for s in pool.servers})
        if args.mode == "rollouts":
            results = pool.rollouts(
                args.games, args.seed, num_envs=args.envs, steps=args.steps, players=args.players, expansions=expansions,
                observations=args.observations, rollouts_per_task=args.per_task or 1,
            )
        else:
            bot = {}
            if args.mode == "bot":
                seats = [int(s) for s in args.bot_seats.split(",")] if args.bot_seats else None
                bot = {"level": None if args.iterations else args.level, "iterations": args.iterations, "bot_seats": seats}
            results = pool.play_games(
                args.games, args.seed, mode=args.mode, players=args.players, expansions=expansions,
                games_per_task=args.per_task or 8, **bot,
            )
        elapsed = time.perf_counter() - ready
        replayed = pool.stats["replayed"]
    checksum = hashlib.sha256(json.dumps([r.to_dict() for r in results], sort_keys=True).encode()).hexdigest()[:16]
    where = f"{args.actors} actors on {len(nodes)} node{'s' if len(nodes) != 1 else ''}"
    if args.mode == "rollouts":
        actions = args.games * args.envs * args.steps
        print(f"{args.games} rollouts of {args.envs} envs x {args.steps} steps on {where} in {elapsed:.1f} s: {actions / elapsed:,.0f} actions/s")
    else:
        decisions = sum(len(r.actions) for r in results)
        first = sum(1.0 / r.returns.count(max(r.returns)) for r in results if r.returns[0] == max(r.returns))
        print(
            f"{args.games} {args.mode} games on {where} in {elapsed:.1f} s: {args.games / elapsed:.2f} games/s, "
            f"{decisions / elapsed:,.0f} decisions/s; the first player won {100 * first / max(1, args.games):.1f} % (ties shared)"
        )
    print(f"actors started in {ready - started:.1f} s; tasks replayed: {replayed}; checksum of the results: {checksum}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
