#!/usr/bin/env bash
# Kernel events and user markers in `ubik run --trace` (tests/trace/kevents: a producer sends
# to the queue `mailbox`, a consumer receives with a timeout, the producer sets a marker and
# a value): the JSON has send and receive instants naming the queue, block on it, wake by the
# producer, timeout, ready slices, the marker "batch" and the counter "value 1"; and none of
# it without a kernel call (no marker from crt0 clearing .bss). Usage: tests/trace/kevents.sh
# (part of make test)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
UBIK_CFLAGS=${UBIK_CFLAGS:-} "$root/ubik" build "$root/tests/trace/kevents" -o "$work/app.elf" \
    --build-dir "$work/build" >/dev/null || { echo "FAIL  trace kevents: the test firmware does not build"; exit 1; }
"$root/ubik" run "$work/app.elf" --max-time 0.03 --trace "$work/t.json" >/dev/null 2>"$work/err"
code=$?
if [ "$code" != 72 ]; then
    echo "FAIL  trace kevents: exit $code, expected 72: $(cat "$work/err")"
    exit 1
fi
python3 - "$work/t.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
fails = []
tracks = {e["tid"]: e["args"]["name"] for e in ev if e["name"] == "thread_name"}
def on(track, name, cat="kernel"):
    return [e for e in ev if e.get("cat") == cat and e["name"] == name
            and tracks.get(e.get("tid"), "").startswith(track)]
for track, name, cat in [("producer", "send mailbox", "kernel"),
                         ("consumer", "receive mailbox", "kernel"),
                         ("consumer", "block on mailbox", "kernel"),
                         ("consumer", "woken by producer", "kernel"),
                         ("consumer", "timeout on mailbox", "kernel"),
                         ("producer", "delay", "kernel"),
                         ("consumer", "ready", "ready"),
                         ("producer", "batch", "marker")]:
    if not on(track, name, cat):
        fails.append(f"no {cat} event '{name}' on the {track}'s track")
sends = on("producer", "send mailbox")
if len(sends) != 9:
    fails.append(f"{len(sends)} sends in 30 ms, expected 9 (3 batches of 3)")
if sends and (sends[0]["args"].get("kind") != "queue" or sends[0]["args"].get("object") != "mailbox"):
    fails.append(f"send's args: {sends[0]['args']}")
blocks = on("consumer", "block on mailbox")
if blocks and blocks[0]["args"].get("kind") != "queue":
    fails.append(f"block's args: {blocks[0]['args']}")
values = [e["args"]["value"] for e in ev if e.get("cat") == "user" and e["name"] == "value 1"]
if values != [0, 1, 2]:
    fails.append(f"counter 'value 1' took {values}, expected [0, 1, 2]")
markers = [e["name"] for e in ev if e.get("cat") == "marker"]
if markers != ["batch"] * 3:
    fails.append(f"markers {markers}, expected batch three times")
if [e for e in ev if e.get("cat") == "user" and e["name"] != "value 1"]:
    fails.append("a counter other than 'value 1' (crt0's .bss clearing taken for a marker?)")
for f in fails:
    print("FAIL  trace kevents:", f)
if not fails:
    print("ok    trace kevents: send/receive/block/wake/timeout by name, ready slices, markers")
sys.exit(1 if fails else 0)
PY
