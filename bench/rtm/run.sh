#!/usr/bin/env bash
# The RTM's figures -> out/bench/rtm.json (docs/contract.md, "Benchmark files"):
#   records, flip_flops, cells, logic_depth    the 64-record RTM synthesised (hw/rtm/synth.sh)
#   synthesis                                   every configuration synthesised (16/64/256
#                                               records, with and without the deadline query)
#   sched_overhead_cycles.rtm.R                 the kernel's worst scheduling overhead under
#                                               scheduler "rtm" with R records (the kernel
#                                               benchmark's runs, build/kernel-bench/results)
#   utilisation                                 the RTM experiment's OS utilisation, % of all
#                                               cycles by category, per system, workload and
#                                               channel count, if it has run (out/rtm)
# Run bench/kernel/run.sh first (make bench does). Usage: bench/rtm/run.sh [-o OUT.json]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
hw="$root/hw/rtm" # the Verilog and its synthesis script
out=$root/out/bench/rtm.json
[[ ${1:-} == -o ]] && out=$2
synth=$root/build/rtm-synth.jsonl
mkdir -p "$root/build" "$(dirname "$out")"
# Synthesis takes minutes: its results are kept in build/ and redone when the Verilog or the
# script changes.
if [[ ! -s $synth || $hw/rtm.v -nt $synth || $hw/synth.sh -nt $synth ]]; then
    "$hw/synth.sh" > "$synth.new"
    mv "$synth.new" "$synth"
fi
python3 - "$synth" "$root/build/kernel-bench/results" "$root/out/rtm/variants.csv" "$out" <<'PY'
import json, os, sys
synth_path, results, summary, out = sys.argv[1:5]
synth = [json.loads(l) for l in open(synth_path) if l.strip()]
ref = next(s for s in synth if s["records"] == 64 and s["deadlines"] == 0)
res = {"records": 64, "flip_flops": ref["flip_flops"], "cells": ref["cells"],
       "logic_depth": ref["logic_depth"], "synthesis": synth,
       "sched_overhead_cycles": {"rtm": {}}}
for records in (16, 64, 256):
    path = os.path.join(results, f"sched-rtm-{records}.txt")
    if not os.path.exists(path):
        sys.exit(f"rtm bench: {path} missing (run bench/kernel/run.sh first)")
    worst = [int(l.split()[1]) for l in open(path) if l.startswith("sched_") and not l.startswith("sched_empty")]
    if not worst:
        sys.exit(f"rtm bench: {path} has no sched_ lines")
    res["sched_overhead_cycles"]["rtm"][str(records)] = max(worst)
if os.path.exists(summary):
    import csv
    cats = ["kernel_sched", "kernel_time", "kernel_ipc", "kernel_other", "lisr", "hisr"]
    util = {}
    for r in csv.DictReader(open(summary)):
        total = int(r["cycles"]) or 1
        shares = {c: round(100 * int(r[c + "_cycles"]) / total, 4) for c in cats}
        shares["os_total"] = round(sum(shares.values()), 4)
        util.setdefault(r["system"], {}).setdefault(r["workload"], {})[r["tasks"]] = shares
    res["utilisation"] = util
with open(out, "w") as f:
    json.dump(res, f, indent=2)
    f.write("\n")
print(f"rtm bench: wrote {out}")
PY
