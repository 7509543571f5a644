#!/usr/bin/env bash
# Kernel benchmarks on the testbed -> out/bench/kernel.json (docs/contract.md, "Benchmark
# files"; methods in docs/results.md, "Kernel"). Every bench/kernel/NAME/ (main.c,
# system.toml) is built with `ubik build` under each scheduler it applies to (a copy in
# build/kernel-bench/NAME-SCHED/ with the scheduler line rewritten, as tests/kernel/run.sh
# does) and run; each prints `key value...` lines, kept in build/kernel-bench/results/.
# kernel_json.py turns them, the --io record of the interrupt-latency runs and the link maps
# of the footprint images into the JSON.
# The IPC figures (bench/kernel/ipc, footprint_services) go to ipc.json beside OUT.json.
# Usage: bench/kernel/run.sh [-o OUT.json]      (default out/bench/kernel.json)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ubik="$root/sim/target/release/ubik"
bench="$root/bench/kernel"
work="$root/build/kernel-bench"
res="$work/results"
out="$root/out/bench/kernel.json"
[[ ${1:-} == -o ]] && { out=$2; shift 2; }
py="${PYTHON:-python3}"
mkdir -p "$res"
# Every scheduler: the one list is sysdesc's (Scheduler::ALL), printed by ubik.
all_scheds=$("$ubik" gen --list-schedulers) || { echo "kernel bench: $ubik gen --list-schedulers failed" >&2; exit 1; }
rm -f "$res"/*
fail=0

# build NAME SCHED: prints the ELF's path; the app's copy has the scheduler line replaced.
build() {
    local name=$1 s=$2 app="$work/$1-$2"
    mkdir -p "$app"
    cp "$bench/$name"/*.c "$app/"
    sed -e "s/^scheduler *=.*/scheduler = \"$s\"/" "$bench/$name/system.toml" \
        > "$app/system.toml.new"
    cmp -s "$app/system.toml.new" "$app/system.toml" || mv "$app/system.toml.new" "$app/system.toml"
    rm -f "$app/system.toml.new"
    if ! UBIK_ROOT="$root" "$ubik" build "$app" >"$app/build.log" 2>&1; then
        echo "kernel bench: $name [$s]: build failed" >&2
        tail -20 "$app/build.log" | sed 's/^/    /' >&2
        return 1
    fi
    echo "$app/build/app.elf"
}

# run NAME SCHED [ubik run options]: console output -> results/NAME-SCHED.txt
run() {
    local name=$1 s=$2 elf
    shift 2
    elf=$(build "$name" "$s") || { fail=1; return 1; }
    if ! timeout 600 "$ubik" run "$elf" --max-cycles 4000000000 "$@" >"$res/$name-$s.txt"; then
        echo "kernel bench: $name [$s]: run failed" >&2
        tail -5 "$res/$name-$s.txt" >&2
        fail=1
        return 1
    fi
    echo "$name [$s]: $(tr '\n' ' ' < "$res/$name-$s.txt" | cut -c1-150)"
}

for s in $all_scheds; do run sched "$s"; done
# The rtm policy's figures at other record counts of the RTM (out/bench/rtm.json, made by
# bench/rtm/run.sh from results/sched-rtm-R.txt): the same image, another machine file.
for records in 16 64 256; do
    printf '[rtm]\nrecords = %s\n' "$records" > "$work/rtm-$records.toml"
    if timeout 600 "$ubik" run "$work/sched-rtm/build/app.elf" --machine "$work/rtm-$records.toml" \
        --max-cycles 4000000000 > "$res/sched-rtm-$records.txt"; then
        echo "sched [rtm, $records records]: $(tr '\n' ' ' < "$res/sched-rtm-$records.txt" | cut -c1-150)"
    else
        echo "kernel bench: sched [rtm, $records records]: run failed" >&2
        fail=1
    fi
done
# The cooperative switch needs two tasks of equal priority: not under unique priorities.
for s in $("$ubik" gen --list-schedulers --without unique_priorities); do run coop "$s"; done
run irqoff prio && cp "$res/irqoff-prio.txt" "$res/irqoff.txt"
for s in $all_scheds; do
    if run irqlat "$s" --machine "$bench/irqlat/machine.toml" --io "$work/irqlat-$s.csv"; then
        "$py" "$bench/kernel_json.py" irqlat "$work/irqlat-$s.csv" > "$res/irqlat-$s.lat" || fail=1
        echo "irqlat [$s]: $(tr '\n' ' ' < "$res/irqlat-$s.lat")"
        rm -f "$work/irqlat-$s.csv" # large; rerun to get it back
    fi
done
for name in footprint_min footprint_full; do
    if run "$name" prio; then
        "$py" "$bench/kernel_json.py" footprint "$work/$name-prio/build/app.elf" \
            "$work/$name-prio/build/app.map" > "$res/$name.fp" || fail=1
        echo "$name: $(tr '\n' ' ' < "$res/$name.fp")"
    fi
done

"$py" "$bench/kernel_json.py" collect "$res" -o "$out" || fail=1
echo "kernel bench: wrote $out"

# IPC (docs/results.md, "IPC"): out/bench/ipc.json
ipc_out="$(dirname "$out")/ipc.json"
run ipc prio
if run footprint_services prio; then
    "$py" "$bench/kernel_json.py" services "$work/footprint_services-prio/build/app.map" \
        > "$res/footprint_services.fp" || fail=1
    echo "footprint_services: $(tr '\n' ' ' < "$res/footprint_services.fp")"
fi
"$py" "$bench/kernel_json.py" ipc "$res" -o "$ipc_out" || fail=1
echo "kernel bench: wrote $ipc_out"
exit $fail
