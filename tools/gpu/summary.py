"""Assembles check.json and record.json for tools/gpu/check.sh from the steps' records.

Each step left NAME.meta (key=value: status, exit, seconds, peak_device_mib, budget,
reason), NAME.out (what its command printed: gexph's -json output, one JSON object,
possibly indented; the reference harness's JSON lines) and NAME.err in WORK/steps. The
summary adds the device facts (nvidia-smi), the plugin's package version and derived
figures: the PATTERN training run's metric and seconds per epoch, the PyTorch/gexph
attention ratio, gexph's full PATTERN epoch and the paper's code's step and epoch.

record.json (--record) is the check's record, committed as
docs/results/gpu/DATE-DEVICE.json (check.json's record_file; docs/GPU.md, "A record
per check"): the figures that issue 39's targets are read from, each null when its step
did not run or gave none.
"""

import argparse
import datetime
import importlib.metadata
import json
import math
import os
import re
import sys

# The record's keys and their types (a number may also be null), in this order.
RECORD_KEYS = [
    ("commit", str), ("device", str), ("driver", str), ("plugin_version", str), ("date", str), ("dryrun", bool),
    ("pattern_step_ms", float), ("pattern_epoch_s", float), ("pattern_first_epoch_s", float),
    ("reference_pattern_step_ms", float), ("reference_pattern_epoch_s", float),
    ("reference_pattern_first_epoch_s", float),
    ("pattern_step_speedup", float), ("pattern_epoch_speedup", float),
    ("compile_s", float), ("compiled_shapes", int),
    ("cluster_step_ms", float), ("reference_cluster_step_ms", float),
    ("mnist_step_ms", float), ("peptides_func_step_ms", float),
    ("reference_versions", str), ("steps", dict),
]


def last_json(text):
    """The last JSON object in text that starts at the beginning of a line."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    lines = text.splitlines()
    dec = json.JSONDecoder()
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith("{"):
            try:
                obj, _ = dec.raw_decode("\n".join(lines[i:]))
                return obj
            except ValueError:
                continue
    return None


def read_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.strip().partition("=")
            if not key:
                continue
            if key in ("exit", "budget"):
                meta[key] = int(value)
            elif key in ("seconds", "peak_device_mib"):
                meta[key] = float(value) if value else None
            else:
                meta[key] = value
    return meta


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def step_records(steps_dir):
    steps = {}
    for name in sorted(os.listdir(steps_dir)) if os.path.isdir(steps_dir) else []:
        if not name.endswith(".meta"):
            continue
        base = name[: -len(".meta")]
        rec = read_meta(os.path.join(steps_dir, name))
        out = read_text(os.path.join(steps_dir, base + ".out"))
        rec["result"] = last_json(out)
        if rec["result"] is None and out.strip():
            rec["stdout_tail"] = out.strip().splitlines()[-8:]
        if rec.get("status") != "ok":
            rec["stderr_tail"] = read_text(os.path.join(steps_dir, base + ".err")).strip().splitlines()[-12:]
        steps[base] = rec
    return steps


def epoch_records(log_path):
    """The epoch lines of a run's log.jsonl (the header line has no "epoch")."""
    recs = []
    for line in read_text(log_path).splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and "epoch" in rec and "seconds" in rec:
            recs.append(rec)
    return recs


def epoch_seconds(log_path):
    """The seconds of each epoch in a run's log.jsonl."""
    return [r["seconds"] for r in epoch_records(log_path)]


def median_after_first(secs):
    """The median of the epochs after the first (which compiles), else of all."""
    later = sorted(secs[1:]) or sorted(secs)
    return later[len(later) // 2] if later else None


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def epoch_pattern(steps, work):
    """gexph's full PATTERN epochs (the epoch-pattern step): read from the run's log,
    so that a run cut short by its budget still reports its complete epochs; compile
    time and shapes from its result.json where gexph writes them (else null)."""
    if "epoch-pattern" not in steps:
        return None
    run = os.path.join(work, "run-epoch-pattern")
    recs = epoch_records(os.path.join(run, "log.jsonl"))
    secs = [r["seconds"] for r in recs]
    res = (steps["epoch-pattern"].get("result") or {}) or read_json(os.path.join(run, "result.json"))
    return {
        "epochs": len(secs),
        "epoch_seconds": secs,
        "first_epoch_seconds": secs[0] if secs else None,
        "seconds_per_epoch": median_after_first(secs) if len(secs) > 1 else None,
        # gexph evaluates the test split only where validation improved; the paper's
        # code in every epoch
        "test_evaluated": ["test_metric" in r for r in recs],
        "val_metric": recs[-1].get("val_metric") if recs else None,
        "compile_s": res.get("compile_s"),
        "compiled_shapes": res.get("compiled_shapes"),
    }


def reference(steps):
    """The paper's code's figures (the ref-* steps' last JSON lines)."""
    out = {}
    for name, rec in steps.items():
        r = rec.get("result") or {}
        if not name.startswith("ref-") or not r:
            continue
        keep = ("ms_per_step", "step_ms", "seconds_per_epoch", "first_epoch_seconds", "epoch_seconds",
                "epochs", "partial", "steps_per_epoch", "val_metric", "test_metric", "metric_name",
                "graphs", "nodes_per_graph", "edges_per_graph", "batch_nodes", "batch_edges",
                "batch_expander_edges", "params", "export_s", "raw_s", "load_s", "setup_s",
                "peak_torch_mib", "torch", "torch_geometric", "torch_scatter", "python", "device_name")
        out[name[len("ref-"):]] = {k: r[k] for k in keep if k in r}
        out[name[len("ref-"):]]["peak_device_mib"] = rec.get("peak_device_mib")
    return out


def derived(steps, work):
    """Figures read off the steps' results for the report."""
    d = {}
    train = (steps.get("train") or {}).get("result") or {}
    if train:
        secs = epoch_seconds(os.path.join(work, "run-pattern", "log.jsonl"))
        d["train_pattern"] = {
            "epochs": train.get("epochs"),
            "metric": train.get("metric"),
            "val_metric": train.get("val_metric"),
            "test_metric": train.get("test_metric"),
            "run_seconds": train.get("seconds"),
            "first_epoch_seconds": secs[0] if secs else None,
            "seconds_per_epoch": median_after_first(secs),
        }
    gx = (steps.get("attention-gexph") or {}).get("result") or {}
    tc = (steps.get("attention-torch") or {}).get("result") or {}
    gms, tms = gx.get("ms_per_step"), tc.get("ms_per_step")
    if gms and tms:
        d["attention"] = {"gexph_ms": gms, "torch_ms": tms, "torch_over_gexph": tms / gms}
    bench = {}
    for name, rec in steps.items():
        r = rec.get("result") or {}
        if name.startswith("bench-") and r:
            bench[name[len("bench-"):]] = {
                "ms_per_step": r.get("ms_per_step"), "warmup_ms": r.get("warmup_ms"),
                "forward_ms": r.get("forward_ms"), "peak_device_mib": rec.get("peak_device_mib"),
                "graphs": r.get("graphs"), "nodes": r.get("nodes"),
            }
    if bench:
        d["bench"] = bench
    eq = {}
    for name, rec in steps.items():
        r = rec.get("result") or {}
        if name.startswith("equivalence-") and r:
            eq[name[len("equivalence-"):]] = {
                "ok": r.get("ok"), "tolerance": r.get("tolerance"),
                "inference": (r.get("inference") or {}).get("rel_err"),
                "training": (r.get("training") or {}).get("rel_err"),
                "loss": (r.get("loss_diff") or {}).get("rel_err"),
                "worst_gradient": (r.get("worst_gradient") or {}).get("name"),
                "worst_gradient_of_scale": (r.get("worst_gradient") or {}).get("of_scale"),
                "worst_gradient_rel_err": (r.get("worst_gradient") or {}).get("rel_err"),
                "noise": r.get("noise"), "bounds": r.get("bounds"),
            }
    if eq:
        d["equivalence"] = eq
    ep = epoch_pattern(steps, work)
    if ep:
        d["epoch_pattern"] = ep
    ref = reference(steps)
    if ref:
        d["reference"] = ref
    return d


def number(x):
    """x as a float, or None when it is not a finite number."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return None
    return float(x)


def ratio(a, b):
    return a / b if a is not None and b else None


def slug(text):
    """A file-name form of a device name: "NVIDIA H200" -> "nvidia-h200"."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def record(summary, steps, date):
    """The check's record: the figures of issue 39's targets, null where a step did
    not run or gave none, and each step's status."""
    d = summary["derived"]
    bench = d.get("bench") or {}
    ref = d.get("reference") or {}
    ep = d.get("epoch_pattern") or {}

    def bench_ms(name):
        return number((bench.get(name) or {}).get("ms_per_step"))

    build = summary["bundle"].split(";")[0].strip()
    rec = {
        "commit": build[len("commit "):] if build.startswith("commit ") else None,
        "device": summary["device"] or ("dry run (go backend, CPU)" if summary["dryrun"] else ""),
        "driver": summary["driver"],
        "plugin_version": summary["plugin_version"],
        "date": date,
        "dryrun": summary["dryrun"],
        "pattern_step_ms": bench_ms("pattern"),
        "pattern_epoch_s": number(ep.get("seconds_per_epoch")),
        "pattern_first_epoch_s": number(ep.get("first_epoch_seconds")),
        "reference_pattern_step_ms": number((ref.get("pattern-step") or {}).get("ms_per_step")),
        "reference_pattern_epoch_s": number((ref.get("pattern-epoch") or {}).get("seconds_per_epoch")),
        "reference_pattern_first_epoch_s": number((ref.get("pattern-epoch") or {}).get("first_epoch_seconds")),
        "compile_s": number(ep.get("compile_s")),
        "compiled_shapes": ep.get("compiled_shapes") if isinstance(ep.get("compiled_shapes"), int) else None,
        "cluster_step_ms": bench_ms("cluster"),
        "reference_cluster_step_ms": number((ref.get("cluster-step") or {}).get("ms_per_step")),
        "mnist_step_ms": bench_ms("mnist"),
        "peptides_func_step_ms": bench_ms("peptides"),
    }
    # how many times faster gexph is than the paper's code (issue 39's target: >= 4)
    rec["pattern_step_speedup"] = ratio(rec["reference_pattern_step_ms"], rec["pattern_step_ms"])
    rec["pattern_epoch_speedup"] = ratio(rec["reference_pattern_epoch_s"], rec["pattern_epoch_s"])
    versions = next((r for r in ref.values() if r.get("torch")), {})
    rec["reference_versions"] = ("torch %s, torch_geometric %s, torch_scatter %s, python %s" % (
        versions.get("torch"), versions.get("torch_geometric"), versions.get("torch_scatter"),
        versions.get("python"))) if versions else None
    rec["steps"] = {name: r.get("status") for name, r in sorted(steps.items())}
    return {k: rec.get(k) for k, _ in RECORD_KEYS}


def write_atomic(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1, allow_nan=False)
        f.write("\n")
    os.replace(tmp, path)


def plugin_version():
    for name in ("jax-cuda13-pjrt", "jax-cuda12-pjrt"):
        try:
            return "%s %s" % (name, importlib.metadata.version(name))
        except importlib.metadata.PackageNotFoundError:
            continue
    return ""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--status", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--bundle", required=True)
    p.add_argument("--plugin", default="")
    p.add_argument("--dryrun", action="store_true")
    p.add_argument("--record", default="", help="also write the check's record here")
    a = p.parse_args()
    device = read_text(os.path.join(a.work, "device.txt")).strip().split(",")
    steps = step_records(os.path.join(a.work, "steps"))
    summary = {
        "status": a.status,
        "dryrun": a.dryrun,
        "device": device[0].strip() if device[0] else "",
        "driver": device[1].strip() if len(device) > 1 else "",
        "device_memory": device[2].strip() if len(device) > 2 else "",
        "plugin": a.plugin,
        "plugin_version": plugin_version(),
        "bundle": read_text(os.path.join(a.bundle, "BUILD")).strip().replace("\n", "; "),
        "xla_flags": os.environ.get("XLA_FLAGS", ""),
        "derived": derived(steps, a.work),
        "steps": steps,
    }
    if a.record:
        date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
        rec = record(summary, steps, date)
        write_atomic(a.record, rec)
        summary["record_file"] = "docs/results/gpu/%s-%s.json" % (date, slug(rec["device"]) or "unknown")
    json.dump(summary, sys.stdout, indent=1, allow_nan=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
