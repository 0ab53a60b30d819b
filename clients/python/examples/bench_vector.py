"""Throughput of VectorEnv: N random agents stepped together through meeplekit serve.

    python3 clients/python/examples/bench_vector.py --envs 256 --seconds 10

Counts actions (one per env per step; chance is resolved in the server and not counted) and
reports actions per second, the time per step, and how the server's time splits (its ``stats``
op, when the server has it).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from meeplekit_client import HAVE_NUMPY, Server, VectorEnv, load_game  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--masks", default="list", choices=["list", "dense", "none"])
    ap.add_argument("--observations", action="store_true")
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--serve", default=None, help="the command that starts meeplekit serve")
    args = ap.parse_args(argv)
    if args.masks == "none":
        ap.error("random agents need the legal actions: --masks list or dense")
    with Server(args.serve) as server:
        game = load_game("classic", players=args.players, server=server)
        with VectorEnv(args.envs, game, seed=args.seed, masks=args.masks, observations=args.observations) as env:
            batch = env.reset()
            for _ in range(20):  # warm up
                batch = env.step(env.random_actions(batch))
            has_stats = "stats" in server.info().get("ops", [])
            if has_stats:
                server.request("stats", reset=True)
            steps = games = 0
            started = time.perf_counter()
            while time.perf_counter() - started < args.seconds:
                batch = env.step(env.random_actions(batch))
                steps += 1
                games += int(sum(1 for d in batch.done if d))
            elapsed = time.perf_counter() - started
            stats = server.request("stats") if has_stats else None
    actions = steps * args.envs
    print(f"python {platform.python_version()} ({'numpy' if HAVE_NUMPY else 'no numpy'}), meeplekit {server.version}, {platform.machine()}, {os.cpu_count()} cores")
    print(
        f"VectorEnv({args.envs}, masks={args.masks!r}, observations={args.observations}): {steps} steps in {elapsed:.1f} s, "
        f"{actions / elapsed:,.0f} actions/s, {1000 * elapsed / steps:.2f} ms per step, {games / elapsed:,.1f} games/s"
    )
    if stats is not None:
        op = stats["ops"].get("vec_step", {})
        server_ms = sum(op.get(k, 0.0) for k in ("parse_ms", "compute_ms", "encode_ms")) + stats.get("write_ms", 0.0)
        print(
            f"server time per step: compute {op.get('compute_ms', 0) / steps:.2f} ms, parse {op.get('parse_ms', 0) / steps:.2f} ms, "
            f"encode {op.get('encode_ms', 0) / steps:.2f} ms; the rest ({1000 * elapsed / steps - server_ms / steps:.2f} ms) is the client and the pipe"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
