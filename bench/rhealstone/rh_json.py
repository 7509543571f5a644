#!/usr/bin/env python3
"""Rhealstone results -> JSON: edges from the IO record, checked against mcycle (run.sh).

For every RESULTS/ROW/FIGURE.txt (the firmware's console: `rh FIGURE sample=I mcycle=C`
lines, then `rh FIGURE done samples=N`) and RESULTS/ROW/FIGURE.io.csv (`ubik run --io`:
cycle,time_s,kind,port,value), pairs each rising edge of GPIO pin 2 (the path's start) with
the next rising edge of pin 3 (its end). The first pair is the firmware's warm-up and is
left out; the rest must be exactly N pairs, strictly alternating. Each pair's cycles is one
measurement as an oscilloscope on the two pins would show it. The firmware measured the same
paths with mcycle (read just before the first store, just after the second): mcycle minus
the edges must be one constant for the samples (the reads and stores around the path: at
least 90 % of the samples share it; the others had an interrupt, the tick, land between a
counter read and its store). Writes {"ROW": {"FIGURE": mean, "FIGURE_min": min,
"FIGURE_max": max}} (cycles, integers) and prints the constant per row and figure.
Usage: rh_json.py RESULTS [-o OUT.json]    (without -o: the checks only)
"""
import argparse
import collections
import csv
import json
import os
import re
import sys

PIN_START, PIN_END = 2, 3
SAMPLE = re.compile(r"^rh (\w+) sample=(\d+) mcycle=(\d+)$")
DONE = re.compile(r"^rh (\w+) done samples=(\d+)$")
AGREEMENT = 0.9


class Bad(Exception):
    pass


def edges(io_path):
    """The (start, end) cycle pairs of the IO record, in order."""
    pairs, start = [], None
    with open(io_path, newline="") as f:
        rows = csv.DictReader(f)
        if rows.fieldnames is None or "kind" not in rows.fieldnames:
            raise Bad(f"{io_path}: not an IO record (header cycle,time_s,kind,port,value)")
        for r in rows:
            if r["kind"] != "gpio" or r["value"] != "1":
                continue
            pin, cycle = int(r["port"]), int(r["cycle"])
            if pin == PIN_START:
                if start is not None:
                    raise Bad(f"{io_path}: two start edges without an end (cycle {cycle})")
                start = cycle
            elif pin == PIN_END:
                if start is None:
                    raise Bad(f"{io_path}: an end edge without a start (cycle {cycle})")
                pairs.append((start, cycle))
                start = None
    return pairs


def console(txt_path, figure):
    samples, done = {}, None
    with open(txt_path) as f:
        for line in f:
            line = line.strip()
            m = SAMPLE.match(line)
            if m and m.group(1) == figure:
                samples[int(m.group(2))] = int(m.group(3))
            m = DONE.match(line)
            if m and m.group(1) == figure:
                done = int(m.group(2))
            if line.startswith(f"rh {figure} FAIL"):
                raise Bad(f"{txt_path}: {line}")
    if done is None:
        raise Bad(f"{txt_path}: no `rh {figure} done` line")
    if sorted(samples) != list(range(done)):
        raise Bad(f"{txt_path}: {len(samples)} sample lines for {done} samples")
    return [samples[i] for i in range(done)]


def figure_of(results, row, figure):
    base = os.path.join(results, row, figure)
    mc = console(base + ".txt", figure)
    pairs = edges(base + ".io.csv")
    if len(pairs) != len(mc) + 1:
        raise Bad(f"{base}.io.csv: {len(pairs)} edge pairs, expected {len(mc) + 1} "
                  f"(a warm-up and {len(mc)} samples)")
    gpio = [e - s for s, e in pairs[1:]]
    offsets = collections.Counter(m - g for m, g in zip(mc, gpio))
    offset, agree = offsets.most_common(1)[0]
    if agree < AGREEMENT * len(gpio):
        raise Bad(f"{base}: mcycle and the edges disagree: mcycle - edges takes the values "
                  f"{dict(offsets)} over {len(gpio)} samples (one constant expected)")
    return gpio, offset, agree


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    table, bad = {}, []
    for row in sorted(os.listdir(args.results)):
        rdir = os.path.join(args.results, row)
        if not os.path.isdir(rdir):
            continue
        for fname in sorted(os.listdir(rdir)):
            if not fname.endswith(".txt"):
                continue
            figure = fname[:-4]
            try:
                gpio, offset, agree = figure_of(args.results, row, figure)
            except (Bad, OSError, ValueError, KeyError) as e:
                bad.append(str(e))
                continue
            keys = table.setdefault(row, {})
            keys[figure] = round(sum(gpio) / len(gpio))
            keys[figure + "_min"] = min(gpio)
            keys[figure + "_max"] = max(gpio)
            print(f"rhealstone: {row} {figure}: mean {keys[figure]} min {min(gpio)} "
                  f"max {max(gpio)} cycles over {len(gpio)} samples; mcycle - edges = "
                  f"{offset} in {agree} of them")
    for b in bad:
        print("rhealstone: " + b, file=sys.stderr)
    if not table and not bad:
        bad.append("no results in " + args.results)
        print("rhealstone: no results in " + args.results, file=sys.stderr)
    if args.output and table:
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        with open(args.output, "w") as f:
            json.dump(table, f, indent=2, sort_keys=True)
            f.write("\n")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
