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


ADPCM_STEPS = [
    7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45, 50, 55, 60,
    66, 73, 80, 88, 97, 107, 118, 130, 143, 157, 173, 190, 209, 230, 253, 279, 307, 337, 371,
    408, 449, 494, 544, 598, 658, 724, 796, 876, 963, 1060, 1166, 1282, 1411, 1552, 1707,
    1878, 2066, 2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428, 4871, 5358, 5894, 6484, 7132,
    7845, 8630, 9493, 10442, 11487, 12635, 13899, 15289, 16818, 18500, 20350, 22385, 24623,
    27086, 29794, 32767]
ADPCM_INDEX = [-1, -1, -1, -1, 2, 4, 6, 8] * 2
ADPCM_FRAME = 160


def adpcm(workload, xs):
    """IMA ADPCM over frames of ADPCM_FRAME samples: each frame's checksum sum((k + 1) *
    out[k]) mod 2^32 of the codes (adpcm_enc) or of the decoded samples (adpcm_dec, the
    inputs' low 4 bits taken as codes), the codec's state carried across frames."""
    pred, index = 0, 0

    def step(c):
        nonlocal pred, index
        st = ADPCM_STEPS[index]
        diff = st >> 3
        if c & 4:
            diff += st
        if c & 2:
            diff += st >> 1
        if c & 1:
            diff += st >> 2
        pred = max(-32768, min(32767, pred - diff if c & 8 else pred + diff))
        index = max(0, min(88, index + ADPCM_INDEX[c & 15]))
        return pred

    def encode(x):
        st = ADPCM_STEPS[index]
        diff, c = x - pred, 0
        if diff < 0:
            c, diff = 8, -diff
        if diff >= st:
            c |= 4
            diff -= st
        if diff >= st >> 1:
            c |= 2
            diff -= st >> 1
        if diff >= st >> 2:
            c |= 1
        step(c)
        return c

    out = []
    for f in range(len(xs) // ADPCM_FRAME):
        frame = xs[f * ADPCM_FRAME:(f + 1) * ADPCM_FRAME]
        total = 0
        for k, x in enumerate(frame):
            v = encode(x) if workload == "adpcm_enc" else step(x & 15)
            total += (k + 1) * (v & 0xFFFFFFFF)
        out.append(s32(total))
    return out


def expected(workload, ratio, xs):
    out = []
    if workload.startswith("adpcm"):
        return adpcm(workload, xs)
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
    xs = xs * (1 + 20000 // len(xs))  # the stream wraps around
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
