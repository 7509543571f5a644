#!/usr/bin/env python3
"""Helpers of bench/kernel/run.sh (python3 standard library only).

  kernel_json.py irqlat IO.csv            worst stimulus -> LISR latency from an --io record
  kernel_json.py footprint APP.elf APP.map kernel .text / RAM bytes of one image
  kernel_json.py collect DIR -o OUT.json  out/bench/kernel.json from the results in DIR
  kernel_json.py services APP.map         code bytes of each service file (queue.c, ...)
  kernel_json.py ipc DIR -o OUT.json      out/bench/ipc.json from the results in DIR

Each prints (or collects) `key value` lines; see docs/results.md, "Kernel", for the methods.
"""
import csv
import json
import os
import re
import struct
import subprocess
import sys

STORE_COST = 2  # an IO-port store completes 2 cycles after it starts (docs/machine.md)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def schedulers():
    """Every scheduler, in sysdesc's order (Scheduler::ALL): asked of ubik, which holds the
    only list, rather than copied here."""
    ubik = os.environ.get("UBIK", os.path.join(ROOT, "sim/target/release/ubik"))
    out = subprocess.run([ubik, "gen", "--list-schedulers"], check=True,
                         capture_output=True, text=True).stdout
    return out.split()


def irqlat(path, line=0, port=0):
    """Pair each stimulus event on `line` with the next write to OUT[port]; the latency is
    out cycle - STORE_COST - stimulus cycle. Streams the CSV (it is large)."""
    pending = []
    last = []  # the stimuli answered by the previous write, with their latencies
    lats = {}  # stimulus cycle -> latency
    merged = orphan = 0
    with open(path, newline="") as f:
        rows = csv.reader(f)
        if next(rows) != ["cycle", "time_s", "kind", "port", "value"]:
            raise SystemExit(f"{path}: not an --io record")
        for cycle, _t, kind, p, _v in rows:
            if kind == "stimulus" and int(p) == line:
                pending.append(int(cycle))
            elif kind == "out" and int(p) == port:
                c = int(cycle) - STORE_COST
                if not pending:
                    # A write no event asked for: the last event of the previous group came
                    # after that LISR had acknowledged the line (between its ACK and its
                    # store), so it raised the line again and this LISR is its answer.
                    if len(last) > 1:
                        lats[last[-1]] = c - last[-1]
                        last = [last[-1]]
                    else:
                        orphan += 1
                    continue
                merged += len(pending) - 1
                for s in pending:
                    lats[s] = c - s
                last, pending = pending, []
    n = len(lats)
    worst_at, worst = max(lats.items(), key=lambda kv: (kv[1], -kv[0])) if lats else (0, 0)
    hist = {}
    for v in lats.values():
        hist[v // 10 * 10] = hist.get(v // 10 * 10, 0) + 1
    total = sum(lats.values())
    print(f"irqlat_worst {worst}")
    print(f"irqlat_avg {total // n if n else 0}")
    print(f"irqlat_worst_at {worst_at}")
    print(f"irqlat_events {n}")
    print(f"irqlat_unanswered {len(pending)}")
    # Events that came while the line was still pending (before the LISR of the previous
    # one acknowledged it) and so shared its LISR; LISR writes that no event explains (0).
    print(f"irqlat_merged {merged}")
    print(f"irqlat_orphan_outs {orphan}")
    top = sorted(hist.items())[-5:]
    print("irqlat_hist_top " + " ".join(f"{b}-{b + 9}:{c}" for b, c in top))


def elf_sections(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 1:
        raise SystemExit(f"{path}: not a 32-bit ELF")
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2E)
    heads = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    stroff = heads[shstrndx][4]
    out = {}
    for h in heads:
        name_end = data.index(b"\0", stroff + h[0])
        out[data[stroff + h[0]:name_end].decode()] = h[5]  # sh_size
    return out


MAP_ONE = re.compile(r"^ (\.\S+|COMMON)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)$")
MAP_NAME = re.compile(r"^ (\.\S+|COMMON)$")
MAP_REST = re.compile(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)$")


def map_inputs(path):
    """(section, size, file) of every input section placed by the link (the memory map part)."""
    out = []
    started = False
    name = None
    with open(path) as f:
        for ln in f:
            ln = ln.rstrip("\n")
            if not started:
                started = ln.startswith("Linker script and memory map")
                continue
            m = MAP_ONE.match(ln)
            if m:
                out.append((m[1], int(m[3], 16), m[4]))
                name = None
                continue
            m = MAP_NAME.match(ln)
            if m:
                name = m[1]
                continue
            m = MAP_REST.match(ln)
            if m and name:
                out.append((name, int(m[2], 16), m[3]))
            name = None
    return out


def footprint(elf, mapfile):
    secs = elf_sections(elf)
    text = sum(v for k, v in secs.items() if k == ".text.uk" or k.startswith(".text.uk_"))
    ram = rodata = stray = 0
    for sec, size, obj in map_inputs(mapfile):
        if "/obj/kernel/" not in obj or not size:
            continue
        if re.match(r"\.(s?data|s?bss)(\.|$)|COMMON$", sec):
            ram += size
        elif re.match(r"\.s?rodata(\.|$)", sec):
            rodata += size
        elif sec.startswith(".text") and not sec.startswith(".text.uk"):
            stray += size  # kernel code outside the attribution sections (should be 0)
    print(f"text {text}")
    print(f"ram {ram}")
    print(f"rodata {rodata}")
    print(f"text_outside_uk_sections {stray}")


def read_kv(path):
    kv = {}
    if os.path.exists(path):
        with open(path) as f:
            for ln in f:
                parts = ln.split()
                if len(parts) >= 2:
                    kv[parts[0]] = parts[1:]
    return kv


def collect(d, out):
    res = {"sched_overhead_cycles": {}, "coop_switch_cycles": {}}
    ns = [1, 2, 4, 8, 16, 32, 64, 128, 256]
    scheds = schedulers()
    for s in scheds:
        kv = read_kv(os.path.join(d, f"sched-{s}.txt"))
        row = {}
        for n in ns:
            # worst over the repetitions, and over the modes (fillers ready or blocked)
            v = [int(kv[f"sched_{m}_{n}"][0])
                 for m in ("ready", "blocked") if f"sched_{m}_{n}" in kv]
            if v:
                row[str(n)] = max(v)
        if row:
            res["sched_overhead_cycles"][s] = row
        kv = read_kv(os.path.join(d, f"coop-{s}.txt"))
        if "coop" in kv:
            res["coop_switch_cycles"][s] = int(kv["coop"][0])
    lat = [int(read_kv(os.path.join(d, f"irqlat-{s}.lat"))["irqlat_worst"][0])
           for s in scheds
           if os.path.exists(os.path.join(d, f"irqlat-{s}.lat"))]
    if lat:
        res["irq_latency_worst_cycles"] = max(lat)
    kv = read_kv(os.path.join(d, "irqoff.txt"))
    if "irq_disable_restore" in kv:
        res["irq_disable_restore_cycles"] = int(kv["irq_disable_restore"][0])
    for key, unit in (("footprint_text_bytes", "text"), ("footprint_ram_bytes", "ram")):
        for cfg, app in (("minimal", "footprint_min"), ("full", "footprint_full")):
            kv = read_kv(os.path.join(d, f"{app}.fp"))
            if unit in kv:
                res.setdefault(key, {})[cfg] = int(kv[unit][0])
    for k in ("sched_overhead_cycles", "coop_switch_cycles"):
        if not res[k]:
            del res[k]
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        json.dump(res, f, indent=2)
        f.write("\n")


SERVICES = ("queue", "port", "taskport", "flags", "signal", "timer", "pool", "heap")


def services(mapfile):
    """Code (.text*) bytes linked from each service's file of kernel/src/."""
    size = {k: 0 for k in SERVICES}
    for sec, n, obj in map_inputs(mapfile):
        m = re.search(r"/obj/kernel/src/(\w+)\.c\.o$", obj)
        if m and m[1] in size and sec.startswith(".text"):
            size[m[1]] += n
    for k in SERVICES:
        print(f"footprint_{k} {size[k]}")


def ipc(d, out):
    kv = {}
    path = os.path.join(d, "ipc-prio.txt")
    with open(path) as f:
        for ln in f:
            p = ln.split()
            if len(p) == 3:
                kv.setdefault(p[0], {})[p[1]] = int(p[2])
            elif len(p) == 2 and p[1].isdigit():
                kv[p[0]] = int(p[1])
    res = {}
    for k in ("queue", "port", "taskport"):
        if k in kv:
            res[k] = kv[k]
    for k in ("sem_give_take", "flags_set_wait", "pool_alloc_free", "heap_alloc_free_worst"):
        if k in kv:
            res[k] = kv[k]
    mx = {}
    if "mutex_uncontended" in kv:
        mx["uncontended"] = kv["mutex_uncontended"]
    if "mutex_contended" in kv:
        mx["contended"] = kv["mutex_contended"]
    if mx:
        res["mutex_lock_unlock"] = mx
    # Beyond the contract's keys: the same handoffs to a waiting receiver for queues and
    # ports (taskport's method), and the code size of each service.
    for k in ("handoff_queue", "handoff_port"):
        if k in kv:
            res[k] = kv[k]
    fp = read_kv(os.path.join(d, "footprint_services.fp"))
    if fp:
        res["footprint_text_bytes"] = {k[len("footprint_"):]: int(v[0]) for k, v in fp.items()}
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        json.dump(res, f, indent=2)
        f.write("\n")


def main(argv):
    if len(argv) == 3 and argv[1] == "irqlat":
        irqlat(argv[2])
    elif len(argv) == 4 and argv[1] == "footprint":
        footprint(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "collect" and argv[3] == "-o":
        collect(argv[2], argv[4])
    elif len(argv) == 3 and argv[1] == "services":
        services(argv[2])
    elif len(argv) == 5 and argv[1] == "ipc" and argv[3] == "-o":
        ipc(argv[2], argv[4])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
