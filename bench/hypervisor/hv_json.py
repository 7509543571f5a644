#!/usr/bin/env python3
"""The hypervisor experiment's figures (bench/hypervisor/run.sh, docs/hypervisor.md).

  hv_json.py settings EXPERIMENT.toml CHECK         -> the experiment's settings, checked, for
                                                        run.sh: NUL-separated KEY VALUE pairs
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
    """One line, exit 65: the record or the file holds no usable data (docs/contract.md)."""
    print(f"hv_json: {why}", file=sys.stderr)
    sys.exit(65)


NAME = re.compile(r"[A-Za-z0-9_-]+")


def settings(exp_path, check):
    """The experiment file's settings for run.sh, every one checked: integers in range, the
    policies and load names from their sets (so that run.sh may split and print them), the
    applications' directories as plain strings (run.sh passes them quoted, as arguments).
    Written NUL-separated, KEY and VALUE in turn: nothing in the file is ever shell code.
    Bad data: one line, exit 65 (docs/contract.md)."""
    def bad(why):
        print(f"hypervisor: {exp_path}: {why}", file=sys.stderr)
        sys.exit(65)
    try:
        with open(exp_path, "rb") as f:
            e = tomllib.load(f)
    except OSError as x:
        print(f"hypervisor: {exp_path}: cannot read it ({x.strerror})", file=sys.stderr)
        sys.exit(66)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as x:
        bad(f"not valid TOML: {x}")

    def integer(tab, key, lo, hi, where=""):
        v = tab.get(key)
        if type(v) is not int or not lo <= v <= hi:
            bad(f"{where}{key} = {v!r}; expected an integer from {lo} to {hi}")
        return v

    def text(key):
        v = e.get(key)
        if type(v) is not str or not v or "\0" in v or v.startswith("/"):
            bad(f"{key} = {v!r}; expected the application's directory, relative to the repository")
        return v
    out = {"rt": text("rt"), "gp": text("gp")}
    pols = e.get("policies")
    if type(pols) is not list or not pols or any(p not in ("fair", "rt") for p in pols) or len(set(pols)) != len(pols):
        bad(f"policies = {pols!r}; expected a list of \"fair\" and \"rt\", each once")
    out["policies"] = " ".join(pols)
    for key, lo in (("slice_us", 100), ("period_us", 100), ("rt_event_period_us", 10), ("rt_probe_period_us", 10)):
        out[key] = str(integer(e, key, lo, 1_000_000_000))
    out["rt_burst"] = str(integer(e, "rt_burst", 1, 100_000))
    out["rt_bursts"] = str(15 if check else integer(e, "rt_bursts", 1, 100_000))
    share = e.get("min_share")
    if type(share) not in (int, float) or not 0 <= share <= 0.9:
        bad(f"min_share = {share!r}; expected a fraction of the CPU from 0 to 0.9")
    out["min_share"] = repr(float(share))
    loads = e.get("load")
    if type(loads) is not list or not loads or any(type(l) is not dict for l in loads):
        bad("no [[load]]; expected at least one")
    names = []
    for l in loads:
        name = l.get("name")
        if type(name) is not str or not NAME.fullmatch(name) or name in names:
            bad(f"load name {name!r}; expected letters, digits, '-' and '_', each load named once")
        names.append(name)
        where = f"load {name}: "
        out[f"load_{name}"] = " ".join(str(integer(l, k, lo, hi, where)) for k, lo, hi in (
            ("tick_hz", 1, 100_000), ("device_period_us", 0, 1_000_000_000), ("words", 1, 16_384)))
    out["loads"] = " ".join(names)
    sys.stdout.buffer.write(b"".join(k.encode() + b"\0" + v.encode() + b"\0" for k, v in out.items()))


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
    if len(sys.argv) == 4 and sys.argv[1] == "settings":
        settings(sys.argv[2], sys.argv[3] == "1")
    elif len(sys.argv) == 5 and sys.argv[1] == "measure":
        print(json.dumps(measure(sys.argv[2], sys.argv[3], int(sys.argv[4]))))
    elif len(sys.argv) == 5 and sys.argv[1] == "combine":
        combine(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        fail("usage: hv_json.py settings EXPERIMENT.toml CHECK | measure IO.csv CONSOLE.txt BURST | combine EXPERIMENT.toml RUNS_DIR OUT.json")
