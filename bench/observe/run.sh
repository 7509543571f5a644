#!/usr/bin/env bash
# The observers' cost (docs/observe.md, "Cost"): runs FIRMWARE with no observer, with the
# energy and attribution observer (--energy) and with the trace observer (--trace), ROUNDS
# times each, interleaved (so that a busy host slows all three alike), and writes the best
# MIPS of each to OUT.json: {"mips_bare": .., "mips_energy": .., "mips_trace": ..}.
# Usage: bench/observe/run.sh FIRMWARE.elf OUT.json [ROUNDS (default 3)]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ubik="$root/ubik"
fw=${1:?usage: bench/observe/run.sh FIRMWARE.elf OUT.json [ROUNDS]}
out=${2:?usage: bench/observe/run.sh FIRMWARE.elf OUT.json [ROUNDS]}
rounds=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((i = 0; i < rounds; i++)); do
    "$ubik" run "$fw" --stats "$tmp/bare.$i.json" --no-energy >/dev/null
    "$ubik" run "$fw" --stats "$tmp/energy.$i.json" >/dev/null
    "$ubik" run "$fw" --stats "$tmp/trace.$i.json" --trace "$tmp/trace.$i.trace.json" >/dev/null
done
python3 - "$tmp" "$rounds" "$out" <<'PY'
import json, sys
tmp, rounds, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def best(kind):
    return max(json.load(open(f"{tmp}/{kind}.{i}.json"))["mips"] for i in range(rounds))
r = {"mips_bare": best("bare"), "mips_energy": best("energy"), "mips_trace": best("trace")}
with open(out, "w") as f:
    json.dump(r, f, indent=2)
    f.write("\n")
print(f"observe: {r['mips_bare']:.1f} MIPS bare, {r['mips_energy']:.1f} with --energy "
      f"({100 * (1 - r['mips_energy'] / r['mips_bare']):.1f} % slower), {r['mips_trace']:.1f} "
      f"with --trace ({100 * (1 - r['mips_trace'] / r['mips_bare']):.1f} % slower) -> {out}")
PY
