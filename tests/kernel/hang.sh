#!/usr/bin/env bash
# ubik run's hang reports on a real kernel (docs/debugging.md, "Hangs, deadlocks and stack overflows"),
# what tests/kernel/run.sh's expect files cannot say: the deadlocked tutorial variant
# (tests/kernel/deadlock) ends within a second of host time with exit 73; Ctrl-C (SIGINT) and
# --max-time stop the endless tutorial (tests/kernel/hang_report) with the task report.
# Prints one line per check; exit 1 if any fails.
# Usage: tests/kernel/hang.sh [ROOT]      (run by tests/kernel/run.sh)
set -uo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
ubik="$root/sim/target/release/ubik"
work="$root/build/kernel-tests/hang-sh"
mkdir -p "$work"
fail=0
check() { # NAME CONDITION-RESULT DETAIL
    if [[ $2 -eq 0 ]]; then echo "PASS  hang.sh: $1"; else echo "FAIL  hang.sh: $1: $3"; fail=1; fi
}
for app in deadlock hang_report; do
    mkdir -p "$work/$app"
    cp "$root/tests/kernel/$app"/{main.c,system.toml} "$work/$app/"
    if ! out=$(UBIK_ROOT="$root" "$ubik" build "$work/$app" 2>&1); then
        check "build $app" 1 "$out"; exit 1
    fi
done
err="$work/stderr"

# The deadlock: exit 73 at once (the check runs when the idle task sleeps), both tasks and
# both queues named.
start=$(date +%s%N)
timeout 10 "$ubik" run "$work/deadlock/build/app.elf" >/dev/null 2>"$err"
rc=$? ms=$((($(date +%s%N) - start) / 1000000))
check "deadlock exits 73" "$([[ $rc -eq 73 ]]; echo $?)" "exit $rc; $(cat "$err")"
check "deadlock ends within a second ($ms ms)" "$([[ $ms -lt 1000 ]]; echo $?)" "took $ms ms"
ok=0
for t in "producer .*pending .*waits on queue acks" "consumer .*pending .*waits on queue items" \
    "^ubik: .*deadlock at cycle [0-9]+"; do
    grep -Eq "$t" "$err" || ok=1
done
check "deadlock report names the tasks and queues" $ok "$(cat "$err")"
check "deadlock: one ubik: line" "$([[ $(grep -c '^ubik: ' "$err") -eq 1 ]]; echo $?)" "$(cat "$err")"

# Ctrl-C: exit 130 and the same report.
"$ubik" run "$work/hang_report/build/app.elf" >/dev/null 2>"$err" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
ok=0
for t in "^ubik: .*interrupted at cycle" "^tasks at cycle [0-9]+:" "consumer .*waits on queue items"; do
    grep -Eq "$t" "$err" || ok=1
done
check "Ctrl-C exits 130 with the task report" "$([[ $rc -eq 130 && $ok -eq 0 ]]; echo $?)" "exit $rc; $(cat "$err")"

# --max-time: exit 72 and the report.
timeout 10 "$ubik" run "$work/hang_report/build/app.elf" --max-time 0.015 >/dev/null 2>"$err"
rc=$?
ok=0
for t in "^ubik: .*--max-time 0.015 s" "^tasks at cycle [0-9]+:" "producer .*delayed" \
    "consumer .*waits on queue items"; do
    grep -Eq "$t" "$err" || ok=1
done
check "--max-time exits 72 with the task report" "$([[ $rc -eq 72 && $ok -eq 0 ]]; echo $?)" "exit $rc; $(cat "$err")"
exit $fail
