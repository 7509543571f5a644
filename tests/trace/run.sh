#!/usr/bin/env bash
# `ubik run --trace` from outside (tests/trace/app: two tasks taking turns every tick, a
# button interrupt every 700 us): the trace streams, so a run 20 times longer takes no more
# memory (peak RSS within 8 MiB of the short run's); interrupt slices are named from
# system.toml and by their LISR ("irq line 3: button (on_button)"); no task slice overlaps
# an interrupt slice (tasks are cut by the interrupts they take, so their slices add up to
# their CPU time); the IO record's events are instants. Usage: tests/trace/run.sh   (part of make test)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
UBIK_CFLAGS=${UBIK_CFLAGS:-} "$root/ubik" build "$root/tests/trace/app" -o "$work/app.elf" \
    --build-dir "$work/build" >/dev/null || { echo "FAIL  trace: the test firmware does not build"; exit 1; }
python3 - "$root/ubik" "$work" "$root/tests/trace/app/machine.toml" <<'PY'
import json, resource, subprocess, sys
ubik, work, machine = sys.argv[1:4]
fails = []

# Each run under its own Python, whose children's peak RSS is then that run's alone.
MEASURE = ("import resource, subprocess, sys\n"
           "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
           "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
           "sys.stderr.write(r.stderr)\n")

def run(seconds, out):
    """Peak RSS (KiB) of one traced run of `seconds` of simulated time."""
    p = subprocess.run([sys.executable, "-c", MEASURE, ubik, "run", f"{work}/app.elf",
                        "--machine", machine, "--max-time", str(seconds), "--trace", out],
                       capture_output=True, text=True)
    code, peak = map(int, p.stdout.split())
    if code != 72:
        fails.append(f"--max-time {seconds}: exit {code}, expected 72: {p.stderr}")
    return peak

short = run(0.2, f"{work}/short.json")
long_ = run(4, f"{work}/long.json")
if long_ > short + 8 * 1024:
    fails.append(f"peak memory {long_} KiB for 4 s against {short} KiB for 0.2 s: not bounded")

ev = json.load(open(f"{work}/short.json"))["traceEvents"]
irq = [e for e in ev if e["ph"] == "X" and e.get("cat") == "interrupt"]
if not any(e["name"] == "irq line 3: button (on_button)" for e in irq):
    fails.append("no interrupt slice named 'irq line 3: button (on_button)': "
                 + str(sorted({e['name'] for e in irq})))
tasks = sorted((e["ts"], e["ts"] + e["dur"], e["name"]) for e in ev
               if e["ph"] == "X" and e.get("cat") == "task")
spans = sorted((e["ts"], e["ts"] + e["dur"]) for e in irq)
eps = 1e-6
j = 0
for (b, e, name) in tasks:
    while j < len(spans) and spans[j][1] <= b + eps:
        j += 1
    k = j
    while k < len(spans) and spans[k][0] < e - eps:
        if spans[k][1] > b + eps:
            fails.append(f"task {name} [{b}, {e}] overlaps interrupt {spans[k]}")
            break
        k += 1
    if len(fails) > 5:
        break
instants = [e for e in ev if e["ph"] == "i" and e.get("cat") == "io"]
kinds = {e["args"]["kind"] for e in instants}
if not {"out", "stimulus"} <= kinds:
    fails.append(f"IO instants: kinds {kinds}, expected out and stimulus")
for f in fails:
    print("FAIL  trace:", f)
if fails:
    sys.exit(1)
print(f"PASS  trace: streamed (peak {short} KiB for 0.2 s, {long_} KiB for 4 s), "
      f"{len(irq)} interrupt slices named from system.toml and the LISR, {len(tasks)} task slices cut by them, "
      f"{len(instants)} IO instants")
PY
