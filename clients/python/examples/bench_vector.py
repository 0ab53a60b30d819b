"""Throughput of VectorEnv: N random agents stepped together through meeplekit serve.

    python3 clients/python/examples/bench_vector.py --envs 256 --seconds 10
    python3 clients/python/examples/bench_vector.py --envs 256 --inflight 2   # 2 x 128, overlapped
    python3 clients/python/examples/bench_vector.py --observations compact --masks packed
    python3 clients/python/examples/bench_vector.py --observations compact --masks packed --shm

Counts actions as ``npm run bench:serve`` does: an action is one agent's decision, one per env per
step (chance is resolved in the server and not counted). Reports actions per second, the time per
step, and how the server's time splits (its ``stats`` op, when the server has it). Observations
are received as a learner would take them (``--observations compact``: the compact arrays as they
come; ``--decode`` also unpacks them into the float32 tensor each step). Arrays come as binary
frames when the server offers them (``--base64`` keeps base64 in JSON); ``--shm`` has the server
write the batches into shared memory, which the arrays then view (Linux).
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
    ap.add_argument("--envs", type=int, default=256, help="random agents (games side by side), in all")
    ap.add_argument("--inflight", type=int, default=1, help="split the envs over this many VectorEnvs kept in flight at once (step_async)")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--masks", default="list", choices=["list", "packed", "dense"])
    # --observations alone keeps its old meaning: the float32 observations.
    ap.add_argument("--observations", nargs="?", const="float32", default="none", choices=["none", "float32", "compact", "entity"])
    ap.add_argument("--decode", action="store_true", help="unpack compact observations into float32 every step")
    ap.add_argument("--base64", action="store_true", help="arrays as base64 in JSON, not binary frames")
    ap.add_argument("--shm", action="store_true", help="the batches' arrays in shared memory (Server(shm=True))")
    ap.add_argument("--game", default="classic")
    ap.add_argument("--expansions", default="", help="comma-separated expansion ids")
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--serve", default=None, help="the command that starts meeplekit serve")
    args = ap.parse_args(argv)
    k = args.inflight
    if k < 1 or args.envs % k:
        ap.error("--envs must be a multiple of --inflight")
    per = args.envs // k
    expansions = [e for e in args.expansions.split(",") if e]
    with Server(args.serve, binary=False if args.base64 else None, shm=args.shm, shm_slots=max(2, k)) as server:
        game = load_game(args.game, expansions, players=args.players, server=server)
        envs = [VectorEnv(per, game, seed=f"{args.seed}/{i}", masks=args.masks, observations=args.observations) for i in range(k)]
        batches = [env.reset() for env in envs]
        for env, batch in zip(envs, batches):
            env.step_async(env.random_actions(batch))
        has_stats = "stats" in server.info().get("ops", [])
        shared = server.shm

        def run(seconds):
            steps = games = 0
            started = time.perf_counter()
            while time.perf_counter() - started < seconds:
                for env in envs:  # each env's step runs on the server while Python chooses for the next
                    batch = env.step_wait()
                    if args.decode:
                        env.decode_observations(batch)
                    env.step_async(env.random_actions(batch))
                    steps += 1
                    games += int(sum(1 for d in batch.done if d))
            return steps, games, time.perf_counter() - started

        run(min(2.0, args.seconds / 5))  # warm up
        if has_stats:
            server.request("stats", reset=True)
        steps, games, elapsed = run(args.seconds)
        stats = server.request("stats") if has_stats else None
        for env in envs:
            env.step_wait()
            env.close()
    actions = steps * per
    print(f"python {platform.python_version()} ({'numpy' if HAVE_NUMPY else 'no numpy'}), meeplekit {server.version}, {platform.machine()}, {os.cpu_count()} cores")
    print(
        f"{args.envs} random agents, {k} VectorEnv({per}, {args.game}{'+' + args.expansions if expansions else ''}, masks={args.masks!r}, "
        f"observations={args.observations!r}{', decoded' if args.decode else ''}, {'shared memory, ' if shared else ''}{'binary frames' if server.binary else 'base64'}) in flight: "
        f"{actions / elapsed:,.0f} actions/s, {1000 * elapsed * k / steps:.2f} ms per step of each env, {games / elapsed:,.1f} games/s"
    )
    if stats is not None:
        op = stats["ops"].get("vec_step", {})
        busy = sum(op.get(x, 0.0) for x in ("parse_ms", "compute_ms", "encode_ms")) + stats.get("write_ms", 0.0)
        print(
            f"server per vec_step: compute {op.get('compute_ms', 0) / steps:.2f} ms, parse {op.get('parse_ms', 0) / steps:.2f} ms, "
            f"encode {op.get('encode_ms', 0) / steps:.2f} ms, write {stats.get('write_ms', 0) / steps:.2f} ms; "
            f"the server was busy {100 * busy / (1000 * elapsed):.0f} % of the time"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
