#!/usr/bin/env bash
# The README's tutorial (apps/tutorial) under `ubik run --gdb`, as a new user debugs it:
# - every C function of main.c breaks at its file:line, also once GDB has read the BSP's
#   crt0 (it stops there at reset): the assembly's debug ranges must not run into the C
#   function linked after it (bsp/flags.mk);
# - `monitor reset` with breakpoints set, GDB stopped in a task: GDB keeps working (the
#   breakpoints hit again, the tasks are listed as threads, the run ends normally);
# - `--stats` under the debugger is the plain run's, field by field (host_seconds and mips
#   measure the host, not the run), a reset included;
# - `monitor reset` stopped in main (the core's thread, before the kernel): main hits again.
# Usage: tests/gdb/tutorial.sh UBIK WORKDIR   (from tests/gdb/run.sh; prints PASS/FAIL lines,
# exits 1 on a failure)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/tests/gdb/server.sh"
ubik=$1 work=$2
mkdir -p "$work"
pid=
trap '[[ -n $pid ]] && kill $pid 2>/dev/null' EXIT
fails=0
pass() { echo "PASS  gdb tutorial: $1"; }
fail() { echo "FAIL  gdb tutorial: $1"; fails=$((fails + 1)); }

elf=$work/tutorial.elf
UBIK_CFLAGS=${UBIK_CFLAGS:-} "$ubik" build "$root/apps/tutorial" -o "$elf" --build-dir "$work/build" >/dev/null ||
    { echo "FAIL  gdb tutorial: apps/tutorial does not build"; exit 1; }
"$ubik" run "$elf" --stats "$work/plain.json" >"$work/plain.out" || fail "plain run"

"$ubik" run "$elf" --gdb 0 --stats "$work/gdb.json" >"$work/gdb.out" 2>"$work/gdb.err" &
pid=$!
port=$(gdb_port "$work/gdb.err")
[[ -n $port ]] || { fail "the server did not say where it listens"; exit 1; }

main=$root/apps/tutorial/main.c
line() { grep -n "$1" "$main" | head -1 | cut -d: -f1; }
# The first line of each function's body that GDB breaks at (after the prologue).
produce=$(line 'for (uint32_t i = 1')
consume=$(line 'for (int n = 0')
cat >"$work/script.gdb" <<GDB
set pagination off
set confirm off
target remote 127.0.0.1:$port
echo LINES\n
info line *\$pc
break produce
break consume
info line produce
echo FIRST\n
continue
continue
echo RESET\n
monitor reset
continue
info threads
continue
info threads
echo END\n
delete
continue
GDB
timeout 60 gdb-multiarch -batch -nx -x "$work/script.gdb" "$elf" >"$work/gdb.log" 2>&1
wait $pid
rc=$?
pid=
log=$work/gdb.log
section() { sed -En "/^$1\$/,/^[A-Z]+\$/p" "$log"; }
check() { # NAME PATTERN [TEXT]
    if grep -qE -- "$2" <<<"${3:-$(cat "$log")}"; then pass "$1"; else fail "$1 (expected /$2/)"; fi
}
check "GDB has read crt0 (the reset's line)" 'Line [0-9]+ of ".*crt0\.S"' "$(section LINES)"
check "break produce names main.c and its line" "Breakpoint 1 at 0x[0-9a-f]+: file .*main\.c, line $produce\." "$(section LINES)"
check "break consume names main.c and its line" "Breakpoint 2 at 0x[0-9a-f]+: file .*main\.c, line $consume\." "$(section LINES)"
check "the address of produce is main.c's line, not crt0's" "Line $produce of \".*main\.c\" starts at address 0x[0-9a-f]+ <produce>" "$(section LINES)"
check "produce stops at main.c:$produce" "hit Breakpoint 1, produce \(arg=0x0\) at .*main\.c:$produce" "$(section FIRST)"
if grep -q 'bsp_vector_unhandled' "$log"; then fail "a stop named bsp_vector_unhandled"; else pass "no stop in bsp_vector_unhandled"; fi
check "after monitor reset: a breakpoint hits again" "hit Breakpoint 2, consume \(arg=0x0\) at .*main\.c:$consume" "$(section RESET)"
check "after monitor reset: the other breakpoint hits again" "hit Breakpoint 1, produce \(arg=0x0\) at .*main\.c:$produce" "$(section RESET)"
check "after monitor reset: the tasks are threads" 'producer, prio 2, running' "$(section RESET)"
check "after monitor reset: ... all of them" 'consumer, prio 1, pending' "$(section RESET)"
if grep -qE 'internal-error|Remote connection closed|has ended' "$log"; then
    fail "GDB lost the program"
else
    pass "GDB kept the program"
fi
check "the run ends under the debugger" 'exited normally' "$(section END)"
[[ $rc == 0 ]] && pass "exit code 0" || fail "exit code $rc (expected 0)"

# monitor reset stopped before the kernel (the core's thread): main's breakpoint hits again.
"$ubik" run "$elf" --gdb 0 >/dev/null 2>"$work/gdb2.err" &
pid=$!
port=$(gdb_port "$work/gdb2.err")
timeout 60 gdb-multiarch -batch -nx -ex 'set confirm off' -ex "target remote 127.0.0.1:$port" \
    -ex 'break main' -ex continue -ex 'monitor reset' -ex continue -ex delete -ex continue \
    "$elf" >"$work/gdb2.log" 2>&1
wait $pid
rc=$?
pid=
n=$(grep -cE 'Breakpoint 1, main \(\) at .*main\.c' "$work/gdb2.log")
[[ $n == 2 && $rc == 0 ]] && pass "monitor reset in main: main's breakpoint hits again" ||
    { fail "monitor reset in main: $n stops in main, exit $rc"; cat "$work/gdb2.log"; }

# --stats: every field but the host's own measures.
if python3 - "$work/plain.json" "$work/gdb.json" <<'PY'; then
import json, sys
host = {"host_seconds", "mips"}
a, b = (json.load(open(p)) for p in sys.argv[1:3])
diff = sorted(k for k in a.keys() | b.keys() if k not in host and a.get(k) != b.get(k))
if diff or a.get("energy_j") is None:
    print("fields differ:", diff, "energy", a.get("energy_j"), b.get("energy_j"))
    sys.exit(1)
PY
    pass "--stats identical with and without --gdb (all fields but host_seconds, mips)"
else
    fail "--stats differ under --gdb"
fi

if ((fails)); then
    echo "---- gdb log"; cat "$log"; echo "---- server"; cat "$work/gdb.err"
    exit 1
fi
