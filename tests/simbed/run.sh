#!/usr/bin/env bash
# The SimBed workloads on every OS Ubik builds (the kernel under each scheduler, NOS, and NOS
# with the RTM): each
# workload's output is checked against a host computation of the same input (check.py).
# Usage: tests/simbed/run.sh        (after `make sim`; part of `make test`)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ubik="$root/sim/target/release/ubik"
here="$root/tests/simbed"
work="$root/build/simbed-tests"
py="${PYTHON:-python3}"
mkdir -p "$work"
pass=0 fail=0

run_one() { # OS SCHED WORKLOAD RATIO TASKS PERIOD_US
    local os=$1 sched=$2 wl=$3 ratio=$4 tasks=$5 period=$6 name="$1-$3"
    [[ $os == ubik ]] && name="$os-$sched-$wl"
    local extra=""
    [[ $os == nos-rtm ]] && extra=', "-DNOS_RTM=1"' # NOS with the RTM (nos/nos.h)
    local app="$work/$name"
    mkdir -p "$app"
    cp "$root"/apps/simbed/*.c "$root"/apps/simbed/*.h "$app/"
    {
        echo "[kernel]"
        if [[ $os == nos* ]]; then echo 'os = "nos"'; else echo "scheduler = \"$sched\""; fi
        echo "[build]"
        echo "cflags = [\"-DSB_WORKLOAD=$wl\", \"-DSB_TASKS=$tasks\", \"-DSB_PERIOD_US=$period\", \"-DSB_RATIO=$ratio\", \"-DSB_RUN_MS=150\"$extra]"
    } > "$app/system.toml.new"
    cmp -s "$app/system.toml.new" "$app/system.toml" || mv "$app/system.toml.new" "$app/system.toml"
    rm -f "$app/system.toml.new"
    if ! UBIK_ROOT="$root" "$ubik" build "$app" > "$app/build.log" 2>&1; then
        echo "FAIL  simbed $name: build"; tail -5 "$app/build.log" | sed 's/^/      /'
        fail=$((fail + 1)); return
    fi
    if ! "$ubik" run "$app/build/app.elf" --machine "$here/machine.toml" --io "$app/io.csv" \
        --max-cycles 100000000 > "$app/console.txt" 2>&1; then
        echo "FAIL  simbed $name: run"; tail -3 "$app/console.txt" | sed 's/^/      /'
        fail=$((fail + 1)); return
    fi
    if out=$("$py" "$here/check.py" "$wl" "$ratio" "$tasks" "$here/input.txt" "$app/io.csv" "$app/console.txt" 2>&1); then
        echo "PASS  simbed $name: $out"; pass=$((pass + 1))
    else
        echo "FAIL  simbed $name: $out"; fail=$((fail + 1))
    fi
}

# Every scheduler the system description knows (one list: sysdesc's policy table).
scheds=$("$ubik" gen --list-schedulers) || { echo "simbed: $ubik gen --list-schedulers failed" >&2; exit 1; }
oses=(nos:- nos-rtm:-)
for s in $scheds; do oses+=("ubik:$s"); done
for os_sched in "${oses[@]}"; do
    os=${os_sched%%:*} sched=${os_sched#*:}
    # The fast job of up/down runs every period / ratio: a multiple of Ubik's 1 ms tick.
    run_one "$os" "$sched" ipc 1 2 2000
    run_one "$os" "$sched" up 4 2 4000
    run_one "$os" "$sched" down 4 2 4000
    run_one "$os" "$sched" fir 1 2 2000
    run_one "$os" "$sched" adpcm_enc 1 2 20000
    run_one "$os" "$sched" adpcm_dec 1 2 20000
done
# NOS's own behaviour (releases relative to the actual start, priorities, polled interrupts).
nos_app="$work/nos-sched"
mkdir -p "$nos_app"
cp "$root"/tests/nos/main.c "$root"/tests/nos/system.toml "$nos_app/"
sed -i "s|-I../firmware|-I$root/tests/firmware|" "$nos_app/system.toml"
if UBIK_ROOT="$root" "$ubik" build "$nos_app" > "$nos_app/build.log" 2>&1 &&
    "$ubik" run "$nos_app/build/app.elf" --machine "$root/tests/nos/machine.toml" > "$nos_app/console.txt" 2>&1; then
    echo "PASS  nos scheduling"; pass=$((pass + 1))
else
    echo "FAIL  nos scheduling"; sed 's/^/      /' "$nos_app/console.txt" "$nos_app/build.log" | tail -8
    fail=$((fail + 1))
fi
echo "simbed tests: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
