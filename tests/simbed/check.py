#!/usr/bin/env python3
"""Checks a SimBed workload run against a host computation of the same input.

usage: check.py WORKLOAD RATIO TASKS INPUT.txt IO.csv CONSOLE.txt

Every task i reads input stream IN[1 + i] (here the file INPUT.txt from its start) and writes
OUT[1 + i]; the expected output is computed here from the input as the firmware's writer does
(apps/simbed/workloads.c), and the run's output values must be exactly a prefix of it (the run
stops mid-stream), with no sample dropped. The aperiodic job's OUT[0] must count 1, 2, 3, ...
"""
import csv
import re
import sys

FIR_TAPS = 128


def tdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def s32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def expected(workload, ratio, xs):
    out = []
    if workload == "ipc":
        out = list(xs)
    elif workload == "up":
        prev = cur = 0
        for x in xs:
            prev, cur = cur, x
            out += [prev + tdiv((cur - prev) * k, ratio) for k in range(ratio)]
    elif workload == "down":
        for i in range(0, len(xs) - ratio + 1, ratio):
            out.append(tdiv(sum(xs[i:i + ratio]), ratio))
    elif workload == "fir":
        h = []
        for k in range(FIR_TAPS):
            tri = k + 1 if k < FIR_TAPS // 2 else FIR_TAPS - k
            h.append(tri * 32768 // ((FIR_TAPS // 2) * (FIR_TAPS // 2 + 1)))
        hist = [0] * FIR_TAPS
        for n, x in enumerate(xs):
            hist[n % FIR_TAPS] = x
            acc = sum(h[k] * hist[(n - k) % FIR_TAPS] for k in range(FIR_TAPS))
            out.append(s32(acc >> 15))
    else:
        raise SystemExit(f"check.py: unknown workload {workload}")
    return out


def main():
    workload, ratio, tasks, input_txt, io_csv, console = sys.argv[1:7]
    ratio, tasks = int(ratio), int(tasks)
    xs = []
    for line in open(input_txt):
        xs += [int(t, 0) for t in line.split("#")[0].split()]
    xs = xs * 4  # the stream wraps around
    text = open(console).read()
    m = re.search(r"outputs=(\d+) drops=(\d+) empties=(\d+) aperiodic=(\d+)", text)
    if not m:
        raise SystemExit(f"check.py: no summary line in {console}: {text!r}")
    outputs, drops, _, aperiodic = map(int, m.groups())
    if drops:
        raise SystemExit(f"check.py: {drops} samples dropped (channel full)")
    got = {}
    for r in csv.DictReader(open(io_csv)):
        if r["kind"] == "out":
            got.setdefault(int(r["port"]), []).append(s32(int(r["value"])))
    want = expected(workload, ratio, xs)
    total = 0
    for i in range(tasks):
        g = got.get(1 + i, [])
        if not g:
            raise SystemExit(f"check.py: task {i} wrote nothing to OUT[{1 + i}]")
        if g != want[: len(g)]:
            k = next(k for k in range(len(g)) if g[k] != want[k])
            raise SystemExit(
                f"check.py: {workload} task {i}: output {k} is {g[k]}, expected {want[k]} "
                f"(from the host computation of {input_txt})")
        total += len(g)
    if total != outputs:
        raise SystemExit(f"check.py: the record has {total} outputs, the firmware counted {outputs}")
    ap = got.get(0, [])
    if ap != list(range(1, len(ap) + 1)) or len(ap) != aperiodic or not ap:
        raise SystemExit(f"check.py: the aperiodic job's outputs are not 1..{aperiodic}")
    print(f"{workload}: {total} outputs match the host computation, {len(ap)} aperiodic responses")


main()
