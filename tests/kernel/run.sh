#!/usr/bin/env bash
# On-target kernel tests: every tests/kernel/NAME/ (main.c, system.toml) is built with
# `ubik build` under each scheduler listed in NAME/schedulers (default: the one in its
# system.toml) and run on the testbed (with NAME/machine.toml if present). A test passes when
# the firmware exits 0 (tests check themselves with tests/firmware/check.h), or as NAME/expect
# says: lines `exit: N` (the exit code wanted instead of 0), `stdout-contains: TEXT` (the
# firmware's console output must contain TEXT; any number of these), `stderr-contains: TEXT`
# (ubik's stderr must: a task report, say), `max-cycles: N` (the run's limit instead of
# 2e9) and `args: FLAGS` (more flags for ubik run); `#` starts a comment.
# A directory with `schedulers.disabled` instead of `schedulers` is skipped (a known bug).
# `all` in a schedulers file stands for every scheduler (`ubik gen --list-schedulers`).
# Every test also runs, under each of its schedulers, on the debug kernel (`[kernel] checks =
# "full"`, shown as [SCHED+checks]), which asserts the kernel's invariants at every kernel
# exit: the same result is expected. A test that corrupts the kernel on purpose says
# `checks: only` in its expect file (it runs on the debug kernel alone).
# --guest runs every test as the one partition of the hypervisor (hv/, docs/hypervisor.md):
# built with the kernel's guest port, behind PMP, with every fast line and the io, rtm and
# uart windows; a test that cannot run as a guest says `guest: no, REASON` in its expect file.
# Before the tests, hang.sh checks ubik run's deadlock check and task reports (not with
# --guest), and layering.sh checks that kernel/src and kernel/arch name no RTM and no BSP
# header (the RTM is a leaf; the board is reached through the arch interface).
# Usage: tests/kernel/run.sh [-v] [--guest] [NAME...]
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ubik="$root/sim/target/release/ubik"
work="$root/build/kernel-tests"
verbose=0 guest=0
[[ ${1:-} == -v ]] && { verbose=1; shift; }
[[ ${1:-} == --guest ]] && { guest=1; shift; }
names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
    for d in "$root"/tests/kernel/*/; do [[ -f $d/system.toml ]] && names+=("$(basename "$d")"); done
fi
pass=0 fail=0
# First the structural rule (milliseconds): the core names no wait-queue back end and no board.
if "$root/tests/kernel/layering.sh" "$root"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
# ubik run's hang reports (deadlock within a second, Ctrl-C, --max-time): a few seconds.
if [[ $guest -eq 0 ]]; then
    if "$root/tests/kernel/hang.sh" "$root"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
fi
errf=$(mktemp)
trap 'rm -f "$errf"' EXIT
for name in "${names[@]}"; do
    src="$root/tests/kernel/$name"
    # A test with only a `schedulers.disabled` file (a known kernel bug) is left out.
    if [[ ! -f $src/schedulers && -f $src/schedulers.disabled ]]; then
        echo "SKIP  $name (schedulers.disabled)"; continue
    fi
    if [[ $guest -eq 1 ]] && grep -q '^guest: no' "$src/expect" 2>/dev/null; then
        echo "SKIP  $name as a guest: $(sed -n 's/^guest: no, *//p' "$src/expect")"; continue
    fi
    scheds=$(cat "$src/schedulers" 2>/dev/null || sed -n 's/^scheduler *= *"\(.*\)"/\1/p' "$src/system.toml")
    # `all`: the list lives only in sysdesc (Scheduler::ALL); ask ubik rather than copy it.
    [[ $scheds == all ]] && scheds=$("$ubik" gen --list-schedulers)
    variants=()
    for s in $scheds; do
        grep -qx 'checks: only' "$src/expect" 2>/dev/null || variants+=("$s")
        variants+=("$s+checks")
    done
    for v in "${variants[@]}"; do
        s=${v%+checks}
        app="$work/$name-${v/+/-}"
        [[ $guest -eq 1 ]] && app="$work/guest/$name-${v/+/-}"
        mkdir -p "$app"
        cp "$src"/*.c "$app/"
        # The test's own system.toml with the scheduler replaced and check.h's path absolute;
        # the +checks variant adds checks = "full" to [kernel] and drops the table's first blank
        # line, so the lines below keep their numbers (tests expect system.toml:LINE messages);
        # a file without [kernel] gets one at its end.
        checks=()
        if [[ $v == *+checks ]]; then
            if grep -q '^\[kernel\]' "$src/system.toml"; then
                checks=(-e '/^\[kernel\]/a checks = "full"' -e '/^\[kernel\]/,/^$/{/^$/d}')
            else
                checks=(-e '$a [kernel]\nchecks = "full"')
            fi
        fi
        sed -e "s/^scheduler *=.*/scheduler = \"$s\"/" "${checks[@]}" \
            -e "s|-I\.\./\.\./\.\./tests/firmware|-I$root/tests/firmware|" "$src/system.toml" > "$app/system.toml.new"
        cmp -s "$app/system.toml.new" "$app/system.toml" || mv "$app/system.toml.new" "$app/system.toml"
        rm -f "$app/system.toml.new"
        machine=()
        [[ -f $src/machine.toml ]] && machine=(--machine "$src/machine.toml")
        target=$app elf=$app/build/app.elf
        if [[ $guest -eq 1 ]]; then
            # The test as the hypervisor's only partition, on a core with PMP.
            target=$app.hv elf=$app.hv/build/hv.elf
            mkdir -p "$target"
            printf '[hypervisor]\nrun_until = "test"\n\n[partition.test]\napp = "../%s"\nram_kib = 512\ndevices = ["io", "rtm", "uart"]\nlines = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]\n' \
                "$(basename "$app")" > "$target/hypervisor.toml"
            { [[ -f $src/machine.toml ]] && cat "$src/machine.toml"; printf '\n[core]\npmp_regions = 16\n'; } > "$target/machine.toml"
            machine=(--machine "$target/machine.toml")
        fi
        if ! out=$(UBIK_ROOT="$root" "$ubik" build "$target" 2>&1); then
            echo "FAIL  $name [$v]: build failed"; echo "$out" | tail -20 | sed 's/^/      /'
            fail=$((fail + 1)); continue
        fi
        want_exit=0 wants=() ewants=() limit=2000000000 args=()
        if [[ -f $src/expect ]]; then
            while IFS= read -r line; do
                case $line in
                    exit:*) want_exit=$(echo "${line#exit:}" | tr -d '[:space:]') ;;
                    stdout-contains:*) t=${line#stdout-contains:}; wants+=("${t# }") ;;
                    stderr-contains:*) t=${line#stderr-contains:}; ewants+=("${t# }") ;;
                    args:*) read -ra args <<< "${line#args:}" ;;
                    max-cycles:*) limit=$(echo "${line#max-cycles:}" | tr -d '[:space:]') ;;
                esac
            done < "$src/expect"
        fi
        out=$(timeout 120 "$ubik" run "$elf" "${machine[@]}" --max-cycles "$limit" "${args[@]}" 2>"$errf")
        rc=$?
        why=""
        [[ $rc -ne $want_exit ]] && why="exit $rc (expected $want_exit)"
        for t in "${wants[@]}"; do
            [[ $out == *"$t"* ]] || why="${why:+$why; }output lacks \"$t\""
        done
        for t in "${ewants[@]}"; do
            [[ $(<"$errf") == *"$t"* ]] || why="${why:+$why; }stderr lacks \"$t\""
        done
        if [[ -z $why ]]; then
            echo "PASS  $name [$v]"; pass=$((pass + 1))
            [[ $verbose -eq 1 ]] && { echo "$out"; cat "$errf"; } | sed 's/^/      /'
        else
            echo "FAIL  $name [$v]: $why"; { echo "$out"; cat "$errf"; } | tail -20 | sed 's/^/      /'
            fail=$((fail + 1))
        fi
    done
done
as=""; [[ $guest -eq 1 ]] && as=" (as guests)"
echo "kernel tests$as: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
