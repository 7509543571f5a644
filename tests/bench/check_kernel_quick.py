#!/usr/bin/env python3
"""Checks, from outside, what `ubik experiment tests/bench/{kernel,ipc,rtm}-quick.toml -o DIR`
wrote (make test):

- DIR/kernel-quick.json holds exactly the figures the short file asks for, each a positive
  integer, the cooperative switch under exactly the schedulers with deadlines (as `ubik gen
  --list-schedulers --with deadlines` prints them), and the run kept its material;
- DIR/ipc-quick.json holds the figures the IPC application printed (read here again from its
  console.txt) and the code size of exactly the two services asked for;
- DIR/rtm-quick.json holds, per record count, the worst `sched_*` line of that run's console
  and the utilisation of tests/bench/data/rtm-variants.csv, computed here.
Usage: tests/bench/check_kernel_quick.py DIR"""
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(msg):
    sys.exit(f"FAIL  kernel benchmarks, quick files: {msg}")


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")


def check_kernel(out):
    path = os.path.join(out, "kernel-quick.json")
    k = load(path)
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


def console_lines(path):
    with open(path) as f:
        return [ln.split() for ln in f]


def check_ipc(out):
    path = os.path.join(out, "ipc-quick.json")
    got = load(path)
    want = {}
    for p in console_lines(os.path.join(out, "ipc-quick/runs/ipc/console.txt")):
        if len(p) == 3:
            want.setdefault(p[0], {})[p[1]] = int(p[2])
        elif len(p) == 2 and p[1].isdigit():
            want[p[0]] = int(p[1])
    for k in ("queue", "port", "taskport", "sem_give_take", "flags_set_wait", "pool_alloc_free",
              "heap_alloc_free_worst", "handoff_queue", "handoff_port"):
        if k not in want or got.get(k) != want[k]:
            fail(f"ipc {k}: {got.get(k)}, the console says {want.get(k)}")
    mutex = {"uncontended": want.get("mutex_uncontended"), "contended": want.get("mutex_contended")}
    if got.get("mutex_lock_unlock") != mutex:
        fail(f"ipc mutex_lock_unlock: {got.get('mutex_lock_unlock')}, the console says {mutex}")
    fp = got.get("footprint_text_bytes", {})
    if set(fp) != {"queue", "heap"} or not all(isinstance(v, int) and v > 0 for v in fp.values()):
        fail(f"ipc footprint_text_bytes: {fp}, expected queue and heap, each positive")
    print(f"ipc-quick: ok ({path})")


def check_rtm(out):
    path = os.path.join(out, "rtm-quick.json")
    got = load(path)
    want = {}
    for r in ("16", "256"):
        lines = console_lines(os.path.join(out, f"rtm-quick/runs/sched-rtm-{r}/console.txt"))
        want[r] = max(int(p[1]) for p in lines
                      if p and p[0].startswith("sched_") and p[0] != "sched_empty")
    if got.get("sched_overhead_cycles") != {"rtm": want}:
        fail(f"rtm sched_overhead_cycles: {got.get('sched_overhead_cycles')}, expected {want}")
    cats = ["kernel_sched", "kernel_time", "kernel_ipc", "kernel_other", "lisr", "hisr"]
    util = {}
    with open(os.path.join(ROOT, "tests/bench/data/rtm-variants.csv"), newline="") as f:
        for r in csv.DictReader(f):
            total = int(r["cycles"]) or 1
            shares = {c: round(100 * int(r[c + "_cycles"]) / total, 4) for c in cats}
            shares["os_total"] = round(sum(shares.values()), 4)
            util.setdefault(r["system"], {}).setdefault(r["workload"], {})[r["tasks"]] = shares
    if got.get("utilisation") != util:
        fail(f"rtm utilisation: {got.get('utilisation')}, expected {util}")
    if "synthesis" in got:
        fail("rtm: synthesis written though the file asks for none")
    print(f"rtm-quick: ok ({path})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    check_kernel(sys.argv[1])
    check_ipc(sys.argv[1])
    check_rtm(sys.argv[1])
