#!/usr/bin/env python3
"""Thread-Metric results -> JSON, and the suite's self-check (bench/threadmetric/run.sh).

Reads RESULTS/ROW/KEY.txt (the console of one run; ROW is OS-SCHED), whose summary line is
    tm SCENARIO count=N cycles=C cpc=X [interrupts=I]
and writes {"ROW": {"KEY": X, ...}, ...}: X, cycles per count, an integer.
Units: the interrupt scenarios must say how many interrupts they counted and count exactly one
per interrupt, as Thread-Metric does (issue 28, item 30); otherwise this exits 1.
The self-check: basic processing measures the machine, not the OS, so its cycles per count
must agree across every row within 1 % (of the smallest), or within what counting whole
passes allows in a short window (two passes of the row with the fewest: run.sh --check
counts ~30, so 6.7 %); otherwise this exits 1 naming the rows. Either way the message says
which tolerance applied and why, with the rows' actual spread. Without -o only the check is
made.
Usage: tm_json.py RESULTS [-o OUT.json]
"""
import argparse
import json
import os
import re
import sys

SUMMARY = re.compile(r"^tm (\w+) count=(\d+) cycles=(\d+) cpc=(\d+)(?: interrupts=(\d+))?$")
# Thread-Metric counts one per interrupt in these (the handler's count), whatever else counts.
PER_INTERRUPT = ("interrupt", "interrupt_preemption")
BASIC_TOLERANCE = 0.01


def read_results(results, counts=None, units=None):
    """{ROW: {KEY: cpc}}; with `counts` (a dict), also fills {(ROW, KEY): count}; with
    `units` (a list), appends why a result does not count in Thread-Metric's unit."""
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
                        if units is not None:
                            why = unit_mismatch(m.group(1), count, m.group(5))
                            if why:
                                units.append(f"{row} {fname[:-4]}: {why}")
                        out.setdefault(row, {})[fname[:-4]] = round(cycles / count)
                        if counts is not None:
                            counts[(row, fname[:-4])] = count
    return out


def unit_mismatch(scenario, count, interrupts):
    """None if `count` is in Thread-Metric's unit for `scenario`, else why not."""
    if scenario not in PER_INTERRUPT:
        return None
    if interrupts is None:
        return ("the summary line does not say how many interrupts its count covers "
                "(interrupts=N); expected it in the interrupt scenarios")
    if count != int(interrupts):
        return (f"counts {count} for {interrupts} interrupts; expected one count per interrupt, "
                f"Thread-Metric's unit, so that the figure stands beside its published ones")
    return None


def tolerance_applied(counts, rows):
    """The tolerance for `rows`' basic figures and, when it is not the suite's 1 %, why."""
    fewest = min(counts.get((row, "basic"), 1) for row in rows)
    tolerance = max(BASIC_TOLERANCE, 2 / fewest)
    if tolerance <= BASIC_TOLERANCE:
        return tolerance, f"the suite's {BASIC_TOLERANCE:.0%} tolerance"
    return tolerance, (f"a tolerance of {tolerance:.1%}, not the {BASIC_TOLERANCE:.0%} of a full "
                       f"run: the windows are short (the row with the fewest counted {fewest} "
                       f"passes) and counting whole passes allows two of them")


def basic_disagreement(table, counts):
    """(None if every row's basic cpc lies within the tolerance of the smallest, else why;
    the tolerance; what the tolerance is and why, for the messages; the rows' spread)."""
    basic = {row: keys["basic"] for row, keys in table.items() if "basic" in keys}
    if len(basic) < 2:
        return None, BASIC_TOLERANCE, f"the suite's {BASIC_TOLERANCE:.0%} tolerance", 0.0
    lo = min(basic.values())
    spread = max(basic.values()) / lo - 1
    tolerance, which = tolerance_applied(counts, basic)
    far = {row: v for row, v in basic.items() if v > lo * (1 + tolerance)}
    if not far:
        return None, tolerance, which, spread
    rows = ", ".join(f"{row} {v}" for row, v in sorted(basic.items()))
    return (f"basic processing disagrees across OSes by {spread:.1%}, more than {which} "
            f"(cycles per count: {rows}): it measures the machine, so a row that differs "
            f"runs another workload or loses cycles to its OS"), tolerance, which, spread


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    counts, units = {}, []
    table = read_results(args.results, counts, units)
    if not table:
        sys.exit("tm_json.py: no results in " + args.results)
    for u in units:
        print("threadmetric: not Thread-Metric's unit: " + u, file=sys.stderr)
    why, _, which, spread = basic_disagreement(table, counts)
    if why:
        print("threadmetric: self-check failed: " + why, file=sys.stderr)
    else:
        rows = [r for r in table if "basic" in table[r]]
        print(f"threadmetric: self-check passed: basic processing agrees across {len(rows)} "
              f"rows within {spread:.1%}, under {which}")
    if args.output:
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        with open(args.output, "w") as f:
            json.dump(table, f, indent=2, sort_keys=True)
            f.write("\n")
    sys.exit(1 if why or units else 0)


if __name__ == "__main__":
    main()
