#!/usr/bin/env python3
"""OS-overhead results -> JSON (bench/overhead/run.sh).

Reads RESULTS/ROW/PROGRAM.txt (`ov PROGRAM cycles=C bad=B checksum=H background=R
interrupts=I`) and RESULTS/ROW/PROGRAM.stats.json (`ubik run --stats`), and writes, per ROW,
for each PROGRAM (basicmath, fft):
    PROGRAM_cycles          the program's run time in cycles (mcycle around it)
    PROGRAM_overhead_pct    how much longer than bare metal, in % of the bare run
    PROGRAM_kernel_pct      cycles spent in the kernel (every kernel_* category of the
                            testbed's attribution, NOS's code included) during the whole run,
                            in % of the bare run: the OS's own overhead
    PROGRAM_background_pct  the rest of the elongation: the background's own work (its
                            task or job, LISR, HISR), in % of the bare run
    PROGRAM_background_runs periodic background runs while the program ran
    PROGRAM_interrupts      background interrupts handled while the program ran
    PROGRAM_energy_uj       the whole run's energy, microjoules
Every row must report the same checksum as bare metal (the same results), else this fails.
Usage: ov_json.py RESULTS [-o OUT.json]
"""
import argparse
import json
import os
import re
import sys

LINE = re.compile(r"^ov (\w+) cycles=(\d+) bad=(\d+) checksum=([0-9a-f]+) background=(\d+) "
                  r"interrupts=(\d+)$")


def read(results):
    runs = {}
    for row in sorted(os.listdir(results)):
        rdir = os.path.join(results, row)
        if not os.path.isdir(rdir):
            continue
        for fname in sorted(os.listdir(rdir)):
            if not fname.endswith(".txt"):
                continue
            prog = fname[:-4]
            with open(os.path.join(rdir, fname)) as f:
                m = next((LINE.match(l.strip()) for l in f if LINE.match(l.strip())), None)
            if not m or m.group(1) != prog:
                raise SystemExit(f"ov_json.py: {row}/{fname}: no `ov {prog} ...` line")
            with open(os.path.join(rdir, prog + ".stats.json")) as f:
                stats = json.load(f)
            runs[(row, prog)] = (m, stats)
    return runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    runs = read(args.results)
    table, bad = {}, []
    for (row, prog), (m, stats) in sorted(runs.items()):
        base = runs.get(("bare", prog))
        if base is None:
            raise SystemExit(f"ov_json.py: no bare-metal run of {prog}")
        bare_cycles = int(base[0].group(2))
        cycles = int(m.group(2))
        if int(m.group(3)) != 0 or m.group(4) != base[0].group(4):
            bad.append(f"{row} {prog}: results differ from bare metal "
                       f"(bad={m.group(3)}, checksum {m.group(4)} vs {base[0].group(4)})")
        cats = stats.get("by_category") or {}
        kernel = sum(v["cycles"] for k, v in cats.items() if k.startswith("kernel_"))
        over = 100.0 * (cycles - bare_cycles) / bare_cycles
        kern = 100.0 * kernel / bare_cycles if row != "bare" else 0.0
        keys = table.setdefault(row, {})
        keys[prog + "_cycles"] = cycles
        keys[prog + "_overhead_pct"] = round(over, 3)
        keys[prog + "_kernel_pct"] = round(kern, 3)
        keys[prog + "_background_pct"] = round(over - kern, 3)
        keys[prog + "_background_runs"] = int(m.group(5))
        keys[prog + "_interrupts"] = int(m.group(6))
        keys[prog + "_energy_uj"] = round(stats["energy_j"] * 1e6, 3)
        print(f"overhead: {row:>16} {prog:>9}: {cycles} cycles, +{over:.2f} % "
              f"(kernel {kern:.2f} %), {keys[prog + '_energy_uj']} uJ")
    for b in bad:
        print("overhead: " + b, file=sys.stderr)
    if args.output:
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        with open(args.output, "w") as f:
            json.dump(table, f, indent=2, sort_keys=True)
            f.write("\n")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
