#!/usr/bin/env bash
# Rhealstone by GPIO edges (issue 12) -> out/bench/rhealstone.json
#     {"OS-SCHED": {"task_switch": c, "task_switch_min": c, "task_switch_max": c, ...}}
# (c: cycles, the mean over the samples; a figure that does not apply is absent).
# Each figure of rhealstone.c (rh_nos.c on NOS) is one image, built like Thread-Metric's
# (bench/threadmetric/run.sh: `ubik build` for Ubik and NOS, bench/freertos/build.sh for
# FreeRTOS when FREERTOS_KERNEL_PATH names a checkout) and run with `ubik run --io`; rh_json.py
# pairs the rising edges of GPIO pins 2 (start) and 3 (end) in the IO record and checks them
# against the mcycle differences the firmware prints. Files: build/rhealstone/results/ROW/
# FIGURE.txt (console) and FIGURE.io.csv.
# Rows: ubik-SCHED for every scheduler where the figure applies, chosen by the policy table's
# properties (`ubik gen --list-schedulers --with/--without`), never by name: task_switch needs
# equal priorities (not "bitmap" or "rtm": unique_priorities); interrupt_latency applies to
# every policy; the others need preemption by priority (not "rr" or "coop":
# priority_preemption). Then nos-np (task_switch and interrupt_latency), freertos-prio (all).
# Usage: bench/rhealstone/run.sh [-o OUT.json]     (default out/bench/rhealstone.json)
#        bench/rhealstone/run.sh --check           20 samples per figure, checks only
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ubik="$root/sim/target/release/ubik"
src="$root/bench/rhealstone"
tm="$root/bench/threadmetric"
work="$root/build/rhealstone"
res="$work/results"
out="$root/out/bench/rhealstone.json"
check=0 samples=200
case ${1:-} in
    -o) out=$2 ;;
    --check) check=1 samples=20 ;;
esac
py="${PYTHON:-python3}"
figures="task_switch preemption interrupt_latency semaphore_shuffle deadlock_break message_latency"
all_scheds=$("$ubik" gen --list-schedulers) || { echo "rhealstone: $ubik gen --list-schedulers failed" >&2; exit 1; }
shared_prio_scheds=$("$ubik" gen --list-schedulers --without unique_priorities) || exit 1
prio_preempt_scheds=$("$ubik" gen --list-schedulers --with priority_preemption) || exit 1
rm -rf "$res"
mkdir -p "$res"
fail=0

in_list() { grep -qxF "$1" <<< "$2"; } # WORD LIST (one a line)

applies() { # FIGURE SCHED
    case $1 in
        task_switch) in_list "$2" "$shared_prio_scheds" ;; # between tasks of equal priority
        interrupt_latency) return 0 ;;
        *) in_list "$2" "$prio_preempt_scheds" ;; # the others need preemption by priority
    esac
}

stage() { # APP NUM FILES... (paths)
    local app=$1 num=$2 f
    shift 2
    mkdir -p "$app"
    rm -f "$app"/*.c
    for f in "$@"; do cp "$f" "$app/"; done
    printf '#define RH_FIGURE %s\n#define RH_SAMPLES %s\n' "$num" "$samples" > "$app/rh_config.h.new"
    cmp -s "$app/rh_config.h.new" "$app/rh_config.h" || mv "$app/rh_config.h.new" "$app/rh_config.h"
    rm -f "$app/rh_config.h.new"
}

build_ubik() { # APP ROW FIGURE TOML_LINES...
    local app=$1 row=$2 name=$3
    shift 3
    printf '%s\n' "$@" > "$app/system.toml.new"
    cmp -s "$app/system.toml.new" "$app/system.toml" || mv "$app/system.toml.new" "$app/system.toml"
    rm -f "$app/system.toml.new"
    if ! UBIK_ROOT="$root" "$ubik" build "$app" >"$app/build.log" 2>&1; then
        echo "rhealstone: $name [$row]: build failed" >&2
        tail -20 "$app/build.log" | sed 's/^/    /' >&2
        fail=1
        return 1
    fi
}

measure() { # ROW FIGURE ELF
    local row=$1 name=$2 elf=$3 log="$res/$1/$2.txt"
    mkdir -p "$res/$row"
    if ! timeout 300 "$ubik" run "$elf" --max-cycles 2000000000 --io "$res/$row/$name.io.csv" >"$log"; then
        echo "rhealstone: $name [$row]: run failed" >&2
        tail -5 "$log" >&2
        fail=1
        return 1
    fi
    grep -q "^rh $name done samples=$samples\$" "$log" || {
        echo "rhealstone: $name [$row]: no results" >&2
        fail=1
        return 1
    }
    echo "[$row] $name: $samples samples"
}

for s in $all_scheds; do
    n=0
    for name in $figures; do
        n=$((n + 1))
        applies "$name" "$s" || continue
        app="$work/$name-$s"
        stage "$app" "$n" "$src/rhealstone.c" "$tm/tm_ubik.c" "$tm/tm_port.h"
        build_ubik "$app" "ubik-$s" "$name" "[kernel]" "scheduler = \"$s\"" "tick_hz = 1000" &&
            measure "ubik-$s" "$name" "$app/build/app.elf"
    done
done

for fig in "task_switch 1" "interrupt_latency 3"; do
    read -r name n <<<"$fig"
    app="$work/$name-nos"
    stage "$app" "$n" "$src/rh_nos.c"
    build_ubik "$app" nos-np "$name" "[kernel]" "os = \"nos\"" && measure nos-np "$name" "$app/build/app.elf"
done

if [[ -n ${FREERTOS_KERNEL_PATH:-} ]]; then
    n=0
    for name in $figures; do
        n=$((n + 1))
        app="$work/$name-freertos"
        stage "$app" "$n" "$src/rhealstone.c" "$tm/tm_port.h"
        if "$root/bench/freertos/build.sh" "$app" "$app/build/app.elf" >"$app/build.log" 2>&1; then
            measure freertos-prio "$name" "$app/build/app.elf"
        else
            echo "rhealstone: $name [freertos-prio]: build failed" >&2
            tail -20 "$app/build.log" | sed 's/^/    /' >&2
            fail=1
        fi
    done
else
    echo "rhealstone: no FreeRTOS rows: set FREERTOS_KERNEL_PATH to a FreeRTOS-Kernel checkout" \
         "(git clone -b V11.1.0 https://github.com/FreeRTOS/FreeRTOS-Kernel) to add them"
fi

if [[ $check == 0 ]]; then
    "$py" "$src/rh_json.py" "$res" -o "$out" || fail=1
    [[ $fail == 0 ]] && echo "rhealstone: wrote $out"
else
    "$py" "$src/rh_json.py" "$res" || fail=1
fi
[[ $fail == 0 ]] || echo "rhealstone: FAILED" >&2
exit $fail
