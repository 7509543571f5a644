#!/usr/bin/env bash
# The OS-overhead benchmark (issue 12, seed paper 003) -> out/bench/overhead.json
#     {"ROW": {"basicmath_cycles": c, "basicmath_overhead_pct": p, ...}}
# Rows: bare (no OS), nos-np (NOS: one job beside the background), ubik-SCHED (one task beside
# the background: a 1 ms periodic task, stimulus interrupts through a LISR and a HISR, the
# 1 kHz tick) and ubik-SCHED-quiet (the tick only), for every scheduler `ubik gen
# --list-schedulers` prints. Each (program, row) is one image of overhead.c built with
# `ubik build` (bare metal: an image with os = "nos" whose main never starts NOS, so nothing
# of it is linked) and run with `ubik run --machine machine.toml --stats`; ov_json.py turns the
# console line and the statistics into the table. Files: build/overhead/results/ROW/
# PROGRAM.txt and PROGRAM.stats.json.
# Usage: bench/overhead/run.sh [-o OUT.json]    (default out/bench/overhead.json)
#        bench/overhead/run.sh --check          small inputs: every variant runs and checks
#                                               its results, no JSON
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ubik="$root/sim/target/release/ubik"
src="$root/bench/overhead"
work="$root/build/overhead"
res="$work/results"
out="$root/out/bench/overhead.json"
check=0 scale=4
case ${1:-} in
    -o) out=$2 ;;
    --check) check=1 scale=1 ;;
esac
py="${PYTHON:-python3}"
all_scheds=$("$ubik" gen --list-schedulers) || { echo "overhead: $ubik gen --list-schedulers failed" >&2; exit 1; }
rm -rf "$res"
mkdir -p "$res"
fail=0

# ROW PROGRAM(1|2) NAME BACKGROUND(0|1) BARE(0|1) TOML_LINES...
variant() {
    local row=$1 prog=$2 name=$3 bg=$4 bare=$5 app="$work/$3-$1" f
    shift 5
    mkdir -p "$app" "$res/$row"
    rm -f "$app"/*.c
    cp "$src"/*.c "$src"/*.h "$app/"
    {
        printf '#define OV_PROGRAM %s\n#define OV_SCALE %s\n#define OV_BACKGROUND %s\n' "$prog" "$scale" "$bg"
        [[ $bare == 1 ]] && printf '#define OV_BARE 1\n'
    } > "$app/ov_config.h.new"
    printf '%s\n' "$@" > "$app/system.toml.new"
    for f in ov_config.h system.toml; do
        cmp -s "$app/$f.new" "$app/$f" || mv "$app/$f.new" "$app/$f"
        rm -f "$app/$f.new"
    done
    if ! UBIK_ROOT="$root" "$ubik" build "$app" >"$app/build.log" 2>&1; then
        echo "overhead: $name [$row]: build failed" >&2
        tail -20 "$app/build.log" | sed 's/^/    /' >&2
        fail=1
        return 1
    fi
    local log="$res/$row/$name.txt"
    if ! timeout 300 "$ubik" run "$app/build/app.elf" --machine "$src/machine.toml" \
        --max-cycles 2000000000 --stats "$res/$row/$name.stats.json" >"$log"; then
        echo "overhead: $name [$row]: run failed (the program's own check?)" >&2
        tail -3 "$log" >&2
        fail=1
        return 1
    fi
    echo "[$row] $(grep "^ov $name " "$log")"
}

for p in "1 basicmath" "2 fft"; do
    read -r num name <<<"$p"
    variant bare "$num" "$name" 0 1 "[kernel]" "os = \"nos\""
    variant nos-np "$num" "$name" 1 0 "[kernel]" "os = \"nos\""
    for s in $all_scheds; do
        variant "ubik-$s" "$num" "$name" 1 0 "[kernel]" "scheduler = \"$s\"" "tick_hz = 1000"
        variant "ubik-$s-quiet" "$num" "$name" 0 0 "[kernel]" "scheduler = \"$s\"" "tick_hz = 1000"
    done
done

if [[ $check == 0 ]]; then
    "$py" "$src/ov_json.py" "$res" -o "$out" || fail=1
    [[ $fail == 0 ]] && echo "overhead: wrote $out"
else
    "$py" "$src/ov_json.py" "$res" || fail=1
fi
[[ $fail == 0 ]] || echo "overhead: FAILED" >&2
exit $fail
