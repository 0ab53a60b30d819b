# What `npm run arena -- --pool FILES` does not print, for one bot (argv[1]) over the game lines of
# arena-style files (argv[2:]): the mean margin paired by deal (whole deals only: both seats played)
# with its 95% half-width, and the bot's points by seat. The share, its interval and the plain mean
# margin come from the pool.
import collections, math, re, sys

bot = sys.argv[1]
deals = collections.defaultdict(list)
for name in sys.argv[2:]:
    for line in open(name):
        m = re.match(r"deal (\d+): (\S+) (-?\d+) \| (\S+) (-?\d+)", line)
        if m:
            d, b1, s1, b2, s2 = m.groups()
            deals[(name, int(d))].append((b1, int(s1), int(s2)))
margins, seats = [], [[0.0, 0], [0.0, 0]]
for games in deals.values():
    if len(games) < 2:
        continue
    total = 0
    for first, s1, s2 in games:
        mine, theirs, seat = (s1, s2, 0) if first == bot else (s2, s1, 1)
        seats[seat][0] += 1 if mine > theirs else 0.5 if mine == theirs else 0
        seats[seat][1] += 1
        total += mine - theirs
    margins.append(total / 2)
mean = sum(margins) / len(margins)
sd = math.sqrt(sum((x - mean) ** 2 for x in margins) / (len(margins) - 1))
print(f"{bot}: {len(margins)} whole deals, margin {mean:+.1f} (±{1.96 * sd / math.sqrt(len(margins)):.1f} paired by deal); "
      f"first seat {seats[0][0]}/{seats[0][1]}, second {seats[1][0]}/{seats[1][1]}")
