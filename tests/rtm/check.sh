#!/usr/bin/env bash
# Checks hw/rtm/rtm.v against the testbed's model of the RTM (sim/crates/machine/src/dev/rtm.rs):
# random access sequences with the model's answers (the rtm_vectors example) played to the
# Verilog under Icarus Verilog by the testbench beside this script (rtm_tb.v), at 16, 64 and
# 256 records; then checks that Yosys synthesises the smallest one. Exit 0 when every read and
# every refusal agrees.
# Usage: tests/rtm/check.sh [VECTORS] (default 20000; a tenth of that at 256 records)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rtl="$root/hw/rtm/rtm.v" # the device under test; its testbench, rtm_tb.v, is here
count=${1:-20000}
for tool in iverilog vvp yosys; do
    command -v $tool >/dev/null || { echo "tests/rtm/check.sh: $tool not found (scripts/setup.sh --test installs it)" >&2; exit 1; }
done
cargo=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
(cd "$root/sim" && "$cargo" build --release -q -p machine --example rtm_vectors)
vectors=$root/sim/target/release/examples/rtm_vectors
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for records in 16 64 256; do
    n=$count
    ((records < 256)) || n=$((count / 10))
    levels=$(python3 -c "import math; print(math.ceil(math.log2($records)))")
    query_cycles=$(((levels + 2) / 3)) # the machine file's default: 3 levels a cycle
    for seed in 1 2; do
        "$vectors" "$records" "$seed" "$n" >"$work/v.hex"
        iverilog -g2005 -o "$work/tb" -Prtm_tb.RECORDS="$records" \
            -Prtm_tb.QUERY_CYCLES="$query_cycles" "$rtl" "$here/rtm_tb.v"
        result=$(vvp -n "$work/tb" +vectors="$work/v.hex" | tail -1)
        echo "rtm rtl: $records records, seed $seed: $result"
        [[ $result == PASS* ]] || status=1
    done
done
if yosys -q -p "read_verilog -sv $rtl; chparam -set RECORDS 16 rtm; synth -flatten -top rtm" >"$work/yosys.log" 2>&1; then
    echo "rtm rtl: synthesises (16 records)"
else
    cat "$work/yosys.log" >&2
    echo "rtm rtl: Yosys failed" >&2
    status=1
fi
exit $status
