#!/usr/bin/env python3
"""The hypervisor experiment's figures (bench/hypervisor/run.sh, docs/hypervisor.md).

  hv_json.py measure IO.csv CONSOLE.txt BURST        -> one run's figures as JSON on stdout
  hv_json.py combine EXPERIMENT.toml RUNS_DIR OUT.json -> out/bench/hypervisor.json

From a run's IO record: task switches = the windows between consecutive task marks (a rising
edge of pin 2 or 3) within a burst (2 * BURST marks each); interrupt latency = from a probe
(line 4) that lands inside a burst, while the tasks run, to the next rising edge of pin 5;
wake latency = the same for a probe between bursts and for a line-3 event (pin 4), which
find the partition idle. From its console (under
the hypervisor): the report's time and the general-purpose partition's progress and CPU time.
Every figure in microseconds; worst case and median (`_p50`)."""
import bisect
import csv
import json
import re
import statistics
import sys
import tomllib

PAPER = {  # seed paper 004, Table 1: FreeRTOS alone and beside Linux on the QPlus hypervisor
    "alone": {"task_switch_us": 3.5, "irq_latency_us": 3.0},
    "hypervisor": {"task_switch_us": 4000.0, "irq_latency_us": 150.0},
}


FIGURES = [f"{m}_us{p}" for m in ("task_switch", "irq_latency", "wake_latency") for p in ("", "_p50")]


def fail(why):
    sys.exit(f"hv_json: {why}")


def latencies(rows, line, pin):
    """(event time, latency) per served event: from the first event on LINE not yet served to
    the next rising edge of PIN (events that pile up before the handler runs are served by one)."""
    t = lambda r: float(r["time_s"]) * 1e6
    out, pend = [], None
    for r in rows:
        if r["kind"] == "stimulus" and r["port"] == line:
            pend = r if pend is None else pend
        elif r["kind"] == "gpio" and r["port"] == pin and r["value"] == "1" and pend is not None:
            out.append((t(pend), t(r) - t(pend)))
            pend = None
    return out


def measure(io_path, console_path, burst):
    rows = list(csv.DictReader(open(io_path)))
    t = lambda r: float(r["time_s"]) * 1e6
    marks = [t(r) for r in rows if r["kind"] == "gpio" and r["port"] in ("2", "3") and r["value"] == "1"]
    per = 2 * burst
    switches = [marks[k + 1] - marks[k] for k in range(len(marks) - 1) if k // per == (k + 1) // per]
    bursts = [(marks[k], marks[min(k + per, len(marks)) - 1]) for k in range(0, len(marks), per)]
    # A probe (line 4) inside a burst interrupts a running task: Rhealstone's interrupt latency.
    # One between bursts finds the partition idle, as every line-3 event does: the wake latency.
    busy, wake = [], [lat for _, lat in latencies(rows, "3", "4")]
    starts = [b[0] for b in bursts]
    for at, lat in latencies(rows, "4", "5"):
        i = bisect.bisect_right(starts, at) - 1
        (busy if i >= 0 and at <= bursts[i][1] else wake).append(lat)
    if not switches or not busy or not wake:
        fail(f"{io_path}: no task switches, no probes inside a burst or no wake-ups measured")
    out = {
        "task_switch_us": round(max(switches), 3),
        "task_switch_us_p50": round(statistics.median(switches), 3),
        "irq_latency_us": round(max(busy), 3),
        "irq_latency_us_p50": round(statistics.median(busy), 3),
        "wake_latency_us": round(max(wake), 3),
        "wake_latency_us_p50": round(statistics.median(wake), 3),
        "task_switches": len(switches),
        "interrupts": len(busy),
        "wake_ups": len(wake),
    }
    console = open(console_path).read()
    rep = re.search(r"^hv: report policy=(\w+) time_us=(\d+) switches=(\d+)$", console, re.M)
    if rep:
        out["time_us"] = int(rep.group(2))
        out["partition_switches"] = int(rep.group(3))
        gp = re.search(r"^hv: partition gp \w+ (?:status=\d+ )?cpu_us=(\d+) progress=(\d+)$", console, re.M)
        if gp:
            cpu_us, units = int(gp.group(1)), int(gp.group(2))
            out["gp_units"] = units
            out["gp_throughput"] = round(units / (out["time_us"] / 1e6), 1)
            out["gp_cpu_share"] = round(cpu_us / out["time_us"], 4)
    return out


def combine(exp_path, runs, out_path):
    exp = tomllib.load(open(exp_path, "rb"))
    loads = [l["name"] for l in exp["load"]]
    get = lambda name: json.load(open(f"{runs}/{name}.json"))
    result = {"alone": {k: v for k, v in get("alone").items() if k.startswith(("task_switch_us", "irq_latency_us", "wake_latency_us"))}}
    by_load = {}
    for pol in exp["policies"]:
        worst = {}
        for load in loads:
            r = get(f"{pol}-{load}")
            by_load.setdefault(load, {})[pol] = r
            for k in FIGURES:
                worst[k] = max(worst.get(k, 0.0), r[k])
        result[pol] = worst
    # The general-purpose partition's work units per second under the headline load (units
    # differ between loads: a load's words set a unit's size), and its share of the CPU.
    head = exp.get("headline_load", loads[0])
    result["gp_throughput"] = {pol: by_load[head][pol]["gp_throughput"] for pol in exp["policies"]}
    result["gp_throughput_load"] = head
    result["gp_cpu_share"] = {pol: by_load[head][pol]["gp_cpu_share"] for pol in exp["policies"]}
    alone = result["alone"]
    result["ratio_to_alone"] = {
        pol: {k: round(result[pol][k] / alone[k], 2) for k in alone} for pol in exp["policies"]
    }
    result["by_load"] = by_load
    result["paper"] = PAPER
    result["setup"] = {k: v for k, v in exp.items() if k != "load"} | {"loads": exp["load"]}
    json.dump(result, open(out_path, "w"), indent=2)
    print(f"hv_json: wrote {out_path}")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "measure":
        print(json.dumps(measure(sys.argv[2], sys.argv[3], int(sys.argv[4]))))
    elif len(sys.argv) == 5 and sys.argv[1] == "combine":
        combine(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        fail("usage: hv_json.py measure IO.csv CONSOLE.txt BURST | combine EXPERIMENT.toml RUNS_DIR OUT.json")
