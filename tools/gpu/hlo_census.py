#!/usr/bin/env python3
"""Counts the kernels of XLA's optimised HLO: what a GPU launches per call of a program.

    python3 tools/gpu/hlo_census.py DUMP_DIR [...]   # prints one JSON object

DUMP_DIR is what XLA_FLAGS=--xla_dump_to=DIR --xla_dump_hlo_as_text writes: for each
compiled module, *after_optimizations.txt holds the program as the GPU runs it. In its
ENTRY computation each instruction other than parameters, constants, tuples and bitcasts
is (about) one kernel launch: a fusion (elementwise work fused into one kernel), a
library call (cuBLAS matrix products: custom-call), a scatter, a gather left unfused, a
copy, a sort. The census counts them by opcode, fusions by kind, library calls by target,
per module, the largest module first; it needs nothing but Python 3.
"""
import json
import os
import re
import sys

# Instructions that launch nothing: arguments, values, tuples and views.
NOT_KERNELS = {"parameter", "constant", "tuple", "get-tuple-element", "bitcast", "after-all",
               "partition-id", "replica-id", "opt-barrier", "add-dependency"}

INSTRUCTION = re.compile(r"^\s*(?:ROOT\s+)?%?[\w.\-]+\s*=\s*(.*)$")


def opcode_of(rest):
    """The opcode of an instruction's right-hand side: its shape, then `opcode(`."""
    i = 0
    if rest.startswith("("):  # a tuple shape: skip to its matching parenthesis
        depth = 0
        for i, c in enumerate(rest):
            depth += c == "("
            depth -= c == ")"
            if depth == 0:
                break
        i += 1
    else:
        i = rest.find(" ")
    m = re.match(r"\s*([\w\-]+)\(", rest[i:])
    return m.group(1) if m else None


def entry_lines(text):
    """The lines of the ENTRY computation of an HLO module's text."""
    lines, inside = [], False
    for line in text.splitlines():
        if line.startswith("ENTRY "):
            inside = True
            continue
        if inside:
            if line.startswith("}"):
                break
            lines.append(line)
    return lines


def census(text):
    """Kernels of one module's ENTRY computation, by opcode, fusion kind and call target."""
    by_opcode, fusion_kinds, targets = {}, {}, {}
    for line in entry_lines(text):
        m = INSTRUCTION.match(line)
        if not m:
            continue
        op = opcode_of(m.group(1))
        if op is None or op in NOT_KERNELS:
            continue
        by_opcode[op] = by_opcode.get(op, 0) + 1
        if op == "fusion":
            k = re.search(r"kind=(\w+)", line)
            kind = k.group(1) if k else "?"
            fusion_kinds[kind] = fusion_kinds.get(kind, 0) + 1
        if op == "custom-call":
            t = re.search(r'custom_call_target="([^"]+)"', line)
            target = t.group(1) if t else "?"
            targets[target] = targets.get(target, 0) + 1
    return {"kernels": sum(by_opcode.values()), "by_opcode": dict(sorted(by_opcode.items(), key=lambda kv: -kv[1])),
            "fusion_kinds": fusion_kinds, "custom_call_targets": targets}


def main(dirs):
    modules = []
    for d in dirs:
        for name in sorted(os.listdir(d)):
            if not name.endswith("after_optimizations.txt"):
                continue
            with open(os.path.join(d, name), encoding="utf-8", errors="replace") as f:
                c = census(f.read())
            c["module"] = name
            modules.append(c)
    modules.sort(key=lambda c: -c["kernels"])
    json.dump({"modules": modules}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: hlo_census.py DUMP_DIR [...]")
    main(sys.argv[1:])
