"""The Exphormer attention layer in plain PyTorch (no PyG), timed for one training step.

The same layer as gexph's `bench -case attention` (Q, K, V and edge projections, scores
K_src * Q_dst * E summed per head, clamped to [-5, 5], exp, weighted sum of V over the
incoming edges, a linear head; Adam), on a random graph of N nodes and E edges. It
comes from the measuring kit beside the project (peers/torch_attention_step.py) with a
--device flag (CUDA timings synchronise before reading the clock) and --json output, so
that tools/gpu/check.sh times both on the same GPU.
"""
import argparse
import json
import math
import resource
import time

import torch

p = argparse.ArgumentParser()
p.add_argument("--n", type=int, default=10000)
p.add_argument("--e", type=int, default=120000)
p.add_argument("--d", type=int, default=64)
p.add_argument("--heads", type=int, default=4)
p.add_argument("--steps", type=int, default=15)
p.add_argument("--warmup", type=int, default=3)
p.add_argument("--threads", type=int, default=2)
p.add_argument("--device", default="cpu")
p.add_argument("--json", action="store_true", help="print one JSON object at the end")
a = p.parse_args()
torch.set_num_threads(a.threads)
torch.manual_seed(0)
dev = torch.device(a.device)


def sync():
    if dev.type == "cuda":
        torch.cuda.synchronize()


class EdgeAttention(torch.nn.Module):
    def __init__(s, d, h):
        super().__init__()
        s.h, s.dh = h, d // h
        s.q, s.k, s.v, s.e = (torch.nn.Linear(d, d, bias=False) for _ in range(4))
        s.head = torch.nn.Linear(d, 1)

    def forward(s, x, src, dst, ef):
        n, d = x.shape
        Q, K, V = (m(x).view(n, s.h, s.dh) for m in (s.q, s.k, s.v))
        Ep = s.e(ef).view(-1, s.h, s.dh)
        score = (K.index_select(0, src) * Q.index_select(0, dst) * Ep).sum(-1) / math.sqrt(s.dh)
        w = torch.exp(score.clamp(-5, 5))  # [E,H]
        num = torch.zeros(n, s.h, s.dh, device=x.device).index_add_(0, dst, V.index_select(0, src) * w.unsqueeze(-1))
        den = torch.zeros(n, s.h, device=x.device).index_add_(0, dst, w)
        out = (num / (den.unsqueeze(-1) + 1e-6)).reshape(n, d)
        return s.head(out)


n, e, d = a.n, a.e, a.d
x = torch.randn(n, d, device=dev)
ef = torch.randn(e, d, device=dev)
src = torch.randint(0, n, (e,), device=dev)
dst = torch.randint(0, n, (e,), device=dev)
deg = torch.zeros(n, device=dev).index_add_(0, dst, torch.ones(e, device=dev)).clamp(min=1)
y = (torch.zeros(n, device=dev).index_add_(0, dst, x[src, 0] * x[src, 1]) / deg).unsqueeze(-1)
m = EdgeAttention(d, a.heads).to(dev)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
if dev.type == "cuda":
    torch.cuda.reset_peak_memory_stats()
ts, loss = [], None
for i in range(a.warmup + a.steps):
    sync()
    t = time.perf_counter()
    opt.zero_grad(set_to_none=True)
    loss = ((m(x, src, dst, ef) - y) ** 2).mean()
    loss.backward()
    opt.step()
    sync()
    if i >= a.warmup:
        ts.append(time.perf_counter() - t)
ts.sort()
med = ts[len(ts) // 2]
res = {
    "torch": torch.__version__, "device": str(dev),
    "device_name": torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu",
    "n": n, "e": e, "d": d, "heads": a.heads,
    "ms_per_step": med * 1e3, "min_ms": ts[0] * 1e3, "loss": float(loss),
    "peak_device_mib": torch.cuda.max_memory_allocated(dev) / 2**20 if dev.type == "cuda" else None,
    "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}
if a.json:
    print(json.dumps(res))
else:
    print(f"RESULT torch {dev} N={n} E={e}: median {res['ms_per_step']:.2f} ms/step  min {res['min_ms']:.2f} ms")
