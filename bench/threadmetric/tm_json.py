#!/usr/bin/env python3
"""Thread-Metric results -> JSON, and the suite's self-check (bench/threadmetric/run.sh).

Reads RESULTS/ROW/KEY.txt (the console of one run; ROW is OS-SCHED), whose summary line is
    tm SCENARIO count=N cycles=C cpc=X
and writes {"ROW": {"KEY": X, ...}, ...}: X, cycles per count, an integer.
The self-check: basic processing measures the machine, not the OS, so its cycles per count
must agree across every row within 1 % (of the smallest), or within what counting whole
passes allows in a short window (two passes of the row with the fewest: run.sh --check
measures ~30); otherwise this exits 1 naming the rows. Without -o only the check is made.
Usage: tm_json.py RESULTS [-o OUT.json]
"""
import argparse
import json
import os
import re
import sys

SUMMARY = re.compile(r"^tm (\w+) count=(\d+) cycles=(\d+) cpc=(\d+)$")
BASIC_TOLERANCE = 0.01


def read_results(results, counts=None):
    """{ROW: {KEY: cpc}}; with `counts` (a dict), also fills {(ROW, KEY): count}."""
    out = {}
    for row in sorted(os.listdir(results)):
        rdir = os.path.join(results, row)
        if not os.path.isdir(rdir):
            continue
        for fname in sorted(os.listdir(rdir)):
            if not fname.endswith(".txt"):
                continue
            with open(os.path.join(rdir, fname)) as f:
                for line in f:
                    m = SUMMARY.match(line.strip())
                    if m:
                        count, cycles = int(m.group(2)), int(m.group(3))
                        out.setdefault(row, {})[fname[:-4]] = round(cycles / count)
                        if counts is not None:
                            counts[(row, fname[:-4])] = count
    return out


def basic_disagreement(table, counts):
    """None if every row's basic cpc lies within the tolerance of the smallest, else why."""
    basic = {row: keys["basic"] for row, keys in table.items() if "basic" in keys}
    if len(basic) < 2:
        return None, BASIC_TOLERANCE
    lo = min(basic.values())
    fewest = min(counts.get((row, "basic"), 1) for row in basic)
    tolerance = max(BASIC_TOLERANCE, 2 / fewest)
    far = {row: v for row, v in basic.items() if v > lo * (1 + tolerance)}
    if not far:
        return None, tolerance
    rows = ", ".join(f"{row} {v}" for row, v in sorted(basic.items()))
    return (f"basic processing disagrees across OSes by more than {tolerance:.1%} "
            f"(cycles per count: {rows}): it measures the machine, so a row that differs "
            f"runs another workload or loses cycles to its OS"), tolerance


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    counts = {}
    table = read_results(args.results, counts)
    if not table:
        sys.exit("tm_json.py: no results in " + args.results)
    why, tolerance = basic_disagreement(table, counts)
    if why:
        print("threadmetric: self-check failed: " + why, file=sys.stderr)
    else:
        rows = [r for r in table if "basic" in table[r]]
        print(f"threadmetric: self-check passed: basic processing agrees within "
              f"{tolerance:.1%} across {len(rows)} rows")
    if args.output:
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        with open(args.output, "w") as f:
            json.dump(table, f, indent=2, sort_keys=True)
            f.write("\n")
    sys.exit(1 if why else 0)


if __name__ == "__main__":
    main()
