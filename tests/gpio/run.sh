#!/usr/bin/env bash
# Scripted GPIO input, checked from outside the firmware: a button (tests/firmware/gpio_button.c
# with its machine file) is pressed three times; in the IO record (--io) every press (a
# rising gpio_in edge on pin 5) must be followed, before anything else happens on the pin,
# by the LED's toggle (GPIO pin 0) and the count on IO port 1, within 100 cycles; a release
# must get no response; the VCD must show the input pin. Usage: tests/gpio/run.sh (make test;
# after make firmware).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
elf=$root/build/firmware/gpio_button.elf
[[ -f $elf ]] || { echo "FAIL  gpio: $elf missing (make firmware)"; exit 1; }
if ! "$root/ubik" run "$elf" --machine "$root/tests/firmware/gpio_button.machine.toml" \
    --io "$work/io.csv" --vcd "$work/io.vcd" >"$work/out.txt" 2>&1; then
    echo "FAIL  gpio: the button firmware failed"; cat "$work/out.txt"; exit 1
fi
python3 - "$work/io.csv" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
fails = []
presses = [r for r in rows if r["kind"] == "gpio_in" and r["port"] == "5" and r["value"] == "1"]
releases = [r for r in rows if r["kind"] == "gpio_in" and r["port"] == "5" and r["value"] == "0"]
if len(presses) != 3 or len(releases) != 3:
    fails.append(f"expected 3 presses and 3 releases, got {len(presses)} and {len(releases)}")
led = 0
for i, r in enumerate(rows):
    if r["kind"] != "gpio_in" or r["port"] != "5":
        continue
    after = rows[i + 1:i + 3]
    if r["value"] == "1":
        led ^= 1
        kinds = [(a["kind"], a["port"], a["value"]) for a in after]
        want = [("gpio", "0", str(led)), ("out", "1", str(presses.index(r) + 1))]
        if kinds != want:
            fails.append(f"press at cycle {r['cycle']}: then {kinds}, expected {want}")
        elif int(after[0]["cycle"]) - int(r["cycle"]) > 100:
            fails.append(f"press at cycle {r['cycle']}: LED after {int(after[0]['cycle']) - int(r['cycle'])} cycles")
    elif after and after[0]["kind"] in ("gpio", "out"):
        fails.append(f"release at cycle {r['cycle']} got a response: {after[0]}")
for f in fails:
    print("FAIL  gpio:", f)
if fails:
    sys.exit(1)
lat = [int(rows[rows.index(p) + 1]["cycle"]) - int(p["cycle"]) for p in presses]
print(f"PASS  gpio: three presses answered in {lat} cycles, releases ignored")
PY
if grep -q 'gpio_in5' "$work/io.vcd"; then echo "PASS  gpio: the VCD shows the input pin"; else echo "FAIL  gpio: no gpio_in5 in the VCD"; exit 1; fi

# Input files near the 64 MiB bound are held near their size, shared by every copy of the
# machine, and --io is written as the run goes: a UART rx_file, a stimulus times_file whose
# events all fire during the run (each one a row of --io), a pin's changes_file and an
# [[input]] stream file, 8 MiB each, must not take more than three times their size (they
# took 20 to 65 times it: a 32-byte table entry per received byte, times in three copies).
# The files are written by one Python and the run measured by another: a child's peak
# counts the pages it shares with its parent before it execs.
python3 - "$work" "$root/tests/firmware/gpio_button.machine.toml" <<'PY' >"$work/events" || exit 1
import os, sys
work, machine = sys.argv[1:]
size = 8 << 20
def fill(name, row):
    with open(os.path.join(work, name), "w") as f:
        n, i = 0, 0
        while True:
            s = row(i)
            if n + len(s) > size:
                return i
            f.write(s); n += len(s); i += 1
open(os.path.join(work, "rx.bin"), "wb").write(bytes(range(256)) * (size // 256))
print(fill("times.csv", lambda i: f"{i / 1000:.3f}\n"))    # 1 ns apart: all fire in the run
fill("changes.csv", lambda i: f"{2000000 + i},{i & 1}\n")  # pin 12, after the run
fill("samples.txt", lambda i: f"{i % 10}\n")
open(os.path.join(work, "big.toml"), "w").write(open(machine).read() + """
[uart]
rx_file = "rx.bin"
rx_start_us = 1000000
[[stimulus]]
line = 3
kind = "times"
times_file = "times.csv"
[[io.pin]]
pin = 12
changes_file = "changes.csv"
[[input]]
port = 3
kind = "file"
path = "samples.txt"
""")
PY
python3 - "$root/ubik" "$elf" "$work" "$(cat "$work/events")" <<'PY' || exit 1
import os, resource, subprocess, sys
ubik, elf, work, events = sys.argv[1:]
size, events = 8 << 20, int(events)
io = os.path.join(work, "big_io.csv")
r = subprocess.run([ubik, "run", elf, "--machine", os.path.join(work, "big.toml"), "--io", io],
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
if r.returncode != 0:
    print("FAIL  gpio: the run with big inputs failed:", r.stderr.strip()); sys.exit(1)
rows = sum(1 for line in open(io) if ",stimulus," in line)
if rows != events:
    print(f"FAIL  gpio: {rows} stimulus rows in --io, expected {events}"); sys.exit(1)
if peak > 3 * 4 * size:
    print(f"FAIL  gpio: 4 input files of {size >> 20} MiB took {peak >> 20} MiB (at most {3 * 4 * size >> 20} MiB)"); sys.exit(1)
print(f"PASS  gpio: 4 input files of {size >> 20} MiB ({events} events in --io) took {peak >> 20} MiB")
PY
