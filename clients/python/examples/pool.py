"""Many games on several processes, one ``meeplekit serve`` per worker process.

Each worker process starts its own server once (the pool's initializer) and keeps it for every
task it runs; a task is a seed, and plays ``--envs`` random games side by side in a VectorEnv
from that seed. The parent only collects results: nothing is shared between workers but the
protocol. Prints how often the first player wins random games.

    python3 clients/python/examples/pool.py --workers 2 --tasks 8 --envs 64

The same pattern maps one to one to Ray (a worker process is an actor that owns a Server) and to
SLURM array jobs (a task is an array index that seeds its games); see docs/python.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from meeplekit_client import Server, VectorEnv, load_game  # noqa: E402

_server = None  # this worker's own server


def start_worker(command) -> None:
    """The pool's initializer: one server per worker process, closed when the process exits."""
    global _server
    _server = Server(command)


def run_task(seed: str, envs: int, players: int):
    """Plays ``envs`` random games from ``seed`` on this worker's server; returns their final scores."""
    game = load_game("classic", players=players, server=_server)
    finished, ended = [], set()
    with VectorEnv(envs, game, seed=seed, auto_reset=False) as env:
        batch = env.reset()
        while len(finished) < envs:
            batch = env.step(env.random_actions(batch))
            for i, done in enumerate(batch.done):
                if done and i not in ended:  # without auto-reset, done stays 1 once a game is over
                    ended.add(i)
                    finished.append([float(x) for x in batch.returns[i]])
    return os.getpid(), finished


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--tasks", type=int, default=8)
    ap.add_argument("--envs", type=int, default=64, help="games per task, played side by side")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", default="pool")
    ap.add_argument("--serve", default=None, help="the command that starts meeplekit serve")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    # "spawn": each worker is a fresh interpreter that starts its own server (no inherited pipes).
    context = multiprocessing.get_context("spawn")
    games, first_wins, pids = 0, 0.0, set()
    with cf.ProcessPoolExecutor(args.workers, mp_context=context, initializer=start_worker, initargs=(args.serve,)) as pool:
        futures = [pool.submit(run_task, f"{args.seed}/{t}", args.envs, args.players) for t in range(args.tasks)]
        for future in cf.as_completed(futures):
            pid, results = future.result()
            pids.add(pid)
            for scores in results:
                best = max(scores)
                winners = [p for p, s in enumerate(scores) if s == best]
                games += 1
                first_wins += (1.0 / len(winners)) if 0 in winners else 0.0
    elapsed = time.perf_counter() - started
    print(
        f"{games} random games of {args.players} players on {len(pids)} worker processes (one server each) in {elapsed:.1f} s: "
        f"the first player won {100 * first_wins / games:.1f} % (ties shared)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
