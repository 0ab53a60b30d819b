import numpy as np, sys, json, time
B = 12
H = int(sys.argv[1]); files = sys.argv[2:]
d = np.concatenate([np.loadtxt(f, delimiter=',') for f in files])
gid = d[:,0]; f = d[:,1:1+2*B]; left = d[:,1+2*B]; mover = d[:,2+2*B]; proj = d[:,3+2*B]; ms = d[:,4+2*B:]
y = ms.mean(1)
f0, f1 = f[:,:B], f[:,B:]
XA = np.hstack([f0, f1, left[:,None], (mover==0)[:,None].astype(float)])
XB = np.hstack([f1, f0, left[:,None], (mover==1)[:,None].astype(float)])
test = (gid % 5 == 0)
mean = np.concatenate([XA[~test], XB[~test]]).mean(0); scale = np.concatenate([XA[~test], XB[~test]]).std(0) + 1e-6
XA = (XA-mean)/scale; XB = (XB-mean)/scale
rng = np.random.default_rng(0)
n_in = XA.shape[1]
sizes = [n_in, H, H, 1]
P = []
for a, b in zip(sizes[:-1], sizes[1:]):
    P.append([rng.normal(0, np.sqrt(2/a), (b, a)), np.zeros(b)])
def fwd(X):
    acts = [X]; h = X
    for l, (W, b) in enumerate(P):
        z = h @ W.T + b
        h = np.maximum(z, 0) if l < len(P)-1 else z
        acts.append(h)
    return acts
def back(acts, g):
    grads = []
    for l in range(len(P)-1, -1, -1):
        W, b = P[l]
        h_in = acts[l]
        grads.append((g.T @ h_in, g.sum(0)))
        if l > 0:
            g = (g @ W) * (acts[l] > 0)
    return grads[::-1]
m = [[np.zeros_like(W), np.zeros_like(b)] for W, b in P]; v = [[np.zeros_like(W), np.zeros_like(b)] for W, b in P]
lr = 1e-3; t = 0
tr = np.where(~test)[0]
def predict(XA, XB):
    return (fwd(XA)[-1][:,0] - fwd(XB)[-1][:,0]) / 2
base = proj + 2*left*(f0[:,2]-f1[:,2])
print('L5 test mse', np.mean((base[test]-y[test])**2))
for ep in range(int(12)):
    rng.shuffle(tr)
    if ep == 8: lr = 3e-4
    for i in range(0, len(tr), 512):
        idx = tr[i:i+512]
        aA = fwd(XA[idx]); aB = fwd(XB[idx])
        pred = (aA[-1][:,0] - aB[-1][:,0]) / 2
        g = (pred - y[idx])[:,None] / len(idx)  # d(mse/2)
        gA = back(aA, g/2); gB = back(aB, -g/2)
        t += 1
        for l in range(len(P)):
            for k in range(2):
                gr = gA[l][k] + gB[l][k]
                m[l][k] = 0.9*m[l][k] + 0.1*gr; v[l][k] = 0.999*v[l][k] + 0.001*gr*gr
                P[l][k] -= lr * (m[l][k]/(1-0.9**t)) / (np.sqrt(v[l][k]/(1-0.999**t)) + 1e-8)
    pt = predict(XA[test], XB[test])
    print(ep, 'test mse', round(float(np.mean((pt-y[test])**2)),2), 'train mse', round(float(np.mean((predict(XA[tr[:20000]],XB[tr[:20000]])-y[tr[:20000]])**2)),2), flush=True)
json.dump({'kind':'mlp','w':[], 'mlp':{'sizes':sizes,'layers':[{'W':[round(float(x),6) for x in W.ravel()],'b':[round(float(x),6) for x in b]} for W,b in P],'mean':[float(x) for x in mean],'scale':[float(x) for x in scale]}}, open(f'mlp{H}.json','w'))
