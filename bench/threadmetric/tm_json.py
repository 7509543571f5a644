#!/usr/bin/env python3
"""Thread-Metric results -> JSON (bench/threadmetric/run.sh).

Reads RESULTS/SCENARIO-SCHED.txt (the console of one run), whose summary line is
    tm SCENARIO count=N cycles=C cpc=X
and writes {"ubik-SCHED": {"SCENARIO": X, ...}, ...}: X, cycles per count, an integer.
Usage: tm_json.py RESULTS -o OUT.json
"""
import argparse
import json
import os
import re
import sys

SUMMARY = re.compile(r"^tm (\w+) count=(\d+) cycles=(\d+) cpc=(\d+)$")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    out = {}
    for fname in sorted(os.listdir(args.results)):
        if not fname.endswith(".txt"):
            continue
        scenario, sched = fname[:-4].rsplit("-", 1)
        with open(os.path.join(args.results, fname)) as f:
            for line in f:
                m = SUMMARY.match(line.strip())
                if m and m.group(1) == scenario:
                    count, cycles = int(m.group(2)), int(m.group(3))
                    out.setdefault("ubik-" + sched, {})[scenario] = round(cycles / count)
    if not out:
        sys.exit("tm_json.py: no results in " + args.results)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(out, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
