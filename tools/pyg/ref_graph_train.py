#!/usr/bin/env python3
"""Train the Exphormer paper's own code on a data set that gexph exported; summarise.

A measuring tool, not part of gexph: it runs the reference implementation (staged by
../shared/peers/stage.sh, unmodified) on exactly the graphs gexph trains on, for the
equal-budget comparison of docs/REFERENCE.md. It is run with the staged environment:

    . ~/exphormer-ref/ref_env.sh      # PYTHONPATH, threads (see ../shared/peers)
    python3 tools/pyg/ref_graph_train.py --export DIR --cfg configs/Exphormer/pattern.yaml \\
        --epochs 8 --seed 1 [--set key value ...] [--json OUT.json]

What it does:
  - reads the export (tools/pyg/load_export.py) and writes it where the reference's
    loader reads it: PyG 2.0.4's GNNBenchmarkDataset raw file for PATTERN, CLUSTER and
    MNIST (DATASET_v2.pt: three lists of dicts, train, val and test, as PyG's files hold
    them: categorical node features one-hot, superpixel positions apart), the processed
    file and split of its PeptidesFunctionalDataset for Peptides-func; the reference's
    own master loader, positional encodings and expander edges then apply;
  - runs the reference's main.py in this process with the config and the overrides
    wandb.use False, optim.max_epoch, seed, num_threads, device cpu, train.enable_ckpt
    False, dataset.dir/out_dir -> a temporary folder, and any --set pairs;
  - reads the reference's log as it is written: per epoch the wall time and the
    train/val/test metric (cfg.metric_best), and its own best-epoch selection.
Prints one JSON object (and writes it to --json): the epochs' seconds and metrics, the
best epoch and its val and test metric, peak RSS.
"""
import argparse
import ast
import json
import os
import re
import resource
import runpy
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from load_export import read_meta, read_split  # noqa: E402

REF = os.environ.get("EXPHORMER_REF", os.path.expanduser("~/exphormer-ref"))


def write_raw(export, path):
    """The export as GNNBenchmarkDataset's raw file: [train, val, test] lists of dicts."""
    import torch
    meta = read_meta(export)
    if meta["transductive"] or meta["task"] not in ("node-classification", "graph-classification"):
        sys.exit(f"{export}: want an inductive classification export (PATTERN, CLUSTER, MNIST, CIFAR10), "
                 f"got {meta['task']}")
    splits = [[raw_graph(g, meta, torch) for g in read_split(export, s, onehot=True)]
              for s in ("train", "val", "test")]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.save(splits, path)
    return meta, [len(s) for s in splits]


def raw_graph(g, meta, torch):
    """One graph as PyG's GNNBenchmarkDataset files hold it. For the node-classification
    sets (PATTERN, CLUSTER): x (categorical features one-hot), edge_index, y per node. For
    the superpixel sets (MNIST, CIFAR10): x the colour columns and pos the last two (row,
    column), which the reference concatenates back in this order; edge_attr; y [1]."""
    d = {"edge_index": torch.from_numpy(g["edge_index"]).long(), "y": torch.from_numpy(g["y"]).long()}
    x = torch.from_numpy(g["x"]).float()
    if meta["task"] == "node-classification":
        d["x"] = x
        return d
    if x.shape[1] < 3 or g["edge_attr"] is None:
        sys.exit(f"{meta['name']}: want superpixel graphs (colour, row, column; one edge feature), "
                 f"got {x.shape[1]} node and {'no' if g['edge_attr'] is None else 'some'} edge features")
    d["x"], d["pos"] = x[:, :-2], x[:, -2:]
    d["edge_attr"] = torch.from_numpy(g["edge_attr"]).float().reshape(-1)
    return d


def write_peptides(export, root, caps):
    """The export where the reference's PeptidesFunctionalDataset reads its processed
    file (a collated InMemoryDataset of the OGB-featured graphs: x and edge_attr integer
    codes, y [1, 10]) and its split pickle, with the first caps[i] graphs of each split
    (0: all). The raw CSV and the release tag are empty files: they only have to exist."""
    import pickle
    import numpy as np
    import torch
    from torch_geometric.data import Data, InMemoryDataset
    meta = read_meta(export)
    if meta["task"] != "graph-multilabel":
        sys.exit(f"{export}: want the Peptides-func export (graph-multilabel), got {meta['task']}")
    folder = os.path.join(root, "peptides-functional")
    for d in ("raw", "processed"):
        os.makedirs(os.path.join(folder, d), exist_ok=True)
    for f in ("raw/peptide_multi_class_dataset.csv.gz", "701eb743e899f4d793f0e13c8fa5a1b4"):
        open(os.path.join(folder, f), "w").close()
    data_list, split = [], {}
    for s, cap in zip(("train", "val", "test"), caps):
        graphs = read_split(export, s)[:cap or None]
        split[s] = np.arange(len(data_list), len(data_list) + len(graphs))
        for g in graphs:
            d = Data(x=torch.from_numpy(g["x"]).long(), edge_index=torch.from_numpy(g["edge_index"]).long(),
                     edge_attr=torch.from_numpy(g["edge_attr"]).long(),
                     y=torch.from_numpy(g["y"]).float().reshape(1, -1))
            d.__num_nodes__ = g["num_nodes"]
            data_list.append(d)
    torch.save(InMemoryDataset.collate(data_list), os.path.join(folder, "processed", "geometric_data_processed.pt"))
    with open(os.path.join(folder, "splits_random_stratified_peptide.pickle"), "wb") as f:
        pickle.dump(split, f)
    return meta, [len(split[s]) for s in ("train", "val", "test")]


def stub_smiles2graph():
    """The reference's Peptides module imports OGB's smiles2graph, which needs RDKit (not
    staged here). The processed file exists, so it is never called: a stand-in that says
    so if it ever were lets the module import."""
    import ogb.utils

    def smiles2graph(_):
        raise RuntimeError("smiles2graph called: the processed Peptides file is missing")
    ogb.utils.smiles2graph = smiles2graph


class LineTap:
    """A sys.stdout stand-in: every complete line goes to a callback with its time."""

    def __init__(self, logf, on_line):
        self.logf, self.on_line, self.buf = logf, on_line, ""

    def write(self, s):
        now = time.perf_counter()
        self.logf.write(s)
        self.buf += s
        while "\n" in self.buf:
            line, self.buf = self.buf.split("\n", 1)
            self.on_line(line, now)
        return len(s)

    def flush(self):
        self.logf.flush()

    def isatty(self):
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--export", required=True, help="a directory written by gexph data -export")
    ap.add_argument("--cfg", required=True, help="the reference's config, relative to its tree")
    ap.add_argument("--name", default="PATTERN", help="GNNBenchmarkDataset name the config loads (PATTERN, CLUSTER, MNIST, CIFAR10)")
    ap.add_argument("--epochs", type=int, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--set", nargs=2, action="append", default=[], metavar=("KEY", "VALUE"),
                    help="another config override (repeatable)")
    ap.add_argument("--max-graphs", nargs=3, type=int, default=[0, 0, 0], metavar=("TRAIN", "VAL", "TEST"),
                    help="Peptides-func: train on the first graphs of each split only (0: all), as gexph's "
                         "max_train, max_val and max_test do")
    ap.add_argument("--json", help="also write the summary here")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (log, results)")
    a = ap.parse_args()
    threads = int(os.environ.get("THREADS") or os.cpu_count())
    tmp = tempfile.mkdtemp(prefix="exphormer-ref-graph-")
    if read_meta(a.export)["name"] == "peptides-func":
        meta, sizes = write_peptides(a.export, os.path.join(tmp, "datasets"), a.max_graphs)
        stub_smiles2graph()
    else:
        meta, sizes = write_raw(a.export, os.path.join(tmp, "datasets", "GNNBenchmarkDataset", a.name, "raw",
                                                    f"{a.name}_v2.pt"))
    log_path = os.path.join(tmp, "reference.log")
    real_out = sys.stdout
    state = {"last": None, "epochs": [], "stats": {}, "metric": None}

    def on_line(line, now):
        if line.startswith("Start from epoch"):
            state["last"] = now
            return
        m = re.match(r"^(train|val|test): (\{.*\})\s*$", line)
        if m:
            try:
                d = ast.literal_eval(m.group(2))
                state["stats"].setdefault(d["epoch"], {})[m.group(1)] = d
            except (ValueError, SyntaxError, KeyError):
                pass
            return
        m = re.match(r"^> Epoch (\d+): took ([\d.]+)s.*Best so far: epoch (\d+)", line)
        if m:
            ep, took, best = int(m.group(1)), float(m.group(2)), int(m.group(3))
            dt = now - state["last"] if state["last"] is not None else float("nan")
            state["last"] = now
            state["epochs"].append({"epoch": ep + 1, "seconds": dt, "reference_took": took, "best": best + 1})
            real_out.write(f"epoch {ep + 1}/{a.epochs}: {dt:.1f} s\n")
            real_out.flush()

    argv = ["main.py", "--cfg", a.cfg, "wandb.use", "False", "optim.max_epoch", str(a.epochs),
            "num_threads", str(threads), "device", "cpu", "seed", str(a.seed), "train.enable_ckpt", "False",
            "dataset.dir", os.path.join(tmp, "datasets"), "out_dir", os.path.join(tmp, "results")]
    for k, v in a.set:
        argv += [k, v]
    print(f"reference: {REF}\n  python3 {' '.join(argv)}\n  log: {log_path}", flush=True)
    err = None
    with open(log_path, "w") as logf:
        sys.stdout = LineTap(logf, on_line)
        cwd = os.getcwd()
        try:
            os.chdir(REF)
            sys.path.insert(0, REF)
            sys.argv = argv
            runpy.run_path(os.path.join(REF, "main.py"), run_name="__main__")
        except BaseException as e:  # report, then fail
            import traceback
            traceback.print_exc(file=logf)
            err = e
        finally:
            sys.stdout.flush()
            sys.stdout = real_out
            os.chdir(cwd)
    if err is not None or len(state["epochs"]) != a.epochs:
        print(f"reference run failed ({err!r}, {len(state['epochs'])} epochs logged); log {log_path}")
        print("".join(open(log_path).readlines()[-25:]))
        sys.exit(1)
    from torch_geometric.graphgym.config import cfg
    metric = cfg.metric_best
    per_epoch = []
    for e in state["epochs"]:
        st = state["stats"].get(e["epoch"] - 1, {})
        row = dict(e)
        for s in ("train", "val", "test"):
            row[s] = st.get(s, {}).get(metric)
            row[s + "_loss"] = st.get(s, {}).get("loss")
        per_epoch.append(row)
    best = per_epoch[-1]["best"]
    steady = [e["seconds"] for e in per_epoch[1:]] or [per_epoch[0]["seconds"]]
    out = {
        "stack": "reference", "export": os.path.abspath(a.export), "dataset": meta["name"],
        "graphs": dict(zip(("train", "val", "test"), sizes)), "cfg": a.cfg, "overrides": a.set,
        "seed": a.seed, "epochs": a.epochs, "metric": metric, "best_epoch": best,
        "val_metric": per_epoch[best - 1]["val"], "test_metric": per_epoch[best - 1]["test"],
        "seconds_per_epoch": statistics.median(steady), "history": per_epoch,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    text = json.dumps(out)
    print(text)
    if a.json:
        with open(a.json + ".tmp", "w") as f:
            f.write(text + "\n")
        os.replace(a.json + ".tmp", a.json)
    if a.keep:
        print(f"kept {tmp}", file=sys.stderr)
    else:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
