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
