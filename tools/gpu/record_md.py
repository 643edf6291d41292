#!/usr/bin/env python3
"""Prints the Results subsection of docs/GPU.md for one check's record.

    python3 tools/gpu/record_md.py docs/results/gpu/YYYY-MM-DD-DEVICE.json

The record is what tools/gpu/summary.py wrote as $OUT/record.json (docs/GPU.md, "A
record per check"). The table sets gexph beside the paper's code and issue 39's targets;
a figure that the check did not measure is "not measured".
"""
import json
import sys

# Issue 39's targets: today's figures (H100) and the bound each must reach.
TARGETS = {
    "pattern_step_ms": "≤ 10 ms (77 ms before)",
    "pattern_epoch_s": "≤ 6 s (42 s before, H200)",
    "compile": "≤ 6 shapes in ≤ 30 s",
    "cluster_step_ms": "≤ 27.8 ms (¼ of 111)",
    "mnist_step_ms": "≤ 4.2 ms (¼ of 16.7)",
    "peptides_func_step_ms": "≤ 10.9 ms (¼ of 43.7)",
    "speedup": "≥ 4×",
}


def fmt(x, unit, digits=1):
    if x is None:
        return "not measured"
    return "%.*f %s" % (digits, x, unit) if unit else "%.*f" % (digits, x)


def times(x):
    return "not measured" if x is None else "%.1f×" % x


def markdown(r):
    """The subsection for record r (a dict with summary.py's RECORD_KEYS)."""
    shapes = r.get("compiled_shapes")
    compiled = ("%s in %s" % ("not counted" if shapes is None else "%d shapes" % shapes, fmt(r.get("compile_s"), "s"))
                if shapes is not None or r.get("compile_s") is not None else "not measured")
    rows = [
        ("PATTERN training step (32 graphs)", fmt(r.get("pattern_step_ms"), "ms"),
         fmt(r.get("reference_pattern_step_ms"), "ms"), times(r.get("pattern_step_speedup")),
         "%s; %s" % (TARGETS["pattern_step_ms"], TARGETS["speedup"])),
        ("PATTERN epoch (10,000 training graphs, validation and test; median after the first)",
         fmt(r.get("pattern_epoch_s"), "s", 2), fmt(r.get("reference_pattern_epoch_s"), "s", 2),
         times(r.get("pattern_epoch_speedup")), "%s; %s" % (TARGETS["pattern_epoch_s"], TARGETS["speedup"])),
        ("its first epoch (data, preprocessing, compiling)", fmt(r.get("pattern_first_epoch_s"), "s"),
         fmt(r.get("reference_pattern_first_epoch_s"), "s"), "", ""),
        ("compiling, the whole PATTERN run", compiled, "none (eager)", "", TARGETS["compile"]),
        ("CLUSTER training step", fmt(r.get("cluster_step_ms"), "ms"), fmt(r.get("reference_cluster_step_ms"), "ms"),
         "", TARGETS["cluster_step_ms"]),
        ("MNIST training step", fmt(r.get("mnist_step_ms"), "ms"), "", "", TARGETS["mnist_step_ms"]),
        ("Peptides-func training step", fmt(r.get("peptides_func_step_ms"), "ms"), "", "",
         TARGETS["peptides_func_step_ms"]),
    ]
    out = ["### %s, %s (bundle %s)" % (r.get("date"), r.get("device") or "unknown device", r.get("commit") or "unknown"), ""]
    facts = []
    if r.get("driver"):
        facts.append("driver %s" % r["driver"])
    if r.get("plugin_version"):
        facts.append("plugin %s" % r["plugin_version"])
    if r.get("reference_versions"):
        facts.append("the paper's code on %s" % r["reference_versions"])
    if facts:
        line = "; ".join(facts) + "."
        out += [line[0].upper() + line[1:], ""]
    out += ["| | gexph | the paper's code | gexph's speed-up | target |", "|---|---|---|---|---|"]
    out += ["| %s |" % " | ".join(row) for row in rows]
    steps = r.get("steps") or {}
    bad = sorted(name for name, status in steps.items() if status != "ok")
    out += ["", "Steps: %d ran, %s." % (len(steps), "all passed" if not bad else
                                         "not passed: " + ", ".join("%s (%s)" % (n, steps[n]) for n in bad))]
    if r.get("dryrun"):
        out += ["", "A dry run (go backend, CPU): plumbing, not timings."]
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: record_md.py RECORD.json")
    try:
        with open(sys.argv[1]) as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit("record_md.py: %s: %s" % (sys.argv[1], e))
    if not isinstance(r, dict):
        raise SystemExit("record_md.py: %s: not a JSON object" % sys.argv[1])
    sys.stdout.write(markdown(r))


if __name__ == "__main__":
    main()
