#!/usr/bin/env bash
# The GDB server end to end (`ubik run --gdb`), driven by gdb-multiarch in batch mode on the
# firmware of tests/gdb/app: a breakpoint in a task, the tasks listed as threads by name, a
# variable, the backtrace of a blocked task and of one preempted by an interrupt (through
# the kernel tail's unwind information), a step, a watched write (stopping before it, as
# GDB's RISC-V watchpoints do), reverse-stepi back over the write, reverse-continue to an
# earlier breakpoint, the CSRs, monitor commands, a reset; then the run to its end must take
# exactly the cycles of the same firmware run without a debugger, and print its console
# output once (what a replay prints again is muted). Also the bad-input cases of --gdb, and
# the protocol at the byte level (tests/gdb/protocol.py: bad packets answered with an error
# and the session kept, a second debugger refused, snapshots of a 1 GiB RAM that stay small,
# a reverse-continue stopped by Ctrl-C), the README's tutorial (tests/gdb/tutorial.sh), the
# VS Code recipe of docs/debugging.md (tests/gdb/vscode.py) and the bench's monitor commands
# (tests/gdb/monitor.py on tests/gdb/bench and the tutorial).
# Usage: tests/gdb/run.sh   (part of make test; needs gdb-multiarch: scripts/setup.sh --test)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/tests/gdb/server.sh"
ubik=$root/ubik
work=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill $pid 2>/dev/null; rm -rf "$work"' EXIT
fails=0
pass() { echo "PASS  gdb: $1"; }
fail() { echo "FAIL  gdb: $1"; fails=$((fails + 1)); }

command -v gdb-multiarch >/dev/null || { echo "FAIL  gdb: gdb-multiarch missing (scripts/setup.sh --test)"; exit 1; }
UBIK_CFLAGS=${UBIK_CFLAGS:-} "$ubik" build "$root/tests/gdb/app" -o "$work/app.elf" --build-dir "$work/build" >/dev/null ||
    { echo "FAIL  gdb: the test firmware does not build"; exit 1; }

# The reference: the same firmware without a debugger.
"$ubik" run "$work/app.elf" --stats "$work/plain.json" >"$work/plain.out" || fail "plain run"

# Port 0: the server picks a free port and prints it.
"$ubik" run "$work/app.elf" --gdb 0 --stats "$work/gdb.json" >"$work/gdb.out" 2>"$work/gdb.err" &
pid=$!
port=$(gdb_port "$work/gdb.err")
[[ -n $port ]] || { fail "the server did not say where it listens"; cat "$work/gdb.err"; exit 1; }

line() { grep -n "$1" "$root/tests/gdb/app/main.c" | head -1 | cut -d: -f1; }
cat >"$work/script.gdb" <<GDB
set pagination off
set confirm off
target remote 127.0.0.1:$port
break main.c:$(line 'produced = i;')
continue
info threads
print produced
thread find consumer
thread apply all bt
echo STEP\n
next
print produced
echo WATCH\n
delete
watch produced
continue
print/x \$pc
echo REVERSE-STEPI\n
reverse-stepi
print produced
echo REVERSE-CONTINUE\n
delete
break main.c:$(line 'hand_over(i);')
continue
continue
print produced
reverse-continue
print produced
echo REGISTERS\n
info registers mstatus mtvec
print \$priv
monitor cycles
monitor stats
monitor tasks
monitor gpio 99 1
monitor nonsense
echo RESET\n
monitor reset
monitor cycles
delete
continue
GDB
timeout 120 gdb-multiarch -batch -nx -x "$work/script.gdb" "$work/app.elf" >"$work/gdb.log" 2>&1
wait $pid
rc=$?
pid=
log=$work/gdb.log
section() { sed -En "/^$1\$/,/^[A-Z-]+\$/p" "$log"; }

check() { # NAME PATTERN [TEXT]
    if grep -qE -- "$2" <<<"${3:-$(cat "$log")}"; then pass "$1"; else fail "$1 (expected /$2/)"; fi
}
check "breakpoint in a task" 'hit Breakpoint 1, produce'
check "tasks listed as threads by name" 'producer, prio 2, running'
check "the blocked task is a thread" 'consumer, prio 1, pending'
check "the idle task is a thread" 'idle, prio 255'
check "a variable" '^\$1 = 0$'
check "backtrace of the blocked task" 'in consume \(.*main\.c'
check "the blocked task waits in the queue" 'uk_queue_recv'
check "a preempted task's backtrace crosses the interrupt" '<signal handler called>'
check "... into the task's own code" ' idle \(arg='
check "step (next)" '^\$2 = 1$' "$(section STEP)"
check "watched write stops before the store" 'Old value = 1' "$(section WATCH)"
check "watched write shows the new value" 'New value = 2' "$(section WATCH)"
check "reverse-stepi undoes the write" '^\$[0-9]+ = 1$' "$(section REVERSE-STEPI)"
check "reverse-continue to the previous breakpoint" 'hit Breakpoint [0-9]+, .*produce' "$(section REVERSE-CONTINUE)"
check "reverse-continue restores memory" '^\$[0-9]+ = 2$' "$(section REVERSE-CONTINUE | grep -E '^\$' | tail -1)"
check "CSRs from the target description" '^mstatus +0x' "$(section REGISTERS)"
check "the privilege register" '^\$[0-9]+ = 3$' "$(section REGISTERS)"
check "monitor cycles" 'cycle [0-9]+ mcycle [0-9]+ instret [0-9]+ time'
check "monitor stats" 'snapshots [0-9]+'
check "monitor tasks: the consumer waits on the queue by name" '^consumer +pending +1 +queue items '
check "monitor gpio names the pins that exist" 'there is no input pin "99": the GPIO input pins are 0 to 31'
check "an unknown monitor command is named" 'unknown monitor command "nonsense"'
check "monitor reset goes back to cycle 4 (the first instruction)" '^cycle 4 mcycle 4 instret 0' "$(section RESET)"
check "the run ends under the debugger" 'exited normally'
[[ $rc == 0 ]] && pass "exit code 0" || fail "exit code $rc (expected 0)"
if cmp -s "$work/plain.out" "$work/gdb.out"; then
    pass "console printed once (replays muted)"
else
    fail "console differs from the plain run"; diff "$work/plain.out" "$work/gdb.out" | head -5
fi
cycles() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["cycles"], d["mcycle"], d["instret"])' "$1"; }
a=$(cycles "$work/plain.json") b=$(cycles "$work/gdb.json")
[[ $a == "$b" ]] && pass "same cycles as without a debugger ($a)" || fail "cycles $b, without a debugger $a"
energy() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["energy_j"], [c["energy_j"] for c in d["by_category"].values()])' "$1"; }
a=$(energy "$work/plain.json") b=$(energy "$work/gdb.json")
[[ $a == "$b" && $a != None* ]] && pass "same energy as without a debugger (${a%% *} J)" || fail "energy $b, without a debugger $a"

# Bad input: one clear error and the contract's exit code.
"$ubik" run "$work/app.elf" --gdb 999999 2>"$work/e1"; rc=$?
[[ $rc == 69 ]] && grep -q -- '--gdb 999999' "$work/e1" && pass "bad port: exit 69" || fail "bad port: exit $rc: $(cat "$work/e1")"
"$ubik" run "$work/app.elf" --gdb 0 --trace "$work/t.json" 2>"$work/e2"; rc=$?
[[ $rc == 64 ]] && pass "--gdb with --trace: exit 64" || fail "--gdb with --trace: exit $rc"

# The tutorial as a new user debugs it: break at file:line, monitor reset, --stats field by
# field (tests/gdb/tutorial.sh).
UBIK_CFLAGS=${UBIK_CFLAGS:-} "$root/tests/gdb/tutorial.sh" "$ubik" "$work/tutorial" || fails=$((fails + 1))
# The VS Code recipe of docs/debugging.md, through gdb-multiarch's machine interface.
timeout 120 python3 "$root/tests/gdb/vscode.py" "$ubik" "$work/tutorial/tutorial.elf" "$work/tutorial" || fails=$((fails + 1))

# The bench's monitor commands: UART input, a GPIO pin, a stimulus, the task table, reset
# and the replay of a debugged session (tests/gdb/monitor.py).
mkdir -p "$work/monitor"
if UBIK_CFLAGS=${UBIK_CFLAGS:-} "$ubik" build "$root/tests/gdb/bench" -o "$work/bench.elf" --build-dir "$work/bench" >/dev/null; then
    timeout 120 python3 "$root/tests/gdb/monitor.py" "$root/sim/target/release/ubik" "$work/bench.elf" \
        "$root/tests/gdb/bench/machine.toml" "$work/tutorial/tutorial.elf" "$work/monitor" ||
        { fails=$((fails + 1)); echo "FAIL  gdb: the monitor checks"; for f in "$work"/monitor/*.err; do echo "---- $f"; cat "$f"; done; }
else
    fail "tests/gdb/bench does not build"
fi

# The protocol at the byte level: bad packets, a second debugger, RAM, reverse and Ctrl-C.
spin=$root/build/firmware/spin.elf
[[ -f $spin ]] || make -C "$root" -s build/firmware/spin.elf >/dev/null ||
    fail "tests/firmware/spin does not build"
if [[ -f $spin ]]; then
    mkdir -p "$work/proto"
    timeout 300 python3 "$root/tests/gdb/protocol.py" "$root/sim/target/release/ubik" "$work/app.elf" "$spin" "$work/proto" ||
        { fails=$((fails + 1)); echo "FAIL  gdb: the protocol checks"; for f in "$work"/proto/*.err; do echo "---- $f"; cat "$f"; done; }
fi

if ((fails)); then
    echo "---- gdb log"; cat "$log"; echo "---- server"; cat "$work/gdb.err"
    exit 1
fi
