#!/usr/bin/env bash
# Thread-Metric on Ubik (issue 12) -> out/bench/threadmetric.json
#     {"ubik-SCHED": {"basic": cpc, "cooperative": cpc, ...}}   (cpc: cycles per count)
# Each scenario of tm_scenarios.c is one image: a copy of this directory in
# build/threadmetric/SCENARIO-SCHED/ with the scheduler line of system.toml rewritten (as
# kernel/bench/run.sh does) and a tm_config.h naming the scenario, built with `ubik build`
# and run with `ubik run`; the console output is kept in build/threadmetric/results/.
# Schedulers: every one `ubik gen --list-schedulers` prints, where the scenario applies:
# "bitmap" (unique priorities) has no cooperative scenario, "rr" (no priorities) no
# preemptive nor interrupt-preemption scenario.
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
mkdir -p "$res"
rm -f "$res"/*
fail=0

applies() { # SCENARIO SCHED
    case "$2:$1" in
        bitmap:cooperative | rr:preemptive | rr:interrupt_preemption) return 1 ;;
    esac
    return 0
}

run() { # SCENARIO NUMBER SCHED
    local name=$1 num=$2 s=$3 app="$work/$1-$3"
    mkdir -p "$app"
    cp "$src"/*.c "$src"/*.h "$app/"
    sed -e "s/^scheduler *=.*/scheduler = \"$s\"/" "$src/system.toml" > "$app/system.toml.new"
    printf '#define TM_SCENARIO %s\n#define TM_PERIOD_MS %s\n#define TM_PERIODS %s\n' \
        "$num" "$period_ms" "$periods" > "$app/tm_config.h.new"
    for f in system.toml tm_config.h; do # unchanged files keep their time stamps
        cmp -s "$app/$f.new" "$app/$f" || mv "$app/$f.new" "$app/$f"
        rm -f "$app/$f.new"
    done
    if ! UBIK_ROOT="$root" "$ubik" build "$app" >"$app/build.log" 2>&1; then
        echo "threadmetric: $name [$s]: build failed" >&2
        tail -20 "$app/build.log" | sed 's/^/    /' >&2
        fail=1
        return 1
    fi
    if ! timeout 300 "$ubik" run "$app/build/app.elf" --max-cycles 4000000000 \
        >"$res/$name-$s.txt"; then
        echo "threadmetric: $name [$s]: run failed" >&2
        tail -5 "$res/$name-$s.txt" >&2
        fail=1
        return 1
    fi
    local last
    last=$(grep -E "^tm $name count=[1-9][0-9]* " "$res/$name-$s.txt") || {
        echo "threadmetric: $name [$s]: no count" >&2
        fail=1
        return 1
    }
    echo "[$s] $last"
}

for s in $all_scheds; do
    n=0
    for name in $scenarios; do
        n=$((n + 1))
        applies "$name" "$s" && run "$name" "$n" "$s"
    done
done

if [[ $check == 0 ]]; then
    "$py" "$src/tm_json.py" "$res" -o "$out" || fail=1
    echo "threadmetric: wrote $out"
fi
[[ $fail == 0 ]] || echo "threadmetric: FAILED" >&2
exit $fail
