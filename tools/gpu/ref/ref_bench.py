#!/usr/bin/env python3
"""Times the Exphormer paper's own code (hamed1375/Exphormer 1b43962, unmodified) on
gexph's data, beside gexph in the device check (tools/gpu/check.sh, docs/GPU.md).

    python3 ref_bench.py --ref REF --site SITE --gexph GEXPH --dataset pattern --mode step
    python3 ref_bench.py ... --mode epoch [--train 10000 --val 2000 --test 2000] [--epochs 3]

REF is the reference tree (exphormer.tar.gz extracted), SITE its pure-Python
dependencies at the paper's pins (the py-*.tar.gz of ../shared/peers/src extracted:
PyG 2.0.4, yacs, torchmetrics 0.9.3, ogb, performer_pytorch and its three deps). The
harness puts, in this order, REF, our shims (torch_scatter, torch_sparse: shims/) and SITE
before the interpreter's own packages, and fallbacks/ (distutils.version, pkg_resources:
used only where the interpreter has none) after them; then adapts what code written for
torch 1.10 needs of torch 2.x (compat below) and drives the reference as its main.py
does.

The data: `gexph data -dataset D -export` writes the graphs gexph trains on (same
generator, seed and split sizes); they are written in PyG's GNNBenchmarkDataset raw
layout (D_v2.pt: three lists of {x one-hot float, edge_index, y}) so that the
reference's own loader (GNNBenchmarkDataset, its master loader: EquivStableLapPE,
expander edges) prepares them. Its per-graph preprocessing passes run in --workers
processes (fork), which changes neither what each graph gets nor the random draws' law
(the reference draws each graph's expander from a fresh unseeded generator).

--mode step: one batch of --graphs graphs (default: the config's batch size, 32 for
PATTERN) and the body of graphgps/train/custom_train.py:train_epoch for it (zero_grad,
forward, loss, backward, clip, AdamW), timed --steps times after --warmup (after
../shared/peers/harness/pattern_step.py, the measuring kit's harness). --mode epoch: the
reference's own custom_train for --epochs epochs (one pass of training batches, then
validation and test evaluation and their metrics; docs/GPU.md, "The epoch", compares it
with gexph's), each epoch timed from the end of the previous one to its "> Epoch" log
record.

stdout: JSON objects, one a line; the last is the result (after each epoch a partial
one, so that a run cut short still reports what it timed). Progress goes to stderr.
"""
import argparse
import copy
import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATASETS = {  # gexph's name: (GNNBenchmarkDataset name, the reference's config)
    "pattern": ("PATTERN", "configs/Exphormer/pattern.yaml"),
    "cluster": ("CLUSTER", "configs/Exphormer/cluster.yaml"),
}


def log(msg):
    print("[ref] " + msg, file=sys.stderr, flush=True)


def emit(obj):
    print(json.dumps(obj), flush=True)


def setup_paths(ref, site):
    """The reference, our shims and the carried dependencies first; fallbacks last."""
    for p in (ref, site):
        if not os.path.isdir(p):
            raise SystemExit("ref_bench: %s is not a folder" % p)
    sys.path[:0] = [ref, os.path.join(HERE, "shims"), site, os.path.join(HERE, "..", "..", "pyg")]
    sys.path.append(os.path.join(HERE, "fallbacks"))


SCRIPT_FALLBACKS = []  # what TorchScript could not compile (run eagerly instead)


def compat(torch):
    """Adaptations of code written for torch 1.10 and SciPy 1.7 to the interpreter's
    torch and SciPy, each a no-op where the old behaviour is still there."""
    full_unpickling(torch)
    script_or_eager(torch)
    cuda_amp_autocast(torch)
    try:
        import scipy.stats.stats  # noqa: F401
    except ImportError:  # a deprecated alias (graphgps/logger.py imports it) newer SciPy drops
        import scipy.stats
        sys.modules["scipy.stats.stats"] = scipy.stats


def full_unpickling(torch):
    """torch.load defaults to weights_only=True from torch 2.6; PyG 2.0.4 saves Data
    objects with torch.save and reads them back with a plain torch.load."""
    load = torch.load

    def torch_load(*args, **kwargs):
        kwargs.setdefault("weights_only", False)
        return load(*args, **kwargs)

    torch.load = torch_load


def script_or_eager(torch):
    """torch.jit.script that returns the function itself where TorchScript cannot
    compile it (PyG 2.0.4 scripts its softmax at import; TorchScript is frozen in torch
    2.x): the same computation, run eagerly; each case is named in the result."""
    script = torch.jit.script

    def script_or_eager(obj, *args, **kwargs):
        try:
            return script(obj, *args, **kwargs)
        except Exception as e:  # noqa: BLE001 (any compile error: fall back)
            name = getattr(obj, "__qualname__", repr(obj))
            SCRIPT_FALLBACKS.append(name)
            log("TorchScript cannot compile %s (%s): it runs eagerly" % (name, str(e).strip().splitlines()[0]))
            return obj

    torch.jit.script = script_or_eager


def cuda_amp_autocast(torch):
    """torch.cuda.amp.autocast (performer_pytorch and graphgps/layer/performer_layer.py
    import it), deprecated in torch 2.4 for torch.amp.autocast("cuda"): supplied from
    the latter if a torch no longer has it."""
    amp = getattr(torch.cuda, "amp", None)
    if amp is not None and hasattr(amp, "autocast"):
        return
    import functools
    import types
    amp = types.ModuleType("torch.cuda.amp")
    amp.autocast = functools.partial(torch.amp.autocast, "cuda")
    torch.cuda.amp = amp
    sys.modules["torch.cuda.amp"] = amp


def export_data(gexph, dataset, seed, sizes, out):
    """`gexph data -export` into out; returns its seconds."""
    t = time.perf_counter()
    cmd = [gexph, "data", "-dataset", dataset, "-seed", str(seed), "-train-graphs", str(sizes[0]),
           "-val-graphs", str(sizes[1]), "-test-graphs", str(sizes[2]), "-export", out, "-json"]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit("ref_bench: %s failed (exit %d): %s" % (" ".join(cmd), res.returncode, res.stderr.strip()[-2000:]))
    return time.perf_counter() - t


def write_raw(torch, export, path):
    """The export's three splits as GNNBenchmarkDataset's raw file (a list per split of
    {x: one-hot float32, edge_index: int64, y: int64}); returns per-split graph counts
    and the training split's mean nodes and directed edges per graph."""
    from load_export import read_split
    splits = []
    for split in ("train", "val", "test"):
        graphs = []
        for g in read_split(export, split, onehot=True):
            # read_split's arrays are views into the split's arrays: copy each graph's
            # own, or torch.save writes the whole split's storage with every graph
            graphs.append({
                "x": torch.tensor(g["x"], dtype=torch.float32),
                "edge_index": torch.tensor(g["edge_index"], dtype=torch.long),
                "y": torch.tensor(g["y"], dtype=torch.long),
            })
        splits.append(graphs)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.save(splits, path)
    train = splits[0]
    return ([len(s) for s in splits], sum(len(g["y"]) for g in train) / max(len(train), 1),
            sum(g["edge_index"].shape[1] for g in train) / max(len(train), 1))


# --- Per-graph preprocessing in worker processes -----------------------------------

_JOB = None  # (dataset, transform) of the pass in progress, inherited by forked workers


def _transform_chunk(bounds):
    import pickle
    import torch
    torch.set_num_threads(1)
    dataset, transform = _JOB
    out = [transform(dataset.get(i)) for i in range(*bounds)]
    # A graph's tensors are views into the data set's collated storage, and pickling a
    # view writes its whole storage: send each graph's own copy. Plain pickle: tensors
    # by value, not through torch's shared-memory reductions (a descriptor per tensor).
    out = [d.apply(lambda t: t.clone()) if d is not None else d for d in out]
    return pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)


def parallel_pre_transform(workers, serial):
    """graphgps.transform.transforms.pre_transform_in_memory with its per-graph
    transform run by workers forked processes; the same result, graph by graph."""
    def pre_transform_in_memory(dataset, transform_func, show_progress=False):
        global _JOB
        n = len(dataset)
        if transform_func is None or workers < 2 or n < 4 * workers:
            return serial(dataset, transform_func, show_progress)
        import multiprocessing
        import pickle
        step = -(-n // (4 * workers))
        chunks = [(i, min(i + step, n)) for i in range(0, n, step)]
        _JOB = (dataset, transform_func)
        try:
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                parts = pool.map(_transform_chunk, chunks)
        finally:
            _JOB = None
        data_list = [d for part in parts for d in pickle.loads(part)]
        # as the reference's pre_transform_in_memory does with its list
        data_list = list(filter(None, data_list))
        dataset._indices = None
        dataset._data_list = data_list
        dataset.data, dataset.slices = dataset.collate(data_list)
    return pre_transform_in_memory


# --- The reference ------------------------------------------------------------------


def build(a, tmp, threads):
    """Configures the reference as main.py does for one run and builds its loaders,
    loggers, model, optimiser and scheduler; returns them with the setup's seconds."""
    import torch
    import main as refmain  # the reference's main.py: imports graphgps (registers modules)
    import graphgps.loader.master_loader as master_loader
    from torch_geometric import seed_everything
    from torch_geometric.graphgym.config import cfg, set_cfg, load_cfg, dump_cfg
    from torch_geometric.graphgym.loader import create_loader
    from torch_geometric.graphgym.logger import set_printing
    from torch_geometric.graphgym.model_builder import create_model
    from torch_geometric.graphgym.optim import create_optimizer, create_scheduler
    from torch_geometric.graphgym.utils.comp_budget import params_count
    from torch_geometric.graphgym.utils.device import auto_select_device
    from graphgps.logger import create_logger

    master_loader.pre_transform_in_memory = parallel_pre_transform(a.workers, master_loader.pre_transform_in_memory)
    opts = ["wandb.use", "False", "num_threads", str(threads), "device", a.device,
            "dataset.dir", os.path.join(tmp, "datasets"), "out_dir", os.path.join(tmp, "results"),
            "seed", str(a.seed), "train.enable_ckpt", "False"]
    if a.mode == "step":
        opts += ["train.batch_size", str(a.graphs)]
    args = argparse.Namespace(cfg_file=DATASETS[a.dataset][1], repeat=1, mark_done=False, opts=opts)
    set_cfg(cfg)
    load_cfg(cfg, args)
    refmain.custom_set_out_dir(cfg, args.cfg_file, cfg.name_tag)
    dump_cfg(cfg)
    torch.set_num_threads(cfg.num_threads)
    refmain.custom_set_run_dir(cfg, a.seed)
    set_printing()
    if not a.verbose:  # the reference logs to stdout too: keep only its log file
        logging.root.handlers = [h for h in logging.root.handlers
                                 if isinstance(h, logging.FileHandler) or not isinstance(h, logging.StreamHandler)]
    cfg.dataset.split_index = 0
    cfg.run_id = a.seed
    seed_everything(cfg.seed)
    auto_select_device()
    t, cpu = time.perf_counter(), cpu_seconds()
    loaders = create_loader()
    load_s = time.perf_counter() - t
    log("loader: %.1f s, %.1f s of CPU in this process and %.1f s in its workers"
        % (load_s, cpu_seconds()[0] - cpu[0], cpu_seconds()[1] - cpu[1]))
    loggers = create_logger()
    model = create_model()
    optimizer = create_optimizer(model.parameters(), refmain.new_optimizer_config(cfg))
    scheduler = create_scheduler(optimizer, refmain.new_scheduler_config(cfg))
    cfg.params = params_count(model)
    return cfg, loaders, loggers, model, optimizer, scheduler, load_s


def cpu_seconds():
    """CPU seconds (user and system) of this process and of its finished children."""
    import resource
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def sync(torch):
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def run_step(a, torch, cfg, loaders, model, optimizer, scheduler):
    """The training step of custom_train.train_epoch on one batch, timed."""
    from torch_geometric.graphgym.loss import compute_loss
    # cosine_with_warmup gives lr 0 in epoch 0: advance one epoch so that the steps
    # change the weights (the same cost either way), as pattern_step.py does
    scheduler.step()
    batches = list(loaders[0])
    if len(batches) != 1 or batches[0].num_graphs != a.graphs:
        raise SystemExit("ref_bench: expected one training batch of %d graphs, got %s"
                         % (a.graphs, [b.num_graphs for b in batches]))
    batch = batches[0]
    device = torch.device(cfg.device)

    def step(b):
        model.train()
        optimizer.zero_grad()
        b.split = "train"
        b.to(device)
        pred, true = model(b)
        loss, _ = compute_loss(pred, true)
        loss.backward()
        if cfg.optim.clip_grad_norm:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
        return loss.detach().cpu().item()

    times, losses = [], []
    for i in range(a.warmup + a.steps):
        b = copy.deepcopy(batch)  # GraphGym's encoders overwrite batch attributes in place
        sync(torch)
        t = time.perf_counter()
        losses.append(step(b))
        sync(torch)
        dt = time.perf_counter() - t
        if i >= a.warmup:
            times.append(dt)
        log("step %d%s: %.1f ms, loss %.5f" % (i, " (warm-up)" if i < a.warmup else "", dt * 1e3, losses[-1]))
    n_exp = batch.expander_edges.shape[0] if hasattr(batch, "expander_edges") else 0
    return {
        "ms_per_step": statistics.median(times) * 1e3 if times else None,
        "step_ms": [round(t * 1e3, 3) for t in times],
        "losses": losses,
        "batch_nodes": int(batch.num_nodes), "batch_edges": int(batch.edge_index.shape[1]),
        "batch_expander_edges": int(n_exp),
    }


class EpochClock(logging.Handler):
    """Times custom_train's epochs: each ends at its "> Epoch N: took" log record."""

    def __init__(self, torch, on_epoch):
        super().__init__(logging.INFO)
        self.torch, self.on_epoch = torch, on_epoch
        self.last = time.perf_counter()
        self.seconds = []

    def emit(self, record):
        if not str(record.msg).startswith("> Epoch"):
            return
        sync(self.torch)
        now = time.perf_counter()
        self.seconds.append(now - self.last)
        self.last = now
        self.on_epoch(self.seconds)


def last_stats(path):
    """The last line of a GraphGym logger's stats.json (one JSON object a line)."""
    try:
        with open(path) as f:
            lines = [l for l in f.read().splitlines() if l.strip()]
        return json.loads(lines[-1]) if lines else {}
    except (OSError, ValueError):
        return {}


def run_epochs(a, torch, cfg, loaders, loggers, model, optimizer, scheduler, report):
    """The reference's custom_train for a.epochs epochs (the scheduler keeps the
    config's max_epoch), each epoch timed."""
    from torch_geometric.graphgym.register import train_dict

    timed = {}

    def on_epoch(secs):
        later = sorted(secs[1:])
        timed.update(epoch_seconds=[round(s, 3) for s in secs], epochs=len(secs), first_epoch_seconds=secs[0],
                     seconds_per_epoch=statistics.median(later) if later else None)
        report({**timed, "partial": True})

    scheduler_epochs = cfg.optim.max_epoch
    cfg.optim.max_epoch = a.epochs
    clock = EpochClock(torch, on_epoch)
    logging.getLogger().addHandler(clock)
    sync(torch)
    clock.last = time.perf_counter()
    try:
        train_dict[cfg.train.mode](loggers, loaders, model, optimizer, scheduler)
    finally:
        logging.getLogger().removeHandler(clock)
        cfg.optim.max_epoch = scheduler_epochs
    metric = cfg.metric_best
    stats = {s: last_stats(os.path.join(cfg.run_dir, s, "stats.json")) for s in ("train", "val", "test")}
    return {
        **timed, "partial": False,
        "steps_per_epoch": len(loaders[0]),
        "metric_name": metric,
        "val_metric": stats["val"].get(metric), "test_metric": stats["test"].get(metric),
        "train_loss": stats["train"].get("loss"),
    }


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref", required=True, help="the reference tree (exphormer.tar.gz extracted)")
    ap.add_argument("--site", required=True, help="its dependencies (the py-*.tar.gz extracted)")
    ap.add_argument("--gexph", required=True, help="the gexph command that exports the data")
    ap.add_argument("--dataset", choices=sorted(DATASETS), default="pattern")
    ap.add_argument("--mode", choices=("step", "epoch"), required=True)
    ap.add_argument("--device", default="cuda", help="cuda, or cpu for a dry run")
    ap.add_argument("--seed", type=int, default=1, help="gexph's data seed and the reference's seed")
    ap.add_argument("--graphs", type=int, default=0, help="step: graphs in the batch (default: the config's batch size)")
    ap.add_argument("--steps", type=int, default=8, help="step: timed steps")
    ap.add_argument("--warmup", type=int, default=3, help="step: untimed steps first")
    ap.add_argument("--train", type=int, default=0, help="epoch: training graphs (default: the data set's full split)")
    ap.add_argument("--val", type=int, default=0, help="epoch: validation graphs (default: full)")
    ap.add_argument("--test", type=int, default=0, help="epoch: test graphs (default: full)")
    ap.add_argument("--epochs", type=int, default=3, help="epoch: epochs to run (0: prepare the data and model only)")
    ap.add_argument("--workers", type=int, default=os.cpu_count(), help="processes for the per-graph preprocessing")
    ap.add_argument("--verbose", action="store_true", help="echo the reference's logging")
    return ap.parse_args()


def prepare_data(a, torch, tmp, result):
    """Exports gexph's graphs for a run and writes them as the reference's raw file."""
    name, cfg_file = DATASETS[a.dataset]
    if a.mode == "step" and a.graphs == 0:
        from yacs.config import CfgNode
        with open(cfg_file) as f:
            a.graphs = int(CfgNode.load_cfg(f).train.batch_size)
    sizes = (a.graphs, 2, 2) if a.mode == "step" else (a.train, a.val, a.test)
    export = os.path.join(tmp, "export")
    result["export_s"] = export_data(a.gexph, a.dataset, a.seed, sizes, export)
    t = time.perf_counter()
    raw = os.path.join(tmp, "datasets", "GNNBenchmarkDataset", name, "raw", name + "_v2.pt")
    counts, nodes, edges = write_raw(torch, export, raw)
    result.update(graphs=counts, nodes_per_graph=nodes, edges_per_graph=edges, raw_s=time.perf_counter() - t)
    log("%s: %s graphs (train/val/test) from gexph, %.1f nodes and %.0f directed edges per training graph"
        % (name, counts, nodes, edges))


def main():
    a = parse_args()
    threads = int(os.environ.get("THREADS") or os.cpu_count())
    t_start = time.perf_counter()
    ref, site = os.path.abspath(a.ref), os.path.abspath(a.site)
    setup_paths(ref, site)
    # torch.cuda.is_available() through NVML: no CUDA context before the forked workers
    os.environ.setdefault("PYTORCH_NVML_BASED_CUDA_CHECK", "1")
    import torch
    compat(torch)
    import torch_geometric
    import torch_scatter
    if a.device.startswith("cuda") and not torch.cuda.is_available():
        raise SystemExit("ref_bench: --device %s but torch %s sees no CUDA device" % (a.device, torch.__version__))
    os.chdir(ref)  # the reference's config paths are relative to its tree
    result = {
        "dataset": a.dataset, "mode": a.mode, "config": DATASETS[a.dataset][1], "device": a.device,
        "torch": torch.__version__, "torch_geometric": torch_geometric.__version__,
        "torch_scatter": torch_scatter.__version__, "python": sys.version.split()[0],
        "workers": a.workers, "threads": threads, "script_fallbacks": SCRIPT_FALLBACKS,
    }
    tmp = tempfile.mkdtemp(prefix="gexph-ref-")
    try:
        prepare_data(a, torch, tmp, result)
        cfg, loaders, loggers, model, optimizer, scheduler, load_s = build(a, tmp, threads)
        # CUDA starts here, after the loader's forked workers (which must not inherit it)
        result["device_name"] = torch.cuda.get_device_name(0) if a.device.startswith("cuda") else "cpu"
        result.update(load_s=load_s, params=cfg.params, layer_type=cfg.gt.layer_type, layers=cfg.gt.layers,
                      hidden=cfg.gt.dim_hidden, batch_size=cfg.train.batch_size, setup_s=time.perf_counter() - t_start)
        log("reference setup %.1f s (loader with LapPE and expander edges %.1f s); %d parameters; torch %s"
            % (result["setup_s"], load_s, cfg.params, torch.__version__))
        if torch.cuda.is_available():
            torch.cuda.reset_peak_memory_stats()
        if a.mode == "step":
            result.update(run_step(a, torch, cfg, loaders, model, optimizer, scheduler))
        elif a.epochs > 0:
            result.update(run_epochs(a, torch, cfg, loaders, loggers, model, optimizer, scheduler,
                                     lambda r: emit({**result, **r})))
        if torch.cuda.is_available():
            result["peak_torch_mib"] = torch.cuda.max_memory_allocated() / 2**20
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    result["seconds"] = time.perf_counter() - t_start
    emit(result)


if __name__ == "__main__":
    main()
