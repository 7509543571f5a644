#!/usr/bin/env bash
# Thread-Metric on every OS of the suite (issue 12) -> out/bench/threadmetric.json
#     {"OS-SCHED": {"basic": cpc, "cooperative": cpc, ...}}   (cpc: cycles per count)
# Rows: ubik-SCHED for every scheduler `ubik gen --list-schedulers` prints, where the scenario
# applies. The scripts choose by the policy table's properties (`--with`/`--without`), never
# by name: a policy with unique priorities ("bitmap", "rtm") has no cooperative scenario; one
# without priority preemption ("rr", which ignores priorities, and "coop") no preemptive nor
# interrupt-preemption scenario; one that never preempts at all, neither by priority nor by
# time slice ("coop"), only the cooperative one: in the others the reporting task must
# preempt. Then nos-np (NOS, non-preemptive: basic,
# cooperative and interrupt, tm_nos.c); freertos-prio when FREERTOS_KERNEL_PATH names
# a FreeRTOS-Kernel checkout (bench/freertos/build.sh; without one this script says how to get
# the rows and goes on), with one more key, memory_free_list (a bare free list instead of
# heap_4). Each scenario is one image: its sources copied to build/threadmetric/SCENARIO-ROW/
# with a tm_config.h naming the scenario (and, for Ubik and NOS, a system.toml), built with
# `ubik build` (Ubik, NOS) or bench/freertos/build.sh (FreeRTOS). Each runs with `ubik run`; its console output is kept in
# build/threadmetric/results/ROW/SCENARIO.txt.
# The suite's self-check: basic processing measures the machine, not the OS, so its cpc must
# agree across every row within 1 % (tm_json.py checks it). --check's windows are too short
# for that (about 30 passes each: counting whole passes alone moves a row by up to two, 6.7 %),
# so there the tolerance is two passes of the row with the fewest; the line it prints names
# the tolerance that applied, why, and the rows' actual spread.
# Usage: bench/threadmetric/run.sh [-o OUT.json]    (default out/bench/threadmetric.json)
#        bench/threadmetric/run.sh --check          short periods; checks every scenario
#                                                   exits 0 with a non-zero count, no JSON
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ubik="$root/sim/target/release/ubik"
src="$root/bench/threadmetric"
work="$root/build/threadmetric"
res="$work/results"
out="$root/out/bench/threadmetric.json"
check=0
period_ms=50 periods=5
case ${1:-} in
    -o) out=$2 ;;
    --check) check=1 period_ms=5 periods=2 ;;
esac
py="${PYTHON:-python3}"
scenarios="basic cooperative preemptive interrupt interrupt_preemption message synchronization memory"
all_scheds=$("$ubik" gen --list-schedulers) || { echo "threadmetric: $ubik gen --list-schedulers failed" >&2; exit 1; }
shared_prio_scheds=$("$ubik" gen --list-schedulers --without unique_priorities) || exit 1
prio_preempt_scheds=$("$ubik" gen --list-schedulers --with priority_preemption) || exit 1
never_preempt_scheds=$("$ubik" gen --list-schedulers --without priority_preemption --without time_slices) || exit 1
rm -rf "$res"
mkdir -p "$res"
fail=0

in_list() { grep -qxF "$1" <<< "$2"; } # WORD LIST (one a line)

applies() { # SCENARIO SCHED
    case $1 in
        cooperative) in_list "$2" "$shared_prio_scheds" ;; # equal priorities yield to each other
        preemptive | interrupt_preemption) in_list "$2" "$prio_preempt_scheds" ;;
        *) ! in_list "$2" "$never_preempt_scheds" ;; # the reporting task would never run
    esac
}

# An application directory for SCENARIO (number NUM) from FILES of this directory and a
# tm_config.h, which keeps its time stamp when unchanged.
stage() { # DIR NUM FILES...
    local app=$1 num=$2 f
    shift 2
    mkdir -p "$app"
    rm -f "$app"/*.c "$app"/*.h.copy
    for f in "$@"; do cp "$src/$f" "$app/"; done
    printf '#define TM_SCENARIO %s\n#define TM_PERIOD_MS %s\n#define TM_PERIODS %s\n' \
        "$num" "$period_ms" "$periods" > "$app/tm_config.h.new"
    cmp -s "$app/tm_config.h.new" "$app/tm_config.h" || mv "$app/tm_config.h.new" "$app/tm_config.h"
    rm -f "$app/tm_config.h.new"
}

# `ubik build` APP with a system.toml of TOML_LINES.
build_ubik() { # APP ROW NAME TOML_LINES...
    local app=$1 row=$2 name=$3
    shift 3
    printf '%s\n' "$@" > "$app/system.toml.new"
    cmp -s "$app/system.toml.new" "$app/system.toml" || mv "$app/system.toml.new" "$app/system.toml"
    rm -f "$app/system.toml.new"
    if ! UBIK_ROOT="$root" "$ubik" build "$app" >"$app/build.log" 2>&1; then
        echo "threadmetric: $name [$row]: build failed" >&2
        tail -20 "$app/build.log" | sed 's/^/    /' >&2
        fail=1
        return 1
    fi
}

# Run ELF; its console goes to results/ROW/KEY.txt and must end in SCENARIO's summary line.
measure() { # ROW KEY SCENARIO ELF
    local row=$1 key=$2 name=$3 elf=$4 log="$res/$1/$2.txt" last
    mkdir -p "$res/$row"
    if ! timeout 300 "$ubik" run "$elf" --max-cycles 4000000000 >"$log"; then
        echo "threadmetric: $key [$row]: run failed" >&2
        tail -5 "$log" >&2
        fail=1
        return 1
    fi
    last=$(grep -E "^tm $name count=[1-9][0-9]* " "$log") || {
        echo "threadmetric: $key [$row]: no count" >&2
        fail=1
        return 1
    }
    echo "[$row] $key: ${last#tm }"
}

run_ubik() { # SCENARIO NUMBER SCHED
    local name=$1 num=$2 s=$3 app="$work/$1-$3"
    stage "$app" "$num" tm_scenarios.c tm_ubik.c tm_port.h tm_basic.h
    build_ubik "$app" "ubik-$s" "$name" "[kernel]" "scheduler = \"$s\"" "tick_hz = 1000" || return 1
    measure "ubik-$s" "$name" "$name" "$app/build/app.elf"
}

# NOS (os = "nos"): the scenarios tm_nos.c has (basic, cooperative, interrupt).
run_nos() { # SCENARIO NUMBER
    local name=$1 num=$2 app="$work/$1-nos"
    stage "$app" "$num" tm_nos.c tm_basic.h
    build_ubik "$app" nos-np "$name" "[kernel]" "os = \"nos\"" || return 1
    measure nos-np "$name" "$name" "$app/build/app.elf"
}

run_freertos() { # KEY SCENARIO NUMBER [TM_CFLAGS]
    local key=$1 name=$2 num=$3 app="$work/freertos-$1"
    stage "$app" "$num" tm_scenarios.c tm_port.h tm_basic.h
    if ! TM_CFLAGS="${4:-}" "$root/bench/freertos/build.sh" "$app" "$app/build/app.elf" \
        >"$app/build.log" 2>&1; then
        echo "threadmetric: $key [freertos-prio]: build failed" >&2
        tail -20 "$app/build.log" | sed 's/^/    /' >&2
        fail=1
        return 1
    fi
    measure freertos-prio "$key" "$name" "$app/build/app.elf"
}

for s in $all_scheds; do
    n=0
    for name in $scenarios; do
        n=$((n + 1))
        applies "$name" "$s" && run_ubik "$name" "$n" "$s"
    done
done

run_nos basic 1
run_nos cooperative 2
run_nos interrupt 4

if [[ -n ${FREERTOS_KERNEL_PATH:-} ]]; then
    n=0
    for name in $scenarios; do
        n=$((n + 1))
        run_freertos "$name" "$name" "$n"
    done
    run_freertos memory_free_list memory 8 -DTM_FREERTOS_FREE_LIST
else
    echo "threadmetric: no FreeRTOS rows: set FREERTOS_KERNEL_PATH to a FreeRTOS-Kernel checkout" \
         "(git clone -b V11.1.0 https://github.com/FreeRTOS/FreeRTOS-Kernel) to add them"
fi

if [[ $check == 0 ]]; then
    "$py" "$src/tm_json.py" "$res" -o "$out" || fail=1
    [[ $fail == 0 ]] && echo "threadmetric: wrote $out"
else
    "$py" "$src/tm_json.py" "$res" || fail=1 # the self-check only
fi
[[ $fail == 0 ]] || echo "threadmetric: FAILED" >&2
exit $fail
