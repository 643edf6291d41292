"""Assembles check.json for tools/gpu/check.sh from the steps' records.

Each step left NAME.meta (key=value: status, exit, seconds, peak_device_mib, budget),
NAME.out (what its command printed: gexph's -json output, one JSON object, possibly
indented) and NAME.err in WORK/steps. The summary adds the device facts (nvidia-smi),
the plugin's package version and derived figures: the PATTERN training run's metric
and seconds per epoch, and the PyTorch/gexph attention ratio.
"""

import argparse
import importlib.metadata
import json
import os
import sys


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


def epoch_seconds(log_path):
    """The seconds of each epoch in a run's log.jsonl (the header line has none)."""
    secs = []
    for line in read_text(log_path).splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and "epoch" in rec and "seconds" in rec:
            secs.append(rec["seconds"])
    return secs


def derived(steps, work):
    """Figures read off the steps' results for the report."""
    d = {}
    train = (steps.get("train") or {}).get("result") or {}
    if train:
        secs = epoch_seconds(os.path.join(work, "run-pattern", "log.jsonl"))
        later = sorted(secs[1:]) or secs
        d["train_pattern"] = {
            "epochs": train.get("epochs"),
            "metric": train.get("metric"),
            "val_metric": train.get("val_metric"),
            "test_metric": train.get("test_metric"),
            "run_seconds": train.get("seconds"),
            "first_epoch_seconds": secs[0] if secs else None,
            "seconds_per_epoch": later[len(later) // 2] if later else None,
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
    return d


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
    json.dump(summary, sys.stdout, indent=1, allow_nan=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
