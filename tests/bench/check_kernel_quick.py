#!/usr/bin/env python3
"""Checks, from outside, what `ubik experiment tests/bench/kernel-quick.toml -o DIR` wrote
(make test): DIR/kernel-quick.json holds exactly the figures the short file asks for, each a
positive integer, the cooperative switch under exactly the schedulers with deadlines (as
`ubik gen --list-schedulers --with deadlines` prints them), and the run kept its material.
Usage: tests/bench/check_kernel_quick.py DIR"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(msg):
    sys.exit(f"FAIL  kernel-quick: {msg}")


def main(out):
    path = os.path.join(out, "kernel-quick.json")
    try:
        with open(path) as f:
            k = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    want = {"coop_switch_cycles", "irq_disable_restore_cycles", "footprint_text_bytes",
            "footprint_ram_bytes"}
    if set(k) != want:
        fail(f"keys {sorted(k)}, expected {sorted(want)}")
    ubik = os.environ.get("UBIK", os.path.join(ROOT, "sim/target/release/ubik"))
    scheds = subprocess.run([ubik, "gen", "--list-schedulers", "--with", "deadlines"],
                            check=True, capture_output=True, text=True).stdout.split()
    if sorted(k["coop_switch_cycles"]) != sorted(scheds):
        fail(f"coop_switch_cycles under {sorted(k['coop_switch_cycles'])}, expected {scheds}")
    figures = list(k["coop_switch_cycles"].values()) + [k["irq_disable_restore_cycles"]]
    for key in ("footprint_text_bytes", "footprint_ram_bytes"):
        if set(k[key]) != {"minimal"}:
            fail(f"{key}: {sorted(k[key])}, expected only minimal")
        figures.append(k[key]["minimal"])
    if not all(isinstance(v, int) and v > 0 for v in figures):
        fail(f"a figure is not a positive integer: {figures}")
    for f in ("kernel-quick/footprint-minimal.txt", "kernel-quick/runs/irqoff/console.txt"):
        if not os.path.isfile(os.path.join(out, f)):
            fail(f"{f} missing")
    print(f"kernel-quick: ok ({path})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
