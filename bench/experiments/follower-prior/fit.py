import numpy as np, sys, json
B = 12
def load(files):
    d = np.concatenate([np.loadtxt(f, delimiter=',') for f in files])
    return d
d = load(sys.argv[1:])
gid = d[:,0]; f = d[:,1:1+2*B]; left = d[:,1+2*B]; mover = d[:,2+2*B]; proj = d[:,3+2*B]; ms = d[:,4+2*B:]
y = ms.mean(1)
print('rows', len(d), 'target sd', y.std(), 'continuation noise sd', (ms[:,0]-ms[:,1]).std()/np.sqrt(2))
f0, f1 = f[:,:B], f[:,B:]
def lin_inputs(a, b, left, t):
    dd = a - b
    return np.hstack([dd, dd*left[:,None], t[:,None], (t*left)[:,None]])
t0 = np.where(mover==0, 1.0, -1.0)
X = lin_inputs(f0, f1, left, t0)
test = (gid % 5 == 0)
# augmentation is automatic: the linear model is antisymmetric (no bias), so swapping gives the same equations.
w, *_ = np.linalg.lstsq(X[~test], y[~test], rcond=None)
def rep(name, pred):
    e = pred[test] - y[test]
    sign = np.mean(np.sign(pred[test]) == np.sign(y[test]))
    # against a single continuation too
    e1 = pred[test] - ms[test,0]
    print(f'{name:28s} mse {np.mean(e**2):7.2f}  mse(single) {np.mean(e1**2):7.2f}  sign {sign:.3f}  bias {e.mean():+.2f}')
rep('projection', proj)
rep('level 5 (proj + 2 L supply)', proj + 2*left*(f0[:,2]-f1[:,2]))
rep('zero', np.zeros_like(y))
rep('linear', X @ w)
names = ['score','fields','supply','city1','city2','city3','road1','road2','cl.count','cl.filled','farmers','busy']
for k in range(B): print(f'{names[k]:10s} {w[k]:+.3f} {w[B+k]:+.3f}  (at L=1: {w[k]+w[B+k]:+.3f})')
print('mover', w[2*B], w[2*B+1])
# by phase
for lo, hi in [(0,0.25),(0.25,0.5),(0.5,0.75),(0.75,1.01)]:
    m = test & (left>=lo) & (left<hi)
    for name, pred in [('L5', proj + 2*left*(f0[:,2]-f1[:,2])), ('lin', X@w)]:
        print(f'  left [{lo},{hi}) {name}: mse {np.mean((pred[m]-y[m])**2):.1f} n={m.sum()}')
json.dump({'kind':'linear','w':[round(float(v),5) for v in w]}, open('lin.json','w'))
