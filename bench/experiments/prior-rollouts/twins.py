# Pairs each game of a variant's run with its twin in a reference run: the same deal (and so the
# same tile order) with the bot in the same seat. Prints how far the bot's margin moved, game by
# game, with its 95% half-width, and both runs' shares over the paired games.
#   python3 twins.py BOT VARIANT_FILES... -- REFERENCE_FILES...
import math, re, sys

bot = sys.argv[1]
split = sys.argv.index('--')
variant, reference = sys.argv[2:split], sys.argv[split + 1:]

def games(files):
    out = {}
    for name in files:
        for line in open(name):
            m = re.match(r"deal (\d+): (\S+) (-?\d+) \| (\S+) (-?\d+)", line)
            if not m:
                continue
            d, b1, s1, b2, s2 = m.groups()
            seat = 0 if b1 == bot else 1
            mine, theirs = (int(s1), int(s2)) if seat == 0 else (int(s2), int(s1))
            out[(int(d), seat)] = mine - theirs
    return out

v, r = games(variant), games(reference)
keys = sorted(k for k in v if k in r)
diffs = [v[k] - r[k] for k in keys]
n = len(diffs)
mean = sum(diffs) / n
sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1)) if n > 1 else float('nan')
share = lambda g: sum(1 if g[k] > 0 else 0.5 if g[k] == 0 else 0 for k in keys) / n
print(f"{bot}: {n} games with a twin; margin moved {mean:+.1f} (±{1.96 * sd / math.sqrt(n):.1f}); "
      f"share {100 * share(v):.1f}% against {100 * share(r):.1f}%; mean margin {sum(v[k] for k in keys) / n:+.1f} against {sum(r[k] for k in keys) / n:+.1f}")
