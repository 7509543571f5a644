#!/usr/bin/env bash
# Synthesises hw/rtm/rtm.v with Yosys to a generic gate library (2-input gates, MUX, D flip-flops)
# and prints one JSON object per configuration on stdout:
#   {"records": N, "deadlines": 0|1, "flip_flops": n, "cells": n, "logic_depth": n}
# cells counts every cell (flip-flops included); logic_depth is Yosys' longest topological
# path between flip-flops and ports, in gates.
# Usage: hw/rtm/synth.sh [RECORDS...] (default 16 64 256); DEADLINES="0 1" (default) picks the
# variants (1: with the earliest-deadline query).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v yosys >/dev/null || { echo "synth.sh: yosys not found (scripts/setup.sh --rtl installs it)" >&2; exit 1; }
records=("$@")
((${#records[@]})) || records=(16 64 256)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for r in "${records[@]}"; do
    for d in ${DEADLINES:-0 1}; do
        log=$work/$r-$d.log
        yosys -q -l "$log" -p "read_verilog -sv $here/rtm.v; chparam -set RECORDS $r -set DEADLINES $d rtm; synth -flatten -top rtm; abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX; opt_clean; tee -o $work/stat.txt stat; tee -o $work/ltp.txt ltp -noff" >/dev/null
        python3 - "$work/stat.txt" "$work/ltp.txt" "$r" "$d" <<'PY'
import json, re, sys
stat = open(sys.argv[1]).read()
ltp = open(sys.argv[2]).read()
cells = int(re.search(r"Number of cells:\s+(\d+)", stat).group(1))
ffs = sum(int(n) for name, n in re.findall(r"\$_(\w*DFF\w*)_?\s+(\d+)", stat))
depth = int(re.search(r"length=(\d+)", ltp).group(1))
print(json.dumps({"records": int(sys.argv[3]), "deadlines": int(sys.argv[4]),
                  "flip_flops": ffs, "cells": cells, "logic_depth": depth}))
PY
    done
done
