#!/usr/bin/env python3
"""Load a data set that `gexph data -dataset SPEC -export DIR` wrote, in NumPy or PyG.

The layout (documented in gexph's data.Export and docs/EXPORT.md): DIR/meta.json
describes the data set; an inductive set has train.npz, val.npz and test.npz, each its
split's graphs concatenated as PyG collates them (x [N, F], edge_index [2, E] with each
graph's own node ids, edge_attr [E, Fe], y, node_ptr and edge_ptr [G+1], graph_id [G]);
a transductive set has graph.npz with the split as *_idx and *_mask arrays.

    python3 tools/pyg/load_export.py DIR [--one-hot] [--numpy]

prints one JSON object: per split the graph, node and directed-edge counts of what it
loaded (through PyG's InMemoryDataset when torch_geometric is installed, else through
NumPy; "loader" says which), with feature shapes and a checksum of the features and
labels. From Python:

    from load_export import GexphExport, read_split
    train = GexphExport(DIR, split="train")          # a PyG InMemoryDataset
    loader = torch_geometric.loader.DataLoader(train, batch_size=32, shuffle=True)

Categorical features (PATTERN's node colours, molecules' atom and bond types) are int64
codes, as gexph trains on them; one_hot=True turns them into float one-hot columns, as
PyG's own PATTERN and CLUSTER files hold them.
"""
import argparse
import json
import os
import sys

import numpy as np

FORMAT, MAX_VERSION = "gexph-export", 1
SPLITS = ("train", "val", "test")


def read_meta(root):
    with open(os.path.join(root, "meta.json")) as f:
        meta = json.load(f)
    if meta.get("format") != FORMAT or not 1 <= meta.get("version", 0) <= MAX_VERSION:
        raise ValueError("%s: format %r version %r, want %r version 1..%d"
                         % (os.path.join(root, "meta.json"), meta.get("format"), meta.get("version"), FORMAT, MAX_VERSION))
    return meta


def one_hot(codes, cardinality):
    """Concatenated one-hot float32 columns of an int64 code matrix [rows, cols]."""
    cols = [np.eye(card, dtype=np.float32)[codes[:, c]] for c, card in enumerate(cardinality)]
    return np.concatenate(cols, axis=1) if cols else np.zeros((codes.shape[0], 0), np.float32)


def features(arrays, name, desc, onehot):
    if desc["kind"] == "none" or name not in arrays:
        return None
    a = arrays[name]
    if desc["kind"] == "categorical" and onehot:
        return one_hot(a, desc["cardinality"])
    return a


def read_split(root, split, onehot=False):
    """The graphs of one split as a list of dicts of NumPy arrays (x, edge_index,
    edge_attr, y, graph_id; for a transductive set one graph with the split's mask)."""
    meta = read_meta(root)
    z = np.load(os.path.join(root, meta["files"][split]))
    x = features(z, "x", meta["node_features"], onehot)
    ea = features(z, "edge_attr", meta["edge_features"], onehot)
    if meta["transductive"]:
        g = {"x": x, "edge_index": z["edge_index"], "edge_attr": ea, "y": z["y"], "graph_id": 0}
        for s in SPLITS:
            g[s + "_mask"] = z[s + "_mask"]
        return [g]
    # each z[...] reads its array from the archive again: read each once
    node_ptr, edge_ptr, ei, y, gid = z["node_ptr"], z["edge_ptr"], z["edge_index"], z["y"], z["graph_id"]
    node_task = meta["task"] == "node-classification"
    graphs = []
    for g in range(len(node_ptr) - 1):
        n0, n1, e0, e1 = node_ptr[g], node_ptr[g + 1], edge_ptr[g], edge_ptr[g + 1]
        graphs.append({
            "x": None if x is None else x[n0:n1],
            "edge_index": ei[:, e0:e1],
            "edge_attr": None if ea is None else ea[e0:e1],
            "y": y[n0:n1] if node_task else y[g:g + 1],
            "graph_id": int(gid[g]),
            "num_nodes": int(n1 - n0),
        })
    return graphs


def _pyg_class():
    import torch
    from torch_geometric.data import Data, InMemoryDataset

    class GexphExport(InMemoryDataset):
        """One split of a gexph export as a PyG InMemoryDataset (Data objects with x,
        edge_index, edge_attr, y; a transductive set is one Data with train_mask,
        val_mask and test_mask)."""

        def __init__(self, root, split="train", one_hot=False, transform=None):
            self.meta = read_meta(root)
            super().__init__(None, transform)
            data_list = [self._to_data(g) for g in read_split(root, split, one_hot)]
            collated = self.collate(data_list)
            if hasattr(self, "_data"):  # PyG >= 2.4 keeps the storage in _data
                self._data, self.slices = collated
            else:
                self.data, self.slices = collated

        def _to_data(self, g):
            kw = {"edge_index": torch.from_numpy(np.ascontiguousarray(g["edge_index"])).long()}
            for key in ("x", "edge_attr"):
                if g[key] is not None:
                    kw[key] = torch.from_numpy(np.ascontiguousarray(g[key]))
            y = torch.from_numpy(np.ascontiguousarray(g["y"]))
            kw["y"] = y.long() if y.dtype == torch.int64 else y
            if "num_nodes" in g:
                kw["num_nodes"] = g["num_nodes"]
            for s in SPLITS:
                if s + "_mask" in g:
                    kw[s + "_mask"] = torch.from_numpy(g[s + "_mask"])
            return Data(**kw)

    return GexphExport


def __getattr__(name):
    # GexphExport needs torch_geometric: built on first use, so that the NumPy part of
    # this module works without it.
    if name == "GexphExport":
        return _pyg_class()
    raise AttributeError(name)


def checksum(*arrays):
    """Sum of value * ((i+1) mod 997 + 1) over the arrays' values concatenated in order,
    in float64: the same data in the same order gives the same number."""
    parts = [np.asarray(a, dtype=np.float64).ravel() for a in arrays if a is not None]
    if not parts:
        return 0.0
    v = np.concatenate(parts)
    return float(np.dot(v, np.arange(1, v.size + 1, dtype=np.float64) % 997 + 1))


def summary_numpy(root, onehot):
    out = {}
    for s in SPLITS:
        gs = read_split(root, s, onehot)
        x = [g["x"] for g in gs if g["x"] is not None]
        ea = [g["edge_attr"] for g in gs if g["edge_attr"] is not None]
        out[s] = {
            "graphs": len(gs),
            "nodes": int(sum(g["y"].shape[0] if "num_nodes" not in g else g["num_nodes"] for g in gs)),
            "edges": int(sum(g["edge_index"].shape[1] for g in gs)),
            "x_shape": list(np.concatenate(x).shape) if x else None,
            "edge_attr_shape": list(np.concatenate(ea).shape) if ea else None,
            "x_checksum": checksum(*x), "edge_attr_checksum": checksum(*ea),
            "y_checksum": checksum(*[g["y"] for g in gs]),
        }
        if gs and "train_mask" in gs[0]:
            out[s]["examples"] = int(gs[0][s + "_mask"].sum())
    return out


def summary_pyg(root, onehot):
    cls = _pyg_class()
    out = {}
    for s in SPLITS:
        ds = cls(root, split=s, one_hot=onehot)
        data = [ds[i] for i in range(len(ds))]
        xs = [d.x.numpy() for d in data if getattr(d, "x", None) is not None]
        eas = [d.edge_attr.numpy() for d in data if getattr(d, "edge_attr", None) is not None]
        out[s] = {
            "graphs": len(ds),
            "nodes": int(sum(d.num_nodes for d in data)),
            "edges": int(sum(d.edge_index.shape[1] for d in data)),
            "x_shape": list(np.concatenate(xs).shape) if xs else None,
            "edge_attr_shape": list(np.concatenate(eas).shape) if eas else None,
            "x_checksum": checksum(*xs), "edge_attr_checksum": checksum(*eas),
            "y_checksum": checksum(*[d.y.numpy() for d in data]),
        }
        if data and hasattr(data[0], "train_mask"):
            out[s]["examples"] = int(getattr(data[0], s + "_mask").sum())
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dir")
    p.add_argument("--one-hot", action="store_true", help="categorical features as one-hot float columns")
    p.add_argument("--numpy", action="store_true", help="load through NumPy even where PyG is installed")
    a = p.parse_args()
    try:
        meta = read_meta(a.dir)
        loader = "numpy"
        if not a.numpy:
            try:
                import torch_geometric  # noqa: F401
                loader = "pyg"
            except ImportError:
                pass
        splits = summary_pyg(a.dir, a.one_hot) if loader == "pyg" else summary_numpy(a.dir, a.one_hot)
    except (OSError, ValueError, KeyError) as e:
        print("load_export: %s" % e, file=sys.stderr)
        return 1
    res = {"name": meta["name"], "task": meta["task"], "transductive": meta["transductive"], "loader": loader,
           "graphs": sum(s["graphs"] for s in splits.values()) if not meta["transductive"] else 1,
           "nodes": sum(s["nodes"] for s in splits.values()) if not meta["transductive"] else splits["train"]["nodes"],
           "edges": sum(s["edges"] for s in splits.values()) if not meta["transductive"] else splits["train"]["edges"],
           "splits": splits}
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
