#!/usr/bin/env python3
"""Checks the counts of missed work in an experiment's summary against the runs themselves.

usage: check_overload.py OUT_DIR

For every variant of OUT_DIR/summary.json (one seed), recounts from the run's IO record
(runs/LABEL-s1/io.csv) the outputs each task wrote (OUT[1 + i]), the stimuli of fast line 0
and those with no later write to OUT[0] (ignoring the run's last millisecond, as the summary
does), and from the firmware's own summary line the total of outputs; every count must equal
the summary's, and every variant must be flagged overloaded with work missed.
"""
import csv
import json
import re
import sys


def main():
    out = sys.argv[1]
    summary = json.load(open(f"{out}/summary.json"))
    seed = summary["seeds"][0]
    failures = []
    for v in summary["variants"]:
        label, tasks = v["label"], v["tasks"]
        run = f"{out}/runs/{label}-s{seed}"
        end_s = json.load(open(f"{run}/stats.json"))["sim_time_s"]
        produced = [0] * tasks
        pending, stimuli, unanswered = [], 0, 0
        for r in csv.DictReader(open(f"{run}/io.csv")):
            port, t = int(r["port"]), float(r["time_s"])
            if r["kind"] == "stimulus" and port == 0:
                pending.append(t)
            elif r["kind"] == "out" and port == 0:
                stimuli += len(pending)
                pending = []
            elif r["kind"] == "out" and 1 <= port <= tasks:
                produced[port - 1] += 1
        late = [t for t in pending if t <= end_s - 0.001]
        stimuli += len(late)
        unanswered = len(late)
        console = open(f"{run}/console.txt").read()
        m = re.search(r"outputs=(\d+)", console)
        firmware_outputs = int(m.group(1)) if m else None

        def check(what, got, want):
            if got != want:
                failures.append(f"{label}: {what} is {got} in summary.json; the run shows {want}")

        check("outputs_produced_per_task", v["outputs_produced_per_task"], produced)
        check("outputs_produced", v["outputs_produced"], sum(produced))
        check("outputs_produced (firmware's count)", v["outputs_produced"], firmware_outputs)
        check("stimuli", v["stimuli"], stimuli)
        check("stimuli_unanswered", v["stimuli_unanswered"], unanswered)
        per_task = v["outputs_expected"] // tasks
        allowed = int(per_task * summary["on_time_tolerance_pct"] / 100)
        short = sum(1 for p in produced if p + allowed < per_task)
        check("tasks_short", v["tasks_short"], short)
        if not v["overloaded"] or v["outputs_produced"] >= v["outputs_expected"]:
            failures.append(f"{label}: not flagged overloaded, or no output missing")
        print(f"{label}: outputs {v['outputs_produced']}/{v['outputs_expected']}, "
              f"{short} task(s) short, stimuli unanswered {unanswered}/{stimuli}")
    if not any(v["stimuli_unanswered"] > 0 for v in summary["variants"]):
        failures.append("no variant left a stimulus unanswered (NOS polls its interrupt work "
                        "below the periodic jobs: it must)")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


main()
