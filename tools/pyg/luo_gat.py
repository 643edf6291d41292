# Luo et al.'s MPNNs (LUOyk1999/tunedGNN medium_graph/model.py and main.py at 23f9604) on
# Amazon Computers, for a side-by-side check of gexph's computers-plus preset: GAT, 2 layers
# of 64, LayerNorm, dropout 0.5, Adam lr 1e-3 wd 5e-5, 1000 full-graph epochs, test at the
# best validation epoch (docs/REFERENCE.md, "Measured: computers-plus").
#
#   python3 luo_gat.py luo|random SEED [THREADS [COMPUTERS_ZIP [SPLIT_NPZ]]]
#
# luo: their split file (medium_graph/data/amazon-computer_split.npz); random: a 60/20/20
# permutation by SEED. Runs with PyTorch and PyTorch Geometric (the reference staged by
# ../shared/peers/stage.sh: PYTHONPATH=$HOME/exphormer-ref/deps/site /usr/bin/python3).
import sys, io, zipfile, time, numpy as np, torch, torch.nn.functional as F
from torch_geometric.nn import GATConv
from torch_geometric.utils import to_undirected, remove_self_loops, add_self_loops
import scipy.sparse as sp
torch.set_num_threads(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
split_kind, seed = sys.argv[1], int(sys.argv[2])
z = zipfile.ZipFile(sys.argv[4] if len(sys.argv) > 4 else '../shared/data/gnn-benchmark/amazon-computers.zip')
d = np.load(io.BytesIO(z.read('amazon_electronics_computers.npz')), allow_pickle=True)
x = sp.csr_matrix((d['attr_data'], d['attr_indices'], d['attr_indptr']), d['attr_shape']).todense()
x = torch.tensor(x, dtype=torch.float); x[x > 0] = 1
x = x / x.sum(1, keepdim=True).clamp(min=1)          # T.NormalizeFeatures
adj = sp.csr_matrix((d['adj_data'], d['adj_indices'], d['adj_indptr']), d['adj_shape']).tocoo()
ei = torch.tensor(np.vstack([adj.row, adj.col]), dtype=torch.long)
ei = to_undirected(ei); ei, _ = remove_self_loops(ei)   # PyG's read_npz
n = x.shape[0]
ei = to_undirected(ei); ei, _ = remove_self_loops(ei); ei, _ = add_self_loops(ei, num_nodes=n)  # main.py:63-65
y = torch.tensor(d['labels'], dtype=torch.long)
if split_kind == 'luo':
    s = np.load(sys.argv[5] if len(sys.argv) > 5 else 'amazon-computer_split.npz'); tr, va, te = (torch.from_numpy(s[k]) for k in ('train', 'valid', 'test'))
else:
    p = np.random.RandomState(seed).permutation(n); a, b = int(0.6 * n), int(0.8 * n)
    tr, va, te = torch.from_numpy(p[:a]), torch.from_numpy(p[a:b]), torch.from_numpy(p[b:])
torch.manual_seed(seed)
class MPNN(torch.nn.Module):
    def __init__(s, i, h, o, L=2, dp=0.5):
        super().__init__(); s.dp = dp
        s.convs = torch.nn.ModuleList([GATConv(i if l == 0 else h, h, heads=1, concat=True, add_self_loops=False, bias=False) for l in range(L)])
        s.lns = torch.nn.ModuleList([torch.nn.LayerNorm(h) for _ in range(L)])
        s.pred = torch.nn.Linear(h, o)
    def forward(s, x, ei):
        for c, ln in zip(s.convs, s.lns):
            x = F.dropout(F.relu(ln(c(x, ei))), p=s.dp, training=s.training)
        return s.pred(x)
m = MPNN(x.shape[1], 64, int(y.max()) + 1)
opt = torch.optim.Adam(m.parameters(), lr=1e-3, weight_decay=5e-5)
best_val, best_test, t0 = -1, -1, time.time()
for ep in range(1000):
    m.train(); opt.zero_grad()
    loss = F.nll_loss(F.log_softmax(m(x, ei), 1)[tr], y[tr]); loss.backward(); opt.step()
    m.eval()
    with torch.no_grad():
        pr = m(x, ei).argmax(1)
    acc = lambda idx: (pr[idx] == y[idx]).float().mean().item()
    v = acc(va)
    if v > best_val: best_val, best_test = v, acc(te)
    if ep % 100 == 99: print(f'epoch {ep+1} loss {loss.item():.4f} val {v:.4f} best val {best_val:.4f} test {best_test:.4f} {time.time()-t0:.0f}s', flush=True)
print(f'RESULT split={split_kind} seed={seed} best_val={best_val:.4f} test={best_test:.4f}')
