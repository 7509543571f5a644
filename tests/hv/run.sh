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
#   issue 28   descriptions that ran for ever (rt alone, no minimum share, turns shorter than
#              a switch on a slow clock) must run to their end; bad ones (turns under 100 us,
#              a partition or the hypervisor too large for its ram_kib, a long or dotted
#              name) must give one line at FILE:LINE:COL, exit 65; the hypervisor experiment
#              must run nothing its file says (a directory or load named `$(touch PWNED)`).
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

# stage_text DIR TEXT APPS...: DIR/hypervisor.toml holding TEXT, and the guests' directories,
# each kept only when changed (so that ubik build rebuilds what changed).
stage_text() {
    local dir=$1 text=$2 a f
    shift 2
    mkdir -p "$dir"
    printf '%s' "$text" > "$dir/hypervisor.toml.new"
    cmp -s "$dir/hypervisor.toml.new" "$dir/hypervisor.toml" || mv "$dir/hypervisor.toml.new" "$dir/hypervisor.toml"
    rm -f "$dir/hypervisor.toml.new"
    for a in "$@"; do
        mkdir -p "$dir/$a"
        for f in "$here/$a"/*; do
            cmp -s "$f" "$dir/$a/$(basename "$f")" || cp "$f" "$dir/$a/"
        done
    done
}

# stage DIR DESCRIPTION APPS...: as stage_text, with the description tests/hv/DESCRIPTION
# (read whole: $(...) would drop its last line end).
stage() {
    local dir=$1 text
    text=$(cat "$here/$2"; printf x)
    shift 2
    stage_text "$dir" "${text%x}" "$@"
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

# ---- Descriptions that once ran for ever or failed in other words (issue 28).

# Runs that must reach their end (good's exit, 0): the rt policy with one partition and with
# no minimum share (a plan with no deadline left the reset compare firing for ever), and
# 100 us turns on a 5 MHz core (shorter than a switch there: the hypervisor lengthens them).
slow=$work/slow.toml
printf '[core]\npmp_regions = 16\n\n[[opp]]\nhz = 5000000\nvolts = 1.2\n' > "$slow"
for case in rt-alone rt-no-share short-turns; do
    dir=$work/$case
    m=$machine
    case $case in
        rt-alone) text=$'[hypervisor]\npolicy = "rt"\nrun_until = "good"\n[partition.good]\napp = "good"\nrealtime = true\n' ;;
        rt-no-share) text=$'[hypervisor]\npolicy = "rt"\nmin_share = 0\nrun_until = "good"\n[partition.good]\napp = "good"\nrealtime = true\n[partition.other]\napp = "good"\n' ;;
        short-turns) text=$'[hypervisor]\nslice_us = 100\nrun_until = "good"\n[partition.good]\napp = "good"\n[partition.other]\napp = "good"\n'; m=$slow ;;
    esac
    stage_text "$dir" "$text" good
    if ! UBIK_ROOT="$root" "$ubik" build "$dir" > "$dir/build.log" 2>&1; then
        echo "FAIL  hv $case: build failed"; tail -20 "$dir/build.log" | sed 's/^/      /'
        fail=$((fail + 1)); continue
    fi
    out=$(timeout 60 "$ubik" run "$dir/build/hv.elf" --machine "$m" --max-cycles 40000000 2>&1)
    rc=$?
    why=""
    [[ $rc -eq 0 ]] || why="exit $rc (expected 0: good's status)"
    [[ $out == *"hv: partition good exited status=0"* ]] || why="${why:+$why; }good did not finish (exit status 0)"
    verdict "$case" "$why"
done

# Bad descriptions: exit 65 (66: no application there) and exactly one line,
# `ubik: FILE:LINE:COL: ...`, at the value.
# CASE|TEXT (printf %b)|LINE:COL|words the message must hold|exit code (65 if none)
long_name=$(printf 'p%.0s' {1..3000})
while IFS='|' read -r case text at words code; do
    dir=$work/bad-$case
    stage_text "$dir" "$(printf '%b' "$text")" good
    out=$(UBIK_ROOT="$root" timeout 120 "$ubik" build "$dir" 2>&1 >/dev/null)
    rc=$?
    why=""
    [[ $rc -eq ${code:-65} ]] || why="exit $rc (expected ${code:-65})"
    [[ $(wc -l <<< "$out") -eq 1 ]] || why="${why:+$why; }$(wc -l <<< "$out") lines on stderr (expected one)"
    [[ $out == "ubik: $dir/hypervisor.toml:$at: "*"$words"* ]] \
        || why="${why:+$why; }expected \"ubik: $dir/hypervisor.toml:$at: ...$words...\""
    verdict "refuses $case" "$why"
done <<CASES
slice-1|[hypervisor]\nslice_us = 1\n[partition.good]\napp = "good"\n|2:12|shorter than a partition switch
period-1|[hypervisor]\npolicy = "rt"\nperiod_us = 1\n[partition.good]\napp = "good"\nrealtime = true\n|3:13|shorter than a partition switch
own-slice-1|[partition.good]\napp = "good"\nslice_us = 1\n|3:12|shorter than a partition switch
guest-ram-4|[partition.good]\napp = "good"\nram_kib = 4\n|3:11|partition good's guest does not fit its 4 KiB of RAM
hv-ram-4|[hypervisor]\nram_kib = 4\n[partition.good]\napp = "good"\n|2:11|the hypervisor does not fit its 4 KiB of RAM
long-name|[partition.$long_name]\napp = "good"\n|1:12|partition name of 3000 characters
dotted-name|[partition.a.b]\napp = "good"\n|1:14|a dotted table name
no-app|[partition.good]\napp = "nowhere"\n|2:7|partition good's app "nowhere" has no system.toml|66
CASES

# ---- The hypervisor experiment takes nothing from its file into a shell (issue 28): an
# application directory named `$(touch PWNED)`, a load named so. The first stops at its first
# build (its system.toml is bad data), the second at the load's name (it names directories):
# exit 65, one line, and no PWNED anywhere.
inj=$work/inject
rm -rf "$inj"
mkdir -p "$inj/\$(touch PWNED)" "$inj/out"
printf '[kernel]\nscheduler = "nope"\n' > "$inj/\$(touch PWNED)/system.toml"
rel=${inj#"$root"/}
exp_text() { # RT_DIR LOAD_NAME
    printf 'kind = "hypervisor"\nrt = %s\ngp = "bench/hypervisor/gp"\npolicies = ["fair", "rt"]\n' "$1"
    printf 'slice_us = 10000\nperiod_us = 10000\nmin_share = 0.1\nrt_event_period_us = 1013\n'
    printf 'rt_probe_period_us = 193\nrt_bursts = 1\nrt_burst = 2\n\n[[load]]\nname = %s\n' "$2"
    printf 'tick_hz = 100\ndevice_period_us = 0\nwords = 256\n'
}
exp_text "'$rel/\$(touch PWNED)'" '"light"' > "$inj/dir.toml"
exp_text '"bench/hypervisor/rt"' "'\$(touch PWNED)'" > "$inj/load.toml"
for file in dir.toml load.toml; do
    out=$(cd "$inj" && timeout 300 "$ubik" experiment "$inj/$file" -o "$inj/out" 2>&1 >/dev/null)
    rc=$?
    why=""
    pwned=$(find "$root" -maxdepth 4 -name PWNED -type f 2>/dev/null | head -1)
    [[ -z $pwned ]] || { why="the file's text ran as a command: $pwned"; rm -f "$pwned"; }
    [[ $rc -eq 65 ]] || why="${why:+$why; }exit $rc (expected 65)"
    [[ $(wc -l <<< "$out") -eq 1 ]] || why="${why:+$why; }$(wc -l <<< "$out") lines on stderr (expected one)"
    case $file in
        # The application builds, and its bad system.toml is the build's failure.
        dir.toml) [[ $out == "ubik: experiment dir: job alone does not build (exit 65): "* ]] ;;
        # A load's name names directories: not one is the file's error at its line.
        load.toml) [[ $out == "ubik: $inj/load.toml:14:8: load name "* ]] ;;
    esac || why="${why:+$why; }not the expected line: $out"
    verdict "experiment takes no shell code ($file)" "$why"
done

echo "hv tests: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
