#!/usr/bin/env python3
"""Run the Exphormer paper's own model on a batch gexph exported, with gexph's weights.

A measuring tool, not part of gexph: it builds the reference implementation's model
(staged by ../shared/peers/stage.sh, unmodified; GraphGym's MultiModel from its config,
e.g. configs/Exphormer/pattern.yaml, with the sizes of the gexph model), loads the
weights of a gexph export into it, runs it in inference mode on the exported batch and
compares its outputs with gexph's. Run it with the staged environment:

    gexph export -ckpt RUN/best.ckpt -out model.safetensors -with-batch batch.npz
    . ~/exphormer-ref/ref_env.sh
    python3 tools/pyg/ref_model_compare.py model.safetensors batch.npz \\
        [--cfg configs/Exphormer/pattern.yaml]

Covered: the graph-level presets' model on categorical node features (PATTERN,
CLUSTER): CustomGatedGCN+Exphormer, batch norm, EquivStableLapPE, no edge features
(DummyEdge), expander and virtual nodes, the inductive_node head. The gexph config must
ask for what the reference computes (reference_attention, head_l2norm,
reference_virtual_nodes where there are virtual nodes); others are refused, naming the
field. The batch's expander edges are given to the reference as its expander_edges
(gexph draws its own); the virtual-node edges the reference builds itself.

Prints one JSON object: rows, max_abs_diff, max_rel_diff (over gexph's largest output).
"""
import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "torch"))
from gexph_torch import read_safetensors  # noqa: E402

REF = os.environ.get("EXPHORMER_REF", os.path.expanduser("~/exphormer-ref"))


class Refused(Exception):
    pass


def check_config(cfg, virt):
    want = [("mpnn", "gatedgcn"), ("attention", "exphormer"), ("norm", "batch"), ("pe", "eslappe"),
            ("reference_attention", True), ("head_l2norm", True), ("pre_mp_layers", 0),
            ("dropout", 0.0), ("local_edges", True), ("expander_edges", True)]
    if virt:
        want.append(("reference_virtual_nodes", True))
    for k, v in want:
        got = cfg.get(k, 0 if k == "pre_mp_layers" else None)
        if got != v:
            raise Refused(f"config field {k} = {got!r}: the reference computes {k} = {v!r}")


def reference_model(cfg_file, c, virt):
    import torch
    os.chdir(REF)
    sys.path.insert(0, REF)
    import graphgps  # noqa: F401  (registers the reference's modules)
    from torch_geometric.graphgym.config import cfg, set_cfg, load_cfg
    from torch_geometric.graphgym.model_builder import create_model
    set_cfg(cfg)
    d = c["hidden_dim"]
    opts = ["wandb.use", "False", "device", "cpu", "prep.num_virt_node", str(virt),
            "gt.layers", str(c["layers"]), "gt.n_heads", str(c["heads"]), "gt.dim_hidden", str(d),
            "gnn.dim_inner", str(d), "gnn.layers_post_mp", str(c["head_layers"]),
            "posenc_EquivStableLapPE.eigen.max_freqs", str(c["pe_size"])]
    load_cfg(cfg, argparse.Namespace(cfg_file=cfg_file, opts=opts))
    return torch, create_model


def state_dict(W, layers, d, virt, head_layers):
    """gexph's tensors under the reference's parameter names (torch layouts)."""
    import torch
    W = {k: torch.as_tensor(v).float() for k, v in W.items()}
    sd = {}

    def lin(tp, gp, bias=True):
        sd[tp + ".weight"] = W[gp + ".dense.weights"].t()
        if bias:
            sd[tp + ".bias"] = W[gp + ".dense.biases"]

    def bn(tp, gp):
        for a, b in (("weight", "scale"), ("bias", "offset"), ("running_mean", "mean"), ("running_var", "variance")):
            sd[f"{tp}.{a}"] = W[f"{gp}.{b}"]

    if "node_encoder.column_1.embeddings" in W or "node_encoder.column_0.embeddings" not in W:
        raise Refused("node features: the reference's LinearNode is covered for one categorical column only")
    sd["encoder.node_encoder.encoder1.encoder.weight"] = W["node_encoder.column_0.embeddings"].t()
    sd["encoder.node_encoder.encoder1.encoder.bias"] = W["node_encoder.biases"]
    lin("encoder.node_encoder.encoder2.linear_encoder_eigenvec", "pe_encoder.linear")
    if W["edge_encoder.embeddings"].shape[0] != 1:
        raise Refused("edge features: the reference's DummyEdge is covered, one learned edge embedding")
    sd["encoder.edge_encoder.encoder.weight"] = W["edge_encoder.embeddings"]
    types = W["interaction_edges.embeddings"]  # expander, then (in, out) per virtual node
    sd["encoder.exp_edge_fixer.exp_edge_attr.weight"] = types[0:1]
    if virt:
        sd["encoder.exp_edge_fixer.virt_node_emb.weight"] = W["virtual_nodes.embeddings"]
        sd["encoder.exp_edge_fixer.virt_edge_in_emb.weight"] = types[1::2]
        sd["encoder.exp_edge_fixer.virt_edge_out_emb.weight"] = types[2::2]
    for l in range(layers):
        p, g = f"layers.{l}", f"layer_{l}"
        loc = f"{p}.models.0.local_model"
        w, b = W[g + ".local.ABDE.dense.weights"], W[g + ".local.ABDE.dense.biases"]
        for i, n in enumerate("ABDE"):
            sd[f"{loc}.{n}.weight"], sd[f"{loc}.{n}.bias"] = w[:, i * d:(i + 1) * d].t(), b[i * d:(i + 1) * d]
        lin(loc + ".C", g + ".local.C")
        lin(loc + ".mlp_r_ij.0", g + ".local.pe_gate.linear1")
        lin(loc + ".mlp_r_ij.2", g + ".local.pe_gate.linear2")
        bn(loc + ".bn_node_x", g + ".local.bn_node")
        bn(loc + ".bn_edge_e", g + ".local.bn_edge")
        bn(f"{p}.models.0.norm1_local", g + ".norm_local")
        qkv = W[g + ".attention.qkv.dense.weights"]
        for i, n in enumerate("QKV"):
            sd[f"{p}.models.1.self_attn.{n}.weight"] = qkv[:, i * d:(i + 1) * d].t()
        sd[f"{p}.models.1.self_attn.E.weight"] = W[g + ".attention.edge.dense.weights"].t()
        bn(f"{p}.models.1.norm1_attn", g + ".norm_attention")
        lin(f"{p}.ff_linear1", g + ".ffn.linear1")
        lin(f"{p}.ff_linear2", g + ".ffn.linear2")
        bn(f"{p}.norm2", g + ".norm_ffn")
    for i in range(head_layers - 1):
        lin(f"post_mp.layer_post_mp.model.0.Layer_{i}.layer.model", f"head.hidden_{i}")
    lin("post_mp.layer_post_mp.model.1.model" if head_layers > 1 else "post_mp.layer_post_mp.model.0.model", "head.output")
    return sd


def graphs(Z, card):
    """The exported batch as PyG Data objects, one per graph: one-hot x, local edges,
    expander edges (learned type 0, h_source −1) and the masked eigenvectors."""
    import torch
    from torch_geometric.data import Data
    gid, real = Z["graph_id"], Z["node_mask"] > 0
    n_real = int(real.sum())
    src, dst, em = Z["src"], Z["dst"], Z["edge_mask"] > 0
    hs, hd, code = Z["h_src"], Z["h_dst"], Z["h_source"]
    pe = Z["pe_vec"] * Z["pe_mask"]
    out = []
    for g in range(int(Z["graph_mask"].sum())):
        rows = np.flatnonzero((gid == g) & real)
        s0, n = int(rows[0]), len(rows)
        inside = lambda a: (a >= s0) & (a < s0 + n)  # noqa: E731
        sel = em & inside(src)
        hsel = (code == -1) & inside(hs) & inside(hd)
        out.append(Data(
            x=torch.tensor(np.eye(card, dtype=np.float32)[Z["x_cat"][s0:s0 + n, 0]]),
            edge_index=torch.tensor(np.stack([src[sel], dst[sel]]) - s0, dtype=torch.long),
            expander_edges=torch.tensor(np.stack([hs[hsel], hd[hsel]], 1) - s0, dtype=torch.long),
            EigVecs=torch.tensor(pe[s0:s0 + n]), EigVals=torch.zeros(n, pe.shape[1], 1),
            y=torch.tensor(Z["labels"][s0:s0 + n], dtype=torch.long), num_nodes=n))
    return out, n_real


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("weights", help="gexph export -out FILE")
    ap.add_argument("batch", help="gexph export -with-batch FILE")
    ap.add_argument("--cfg", default="configs/Exphormer/pattern.yaml", help="the reference's config, relative to its tree")
    a = ap.parse_args()
    W, meta = read_safetensors(a.weights)
    c = json.loads(meta["config"])
    Z = dict(np.load(a.batch))
    virt = c["virtual_nodes"] if c.get("global_edges") else 0
    try:
        check_config(c, virt)
        torch, create_model = reference_model(a.cfg, c, virt)
        torch.set_num_threads(1)
        card = W["node_encoder.column_0.embeddings"].shape[0]
        from torch_geometric.graphgym.config import cfg
        cfg.share.dim_in, cfg.share.dim_out = card, 1
        model = create_model(dim_in=card, dim_out=1)
        sd = state_dict(W, c["layers"], c["hidden_dim"], virt, c["head_layers"])
    except Refused as e:
        sys.exit(f"ref_model_compare: {e}")
    own = {k for k in model.state_dict() if not k.endswith("num_batches_tracked")}
    if own != set(sd):
        sys.exit(f"ref_model_compare: parameters unmatched: reference only {sorted(own - set(sd))}, gexph only {sorted(set(sd) - own)}")
    model.load_state_dict(sd, strict=False)
    model.eval()
    from torch_geometric.data import Batch
    data, n = graphs(Z, card)
    with torch.no_grad():
        pred, _ = model(Batch.from_data_list(data))
    ref = pred.numpy().ravel()
    gx = Z["outputs"].ravel()[:n]
    diff = float(np.abs(ref - gx).max())
    print(json.dumps({"rows": n, "max_abs_diff": diff, "max_rel_diff": diff / max(float(np.abs(gx).max()), 1e-30)}))


if __name__ == "__main__":
    main()
