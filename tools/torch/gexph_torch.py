#!/usr/bin/env python3
"""Load a gexph model exported with `gexph export` into an equivalent PyTorch module.

    gexph export -ckpt RUN/best.ckpt -out model.safetensors -with-batch batch.npz
    python3 tools/torch/gexph_torch.py model.safetensors batch.npz   # compares outputs

    import sys; sys.path.insert(0, "tools/torch")
    from gexph_torch import load_model, load_batch
    model = load_model("model.safetensors")      # a torch.nn.Module in eval mode
    out = model(load_batch("batch.npz"))          # [rows, outputs], as gexph's predict

Needs torch and numpy only (the safetensors file is read here; the safetensors package is
not needed). The names and layouts are mapped from GoMLX's to PyTorch's conventions
(see MAPPING and the README's "Exporting models to PyTorch"): a dense layer's
"X.dense.weights" [in, out] becomes the nn.Linear "X.weight" [out, in] (transposed) and
"X.dense.biases" its "X.bias"; the fused attention projection "qkv.dense.weights"
[D, 3D] becomes three bias-free nn.Linear q, k, v (its column blocks); batch norms'
scale/offset/mean/variance become nn.BatchNorm1d's weight/bias/running_mean/running_var
(eps 1e-5); layer norms' layer_normalization.gain/offset nn.LayerNorm's weight/bias; embedding tables keep
their layout (nn.Embedding.weight).

Covered: local model gcn or none; attention exphormer (both softmaxes, value
normalisation) or none; norm batch, layer or none; node features dense, sparse,
categorical or none; edge features dense, categorical or none; virtual nodes; mean, sum
or max pooling; MLP heads with or without batch norm or row L2 normalisation
(head_l2norm). Refused, with an UnsupportedModel error naming the field: other local
models (gatedgcn, gine, sage, gat), other attention (full, performer, bigbird),
positional encodings, pre-MP layers, per-layer attention graphs (sparse_attention_k),
mini-batched models (batch_nodes) and reference_virtual_nodes.
"""
import json
import math
import struct
import sys

import numpy as np
import torch
from torch import nn

# MAPPING describes how each gexph tensor name becomes a PyTorch parameter or buffer.
MAPPING = """\
gexph (GoMLX, safetensors)                 PyTorch (GexphModel.state_dict())
X.dense.weights [in, out]                  X.weight [out, in] (transposed)
X.dense.biases [out]                       X.bias
layer_L.attention.qkv.dense.weights [D,3D] layers.L.attention.{q,k,v}.weight, columns [0:D], [D:2D], [2D:3D], transposed
layer_L.attention.edge.dense.weights       layers.L.attention.edge.weight (transposed)
layer_L.local.linear.dense.weights         layers.L.local.linear.weight (transposed; gcn)
layer_L.local.bias                         layers.L.local.bias
layer_L.ffn.linear{1,2}.dense.*            layers.L.ffn.{0,2}.{weight,bias}
N.scale, N.offset, N.mean, N.variance      N.weight, N.bias, N.running_mean, N.running_var (BatchNorm1d, eps 1e-5)
N.layer_normalization.{gain,offset}       N.weight, N.bias (LayerNorm, eps 1e-5)
E.embeddings [rows, D]                     E.weight (nn.Embedding, same layout)
node_encoder.weights, node_encoder.biases  node_encoder.weight (transposed), node_encoder.bias (sparse features)
X.column_C.embeddings, X.biases            X.columns.C.weight, X.bias (categorical features)
head.hidden_I.dense.*, head.hidden_I.norm.* head.hidden.I.*, head.norms.I.*
head.output.dense.*                        head.output.*
"""

_DTYPES = {"F32": np.float32, "F64": np.float64, "F16": np.float16, "I64": np.int64,
           "I32": np.int32, "I16": np.int16, "I8": np.int8, "U8": np.uint8, "BOOL": np.bool_}


class UnsupportedModel(ValueError):
    """The exported model uses a configuration this module does not reproduce."""


def read_safetensors(path):
    """Returns ({name: numpy array}, metadata dict) of a safetensors file."""
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 8:
        raise ValueError(f"{path}: not a safetensors file (shorter than its header length)")
    (n,) = struct.unpack("<Q", raw[:8])
    if 8 + n > len(raw):
        raise ValueError(f"{path}: header of {n} bytes runs past the end of the file")
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {}) or {}
    body = raw[8 + n:]
    out = {}
    for name, t in header.items():
        if t["dtype"] not in _DTYPES:
            raise ValueError(f"{path}: tensor {name}: dtype {t['dtype']} not supported")
        lo, hi = t["data_offsets"]
        out[name] = np.frombuffer(body[lo:hi], dtype=_DTYPES[t["dtype"]]).reshape(t["shape"]).copy()
    return out, meta


def load_batch(path):
    """Reads a batch written by `gexph export -with-batch` into a dict of tensors."""
    with np.load(path) as z:
        out = {k: torch.from_numpy(z[k].copy()) for k in z.files}
    for k, v in out.items():
        if v.dtype == torch.int32:
            out[k] = v.long()
    return out


def _check_config(cfg):
    """Raises UnsupportedModel for the first setting this module does not reproduce."""
    checks = [
        ("block", cfg.get("block") or "gps", ("gps",)),
        ("mpnn", cfg.get("mpnn"), ("gcn", "none")),
        ("attention", cfg.get("attention"), ("exphormer", "none")),
        ("norm", cfg.get("norm"), ("batch", "layer", "none")),
        ("pe", cfg.get("pe", "none"), ("none",)),
        ("pre_mp_layers", cfg.get("pre_mp_layers", 0), (0,)),
        ("sparse_attention_k", cfg.get("sparse_attention_k", 0), (0,)),
        ("batch_nodes", cfg.get("batch_nodes", 0), (0,)),
        ("pooling", cfg.get("pooling", "mean"), ("mean", "sum", "max")),
        ("reference_virtual_nodes", cfg.get("reference_virtual_nodes", False), (False,)),
    ]
    for field, value, ok in checks:
        if value not in ok:
            raise UnsupportedModel(f"config field {field} = {value!r}: gexph_torch reproduces only {list(ok)}")


def _norm(kind, d):
    if kind == "batch":
        return nn.BatchNorm1d(d, eps=1e-5)
    if kind == "layer":
        return nn.LayerNorm(d, eps=1e-5)
    return nn.Identity()


class CategoricalEncoder(nn.Module):
    """Sum of one embedding per column of codes [R, C], plus a bias."""

    def __init__(self, cards, d):
        super().__init__()
        self.columns = nn.ModuleList(nn.Embedding(c, d) for c in cards)
        self.bias = nn.Parameter(torch.zeros(d))

    def forward(self, codes):
        out = self.bias.expand(codes.shape[0], -1)
        for c, emb in enumerate(self.columns):
            out = out + emb(codes[:, c])
        return out


class GCNConv(nn.Module):
    """gexph's gcn (PyG's GCNConv with self loops): D^-1/2 (A + I) D^-1/2 X W + b."""

    def __init__(self, d):
        super().__init__()
        self.linear = nn.Linear(d, d, bias=False)
        self.bias = nn.Parameter(torch.zeros(d))

    def forward(self, x, src, dst, in_degree=None):
        n = x.shape[0]
        xw = self.linear(x)
        if in_degree is None:
            deg = 1 + torch.zeros(n, dtype=x.dtype).index_add_(0, dst, torch.ones(dst.shape[0], dtype=x.dtype))
        else:
            deg = 1 + in_degree.to(x.dtype)
        dinv = deg.rsqrt()
        coef = (dinv[src] * dinv[dst]).unsqueeze(-1)
        agg = torch.zeros_like(xw).index_add_(0, dst, xw[src] * coef)
        return agg + xw / deg.unsqueeze(-1) + self.bias


class ExphormerAttention(nn.Module):
    """Exphormer's sparse attention over the interaction edges src → dst."""

    def __init__(self, d, heads, reference, normalize_values):
        super().__init__()
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d, bias=False)
        self.edge = nn.Linear(d, d, bias=False)
        self.heads, self.reference, self.normalize_values = heads, reference, normalize_values

    def forward(self, x, table, index, src, dst):
        n, d = x.shape
        h, dh = self.heads, d // self.heads
        e = src.shape[0]
        q = self.q(x) / math.sqrt(dh)
        k, v = self.k(x), self.v(x)
        if self.normalize_values:
            vh = v.view(n, h, dh)
            v = (vh / (vh.square().sum(-1, keepdim=True) + 1e-12).sqrt()).reshape(n, d)
        ep = self.edge(table)[index]
        score = (k[src] * (q[dst] * ep)).view(e, h, dh).sum(-1)
        idx = dst.unsqueeze(-1).expand(e, h)
        if self.reference:
            w = score.clamp(-5, 5).exp()
            den = torch.zeros(n, h, dtype=x.dtype).index_add_(0, dst, w) + 1e-6
        else:
            mx = torch.full((n, h), -math.inf, dtype=x.dtype).scatter_reduce(0, idx, score, "amax", include_self=True)
            w = (score - mx[dst]).exp()
            den = torch.zeros(n, h, dtype=x.dtype).index_add_(0, dst, w)
            den = den + (den == 0).to(x.dtype)
        alpha = w / den[dst]
        msg = v[src].view(e, h, dh) * alpha.unsqueeze(-1)
        return torch.zeros(n, h, dh, dtype=x.dtype).index_add_(0, dst, msg).reshape(n, d)


class GPSLayer(nn.Module):
    """A GPS layer: local model and attention, each with residual and norm, summed, then a
    residual feed-forward block (width 2D, ReLU) and a norm."""

    def __init__(self, cfg, d):
        super().__init__()
        self.local = GCNConv(d) if cfg["mpnn"] == "gcn" else None
        self.attention = None
        if cfg["attention"] == "exphormer":
            self.attention = ExphormerAttention(d, cfg["heads"], cfg.get("reference_attention", False),
                                                cfg.get("normalize_values", False))
        self.norm_local = _norm(cfg["norm"], d) if self.local is not None else None
        self.norm_attention = _norm(cfg["norm"], d) if self.attention is not None else None
        self.ffn = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.norm_ffn = _norm(cfg["norm"], d)

    def forward(self, h, b, table, index):
        parts = []
        if self.local is not None:
            parts.append(self.norm_local(h + self.local(h, b["src"], b["dst"], b.get("in_degree"))))
        if self.attention is not None:
            parts.append(self.norm_attention(h + self.attention(h, table, index, b["h_src"], b["h_dst"])))
        s = sum(parts) if parts else h
        return self.norm_ffn(s + self.ffn(s))


class Head(nn.Module):
    """GraphGPS's MLP head: hidden linear maps (bias-free with batch norm) with ReLU (then
    each row L2-normalised with head_l2norm), then the output map."""

    def __init__(self, d, out_dim, layers, norm, l2=False):
        super().__init__()
        self.hidden = nn.ModuleList(nn.Linear(d, d, bias=not norm) for _ in range(layers - 1))
        self.norms = nn.ModuleList(nn.BatchNorm1d(d, eps=1e-5) for _ in range(layers - 1)) if norm else None
        self.output = nn.Linear(d, out_dim)
        self.l2 = l2

    def forward(self, x):
        for i, lin in enumerate(self.hidden):
            x = lin(x)
            if self.norms is not None:
                x = self.norms[i](x)
            x = torch.relu(x)
            if self.l2:
                x = torch.nn.functional.normalize(x, p=2, dim=1)
        return self.output(x)


def _encoder(tensors, prefix, d):
    """Builds the node or edge encoder the exported tensors under prefix describe, and
    says what it reads: "dense", "sparse", "categorical" (with one column: "table") or
    "none"."""
    if prefix + ".dense.weights" in tensors:
        return nn.Linear(tensors[prefix + ".dense.weights"].shape[0], d), "dense"
    if prefix + ".weights" in tensors:
        return nn.Linear(tensors[prefix + ".weights"].shape[0], d), "sparse"
    cards = []
    while f"{prefix}.column_{len(cards)}.embeddings" in tensors:
        cards.append(tensors[f"{prefix}.column_{len(cards)}.embeddings"].shape[0])
    if cards:
        return CategoricalEncoder(cards, d), "categorical"
    if prefix + ".embeddings" in tensors:
        return nn.Embedding(1, d), "none"
    return None, None


class GexphModel(nn.Module):
    """The PyTorch equivalent of an exported gexph model (see the module documentation)."""

    def __init__(self, cfg, tensors, out_dim):
        super().__init__()
        _check_config(cfg)
        self.cfg, d = cfg, cfg["hidden_dim"]
        self.node_encoder, self.node_kind = _encoder(tensors, "node_encoder", d)
        self.edge_encoder, self.edge_kind = _encoder(tensors, "edge_encoder", d)
        inter = tensors.get("interaction_edges.embeddings")
        self.interaction_edges = nn.Embedding(inter.shape[0], d) if inter is not None else None
        virt = tensors.get("virtual_nodes.embeddings")
        self.virtual_nodes = nn.Embedding(virt.shape[0], d) if virt is not None else None
        self.layers = nn.ModuleList(GPSLayer(cfg, d) for _ in range(cfg["layers"]))
        self.head = Head(d, out_dim, cfg["head_layers"], cfg.get("head_norm", False), cfg.get("head_l2norm", False))

    def _nodes(self, b):
        n = b["node_mask"].shape[0]
        if self.node_kind == "dense" or (self.node_kind == "sparse" and "x" in b):
            return self.node_encoder(b["x"].float())
        if self.node_kind == "sparse":
            w = self.node_encoder.weight.t()
            rows = w[b["x_col"]] * b["x_val"].unsqueeze(-1)
            return torch.zeros(n, w.shape[1]).index_add_(0, b["x_row"], rows) + self.node_encoder.bias
        if self.node_kind == "categorical":
            return self.node_encoder(b["x_cat"])
        return self.node_encoder.weight.expand(n, -1)

    def _attention_edges(self, b):
        """The attention's edge table and each interaction edge's row in it."""
        source = b["h_source"]
        types = self.interaction_edges.weight
        if self.edge_encoder is None:
            return types, -(source + 1)
        e = b["src"].shape[0]
        local_index = None
        if self.edge_kind == "dense":
            local = self.edge_encoder(b["e"].float())
        elif self.edge_kind == "categorical" and len(self.edge_encoder.columns) == 1:
            local = self.edge_encoder.columns[0].weight + self.edge_encoder.bias
            local_index = b["e_cat"].reshape(e)
        elif self.edge_kind == "categorical":
            local = self.edge_encoder(b["e_cat"])
        else:
            local, local_index = self.edge_encoder.weight, torch.zeros(e, dtype=torch.long)
        idx = source
        if local_index is not None and local_index.shape[0] > 0:
            idx = local_index[source.clamp(min=0)]
        return torch.cat([local, types]), torch.where(source >= 0, idx, local.shape[0] - 1 - source)

    def forward(self, b):
        """Returns the outputs [rows, outputs] of batch b (load_batch) for its real rows."""
        h = self._nodes(b)
        n, gp = h.shape[0], b["graph_mask"].shape[0]
        table = index = None
        if self.interaction_edges is not None:
            table, index = self._attention_edges(b)
        if self.virtual_nodes is not None:
            h = torch.cat([h, self.virtual_nodes.weight.repeat(gp, 1)])
        for layer in self.layers:
            h = layer(h, b, table, index)
        h = h[:n]
        if not bool(b["node_level"]):
            h = _pool(h, b["graph_id"], b["node_mask"], gp, self.cfg.get("pooling", "mean"))
        return self.head(h)[:b["outputs"].shape[0]] if "outputs" in b else self.head(h)


def _pool(x, graph_id, mask, num_graphs, mode):
    """gexph's GraphPool: mean, sum or maximum of each graph's real nodes (0 if none)."""
    w = mask.to(x.dtype)
    count = torch.zeros(num_graphs, dtype=x.dtype).index_add_(0, graph_id, w)
    if mode == "max":
        vals = torch.where(w.unsqueeze(-1) > 0, x, torch.full_like(x, -math.inf))
        idx = graph_id.unsqueeze(-1).expand_as(x)
        mx = torch.full((num_graphs, x.shape[1]), -math.inf, dtype=x.dtype).scatter_reduce(0, idx, vals, "amax")
        return torch.where(count.unsqueeze(-1) > 0, mx, torch.zeros_like(mx))
    s = torch.zeros(num_graphs, x.shape[1], dtype=x.dtype).index_add_(0, graph_id, x * w.unsqueeze(-1))
    return s if mode == "sum" else s / count.clamp(min=1).unsqueeze(-1)


def _torch_name(name):
    """Maps a gexph tensor name to (PyTorch name, transform) per MAPPING."""
    n = name.replace(".dense.weights", ".weight").replace(".dense.biases", ".bias")
    n = n.replace(".layer_normalization.", ".")
    for old, new in ((".scale", ".weight"), (".offset", ".bias"), (".mean", ".running_mean"),
                     (".variance", ".running_var"), (".gain", ".weight"), (".embeddings", ".weight")):
        if n.endswith(old):
            n = n[: -len(old)] + new
    if n.startswith("layer_"):
        layer, rest = n[len("layer_"):].split(".", 1)
        n = f"layers.{layer}." + rest.replace("ffn.linear1.", "ffn.0.").replace("ffn.linear2.", "ffn.2.")
    n = n.replace(".column_", ".columns.").replace("head.hidden_", "head.hidden.")
    if n.startswith("head.hidden.") and ".norm." in n:
        i, rest = n[len("head.hidden."):].split(".norm.", 1)
        n = f"head.norms.{i}.{rest}"
    if n in ("node_encoder.weights", "edge_encoder.weights"):
        n = n[:-1]
    elif n in ("node_encoder.biases", "edge_encoder.biases"):
        n = n[: -len("biases")] + "bias"
    transpose = name.endswith(".weights") and not name.endswith("embeddings")
    return n, transpose


def torch_state_dict(tensors, d):
    """Converts gexph's exported tensors to the state dict of GexphModel."""
    out = {}
    for name, value in tensors.items():
        t = torch.from_numpy(value)
        if name.endswith("attention.qkv.dense.weights"):
            base = name[: -len("qkv.dense.weights")]
            for i, part in enumerate("qkv"):
                tn, _ = _torch_name(base + part + ".dense.weights")
                out[tn] = t[:, i * d:(i + 1) * d].t().contiguous()
            continue
        tn, transpose = _torch_name(name)
        out[tn] = t.t().contiguous() if transpose else t
    return out


def load_model(path):
    """Loads an exported gexph model (gexph export -out FILE) as a GexphModel in eval mode.
    Every tensor of the file must find its place and every parameter a tensor."""
    tensors, meta = read_safetensors(path)
    if meta.get("source") != "gexph" or "config" not in meta:
        raise ValueError(f"{path}: not a gexph export (metadata source={meta.get('source')!r})")
    cfg = json.loads(meta["config"])
    out = tensors.get("head.output.dense.weights")
    if out is None:
        raise UnsupportedModel(f"{path}: no head.output.dense.weights tensor")
    model = GexphModel(cfg, tensors, out.shape[1])
    state = torch_state_dict(tensors, cfg["hidden_dim"])
    own = model.state_dict()
    extra = sorted(set(state) - set(own))
    missing = sorted(k for k in set(own) - set(state) if not k.endswith("num_batches_tracked"))
    if extra or missing:
        raise UnsupportedModel(f"{path}: tensors without a place in the PyTorch model: {extra}; "
                               f"parameters without a tensor: {missing}")
    for k, v in own.items():
        if k in state and tuple(state[k].shape) != tuple(v.shape):
            raise ValueError(f"{path}: {k}: shape {tuple(state[k].shape)}, the model wants {tuple(v.shape)}")
    model.load_state_dict(state, strict=False)
    return model.eval()


def main(argv):
    if len(argv) != 3:
        print("usage: gexph_torch.py MODEL.safetensors BATCH.npz", file=sys.stderr)
        return 2
    model = load_model(argv[1])
    batch = load_batch(argv[2])
    with torch.no_grad():
        got = model(batch)
    want = batch["outputs"]
    diff = (got - want).abs().max().item() if want.numel() else 0.0
    scale = max(1.0, want.abs().max().item() if want.numel() else 0.0)
    print(json.dumps({"rows": int(want.shape[0]), "outputs": int(want.shape[1]),
                      "max_abs_diff": diff, "max_rel_diff": diff / scale}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
