# Share and paired margin of one bot (argv[1]) over the game lines of arena-style files (argv[2:]): whole deals only (both seats played), Wilson 95% interval, mean margin paired by deal with its 95% half-width, and the share by seat.
import re, sys, math, collections
games=collections.defaultdict(list)
A=sys.argv[1]
for f in sys.argv[2:]:
    for line in open(f):
        m=re.match(r'deal (\d+): (\S+) (-?\d+) \| (\S+) (-?\d+)',line)
        if not m: continue
        d,b1,s1,b2,s2=m.groups(); games[(f,int(d))].append((b1,int(s1),b2,int(s2)))
w=n=0; margins=[]; seat=[[0,0],[0,0]]
for k,gs in games.items():
    if len(gs)<2: continue
    dm=0
    for b1,s1,b2,s2 in gs:
        me,op,pos=(s1,s2,0) if b1==A else (s2,s1,1)
        r=1 if me>op else 0.5 if me==op else 0
        w+=r;n+=1;dm+=me-op;seat[pos][0]+=r;seat[pos][1]+=1
    margins.append(dm/2)
p=w/n;z=1.96
c=(p+z*z/2/n)/(1+z*z/n);h=z*math.sqrt(p*(1-p)/n+z*z/4/n/n)/(1+z*z/n)
mm=sum(margins)/len(margins);sd=math.sqrt(sum((x-mm)**2 for x in margins)/(len(margins)-1))
print(f"{A}: {w} of {n} = {100*p:.1f}% [{100*(c-h):.1f}, {100*(c+h):.1f}], margin {mm:+.1f} (±{1.96*sd/math.sqrt(len(margins)):.1f} paired by deal); seat1 {seat[0][0]}/{seat[0][1]} seat2 {seat[1][0]}/{seat[1][1]}")
