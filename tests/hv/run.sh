#!/usr/bin/env bash
# The hypervisor, checked from outside its guests (make test; docs/hypervisor.md):
#   isolation  tests/hv/isolation.toml: partition `bad` breaks one rule per run (bad/main.c,
#              BAD = 1..8: stores into the other partition's and the hypervisor's RAM, a load
#              from the interrupt controller, a store to the timer's compare, a jump into the
#              other partition, a machine CSR, mret, a device it was not given). The hypervisor
#              must report that fault (cause and address) and stop `bad`; `good` must finish
#              with its memory and ticks intact; the run exits 0 (good's status).
#   fuzz       tests/hv/fuzz.toml: a guest makes every bad hypercall by hand and 20,000 random
#              ones; each must return the documented error, and `good` must finish intact.
#              Then a profile of that image must name both guests' functions.
# Usage: tests/hv/run.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$root/tests/hv
ubik=$root/sim/target/release/ubik
work=$root/build/hv-tests
mkdir -p "$work"
machine=$work/machine.toml
printf '[core]\npmp_regions = 16\n' > "$machine"
fail=0 pass=0

# stage DIR DESCRIPTION APPS...: DIR/hypervisor.toml and the guests' directories, kept only
# when changed (so that ubik build rebuilds what changed).
stage() {
    local dir=$1 desc=$2 a
    shift 2
    mkdir -p "$dir"
    cp "$here/$desc" "$dir/hypervisor.toml.new"
    cmp -s "$dir/hypervisor.toml.new" "$dir/hypervisor.toml" || mv "$dir/hypervisor.toml.new" "$dir/hypervisor.toml"
    rm -f "$dir/hypervisor.toml.new"
    for a in "$@"; do
        mkdir -p "$dir/$a"
        for f in "$here/$a"/*; do
            cmp -s "$f" "$dir/$a/$(basename "$f")" || cp "$f" "$dir/$a/"
        done
    done
}

# run NAME DIR: build and run; sets out, rc
run() {
    local name=$1 dir=$2
    if ! UBIK_ROOT="$root" "$ubik" build "$dir" > "$dir/build.log" 2>&1; then
        echo "FAIL  hv $name: build failed"; tail -20 "$dir/build.log" | sed 's/^/      /'
        fail=$((fail + 1)); return 1
    fi
    out=$(timeout 120 "$ubik" run "$dir/build/hv.elf" --machine "$machine" --max-cycles 500000000 2>&1)
    rc=$?
}

verdict() { # NAME WHY
    if [[ -z $2 ]]; then
        echo "PASS  hv $1"; pass=$((pass + 1))
    else
        echo "FAIL  hv $1: $2"; echo "$out" | tail -15 | sed 's/^/      /'; fail=$((fail + 1))
    fi
}

# BAD -> the fault the hypervisor must report for it.
expected_fault() {
    case $1 in
        1) echo "store access fault (mcause 7) at pc * mtval 0x00140000" ;;
        2) echo "store access fault (mcause 7) at pc * mtval 0x00100100" ;;
        3) echo "load access fault (mcause 5) at pc * mtval 0x00050000" ;;
        4) echo "store access fault (mcause 7) at pc * mtval 0x00030008" ;;
        5) echo "instruction access fault (mcause 1) at pc 0x00140080, mtval 0x00140080" ;;
        6) echo "illegal instruction (mcause 2) at pc *" ;;
        7) echo "illegal instruction (mcause 2) at pc *, mtval 0x30200073" ;;
        8) echo "store access fault (mcause 7) at pc * mtval 0x00080000" ;;
    esac
}

for bad in 1 2 3 4 5 6 7 8; do
    dir=$work/isolation$bad
    stage "$dir" isolation.toml good bad
    sed -i "s/-DBAD=[0-9]*/-DBAD=$bad/" "$dir/bad/system.toml"
    run "isolation $bad" "$dir" || continue
    why=""
    [[ $rc -eq 0 ]] || why="exit $rc (expected 0: good's status)"
    [[ $out == *"good: intact after"* ]] || why="${why:+$why; }good did not finish intact"
    want="hv: partition bad stopped: $(expected_fault $bad)"
    # shellcheck disable=SC2053
    grep -q -- "^hv: partition bad stopped: " <<< "$out" && [[ $(grep -- "^hv: partition bad stopped: " <<< "$out") == $want ]] \
        || why="${why:+$why; }no report matching \"$want\""
    [[ $out == *"hv: partition bad faulted"* ]] || why="${why:+$why; }the report does not show bad faulted"
    [[ $out == *"bad: not stopped"* ]] && why="${why:+$why; }bad went on after the fault"
    verdict "isolation $bad" "$why"
done

dir=$work/fuzz
stage "$dir" fuzz.toml good fuzz
if run fuzz "$dir"; then
    why=""
    [[ $rc -eq 0 ]] || why="exit $rc (expected 0)"
    [[ $out == *"fuzz: 25 directed checks, 20000 random calls, 0 surprises"* ]] || why="${why:+$why; }the fuzzer saw surprises"
    [[ $out == *"good: intact after"* ]] || why="${why:+$why; }good did not finish intact"
    [[ $out == *"hv: partition fuzz exited status=0"* ]] || why="${why:+$why; }the fuzzer did not exit normally"
    verdict fuzz "$why"
    # The image names guest code: a profile shows each guest's functions as NAME:function.
    prof=$work/fuzz.profile.csv
    out=$("$ubik" run "$dir/build/hv.elf" --machine "$machine" --max-cycles 500000000 --profile "$prof" 2>&1)
    why=""
    grep -q '^fuzz:fuzz,' "$prof" || why="the profile has no fuzz:fuzz"
    grep -q '^good:uk__tick,' "$prof" || why="${why:+$why; }the profile has no good:uk__tick"
    verdict "guest symbols" "$why"
fi

echo "hv tests: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
