"""Throughput of VectorEnv: N random agents stepped together through meeplekit serve.

    python3 clients/python/examples/bench_vector.py --envs 256 --seconds 10
    python3 clients/python/examples/bench_vector.py --envs 256 --inflight 2   # 2 x 128, overlapped
    python3 clients/python/examples/bench_vector.py --observations compact --masks packed
    python3 clients/python/examples/bench_vector.py --observations compact --masks packed --shm
    python3 clients/python/examples/bench_vector.py --servers 2 --inflight 2   # 2 servers, 2 x 64 each

Counts actions as ``npm run bench:serve`` does: an action is one agent's decision, one per env per
step (chance is resolved in the server and not counted). Reports actions per second, the time per
step, and how the server's time splits (its ``stats`` op, when the server has it). Observations
are received as a learner would take them (``--observations compact``: the compact arrays as they
come; ``--decode`` also unpacks them into the float32 tensor each step). Arrays come as binary
frames when the server offers them (``--base64`` keeps base64 in JSON); ``--shm`` has the server
write the batches into shared memory, which the arrays then view (Linux). ``--servers K`` starts K
server processes and splits the environments evenly over them (each then has ``--inflight``
VectorEnvs in flight), as a learner would to use more cores; the server's figures are then the means over every
server's steps, and each server's share of the time busy.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from meeplekit_client import HAVE_NUMPY, Server, VectorEnv, load_game  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--envs", type=int, default=256, help="random agents (games side by side), in all")
    ap.add_argument("--inflight", type=int, default=1, help="split each server's envs over this many VectorEnvs kept in flight at once (step_async)")
    ap.add_argument("--servers", type=int, default=1, help="split the envs over this many server processes")
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
    k, servers = args.inflight, args.servers
    if k < 1 or servers < 1 or args.envs % (k * servers):
        ap.error("--envs must be a multiple of --inflight times --servers")
    per = args.envs // (k * servers)
    expansions = [e for e in args.expansions.split(",") if e]
    with contextlib.ExitStack() as stack:
        opened = [stack.enter_context(Server(args.serve, binary=False if args.base64 else None, shm=args.shm, shm_slots=max(2, k))) for _ in range(servers)]
        server = opened[0]
        games_of = [load_game(args.game, expansions, players=args.players, server=s) for s in opened]
        # Interleaved (server 0's first, server 1's first, ..., server 0's second, ...), so that
        # the VectorEnv waited for next is on another server than the one just sent a step.
        envs = [VectorEnv(per, games_of[j], seed=f"{args.seed}/{i * servers + j}", masks=args.masks, observations=args.observations) for i in range(k) for j in range(servers)]
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
            for s in opened:
                s.request("stats", reset=True)
        steps, games, elapsed = run(args.seconds)
        stats = [s.request("stats") for s in opened] if has_stats else None
        for env in envs:
            env.step_wait()
            env.close()
    actions = steps * per
    print(f"python {platform.python_version()} ({'numpy' if HAVE_NUMPY else 'no numpy'}), meeplekit {server.version}, {platform.machine()}, {os.cpu_count()} cores")
    print(
        f"{args.envs} random agents, {k * servers} VectorEnv({per}, {args.game}{'+' + args.expansions if expansions else ''}, masks={args.masks!r}, "
        f"observations={args.observations!r}{', decoded' if args.decode else ''}, {'shared memory, ' if shared else ''}{'binary frames' if server.binary else 'base64'}) in flight"
        f"{f' on {servers} servers' if servers > 1 else ''}: "
        f"{actions / elapsed:,.0f} actions/s, {1000 * elapsed * k * servers / steps:.2f} ms per step of each env, {games / elapsed:,.1f} games/s"
    )
    if stats is not None:
        ops = [st["ops"].get("vec_step", {}) for st in stats]
        total = lambda key: sum(op.get(key, 0.0) for op in ops)  # noqa: E731
        write = sum(st.get("write_ms", 0.0) for st in stats)
        busy = [sum(op.get(x, 0.0) for x in ("parse_ms", "compute_ms", "encode_ms")) + st.get("write_ms", 0.0) for op, st in zip(ops, stats)]
        print(
            f"server per vec_step: compute {total('compute_ms') / steps:.2f} ms, parse {total('parse_ms') / steps:.2f} ms, "
            f"encode {total('encode_ms') / steps:.2f} ms, write {write / steps:.2f} ms; "
            f"the server{'s were' if servers > 1 else ' was'} busy {', '.join(f'{100 * b / (1000 * elapsed):.0f}' for b in busy)} % of the time"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
