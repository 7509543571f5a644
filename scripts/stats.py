#!/usr/bin/env python3
"""Reads `ubik run --stats` JSON files (docs/contract.md).

  stats.py summary STATS.json
      prints a short human summary
  stats.py testbed COMPUTE.json IDLE.json -o OUT.json
      writes the testbed benchmark {"mips": ..., "idle_speedup": ...}:
      mips from the compute-bound run, idle_speedup = sim_time_s / host_seconds
      of the idle run
"""
import argparse
import json
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"stats.py: cannot read {path}: {e}")


def need(stats, key, path):
    if key not in stats:
        sys.exit(f"stats.py: {path} has no key '{key}' (expected the --stats schema of docs/contract.md)")
    return stats[key]


def summary(path):
    s = load(path)
    lines = []
    if "cycles" in s:
        lines.append(f"  cycles        {s['cycles']:,}")
    if "instret" in s:
        lines.append(f"  instructions  {s['instret']:,}")
    if "sim_time_s" in s:
        lines.append(f"  simulated     {s['sim_time_s'] * 1e3:.3f} ms")
    if s.get("energy_j"):
        lines.append(f"  energy        {s['energy_j'] * 1e6:.3f} uJ  (avg {s.get('avg_power_w', 0) * 1e3:.3f} mW)")
    if "host_seconds" in s:
        lines.append(f"  host time     {s['host_seconds'] * 1e3:.1f} ms  ({s.get('mips', 0):.1f} MIPS)")
    print(f"Summary of {path}:")
    print("\n".join(lines) if lines else "  (no statistics in the file)")


def testbed(compute_path, idle_path, out_path):
    c = load(compute_path)
    i = load(idle_path)
    mips = float(need(c, "mips", compute_path))
    sim_time = float(need(i, "sim_time_s", idle_path))
    host = float(need(i, "host_seconds", idle_path))
    if host <= 0:
        sys.exit(f"stats.py: {idle_path}: host_seconds is {host}, expected > 0")
    result = {"mips": mips, "idle_speedup": sim_time / host}
    with open(out_path, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(f"testbed: {mips:.1f} MIPS compute-bound, idle speedup {sim_time / host:.0f}x "
          f"(simulated s per host s) -> {out_path}")


def main():
    p = argparse.ArgumentParser(description="Summarise ubik --stats JSON files.")
    sub = p.add_subparsers(dest="cmd", required=True)
    ps = sub.add_parser("summary")
    ps.add_argument("stats")
    pt = sub.add_parser("testbed")
    pt.add_argument("compute")
    pt.add_argument("idle")
    pt.add_argument("-o", "--output", required=True)
    a = p.parse_args()
    if a.cmd == "summary":
        summary(a.stats)
    else:
        testbed(a.compute, a.idle, a.output)


if __name__ == "__main__":
    main()
