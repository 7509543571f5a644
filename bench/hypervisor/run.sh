#!/usr/bin/env bash
# The hypervisor experiment (docs/hypervisor.md): experiments/hypervisor.toml -> one image per
# (policy, load) and the real-time application alone, each run with `ubik run --io`;
# hv_json.py turns the IO records and the hypervisor's reports into out/bench/hypervisor.json:
#   {"alone": {"task_switch_us": .., "irq_latency_us": .., "wake_latency_us": .., and _p50},
#    "fair": {..}, "rt": {..},
#    "gp_throughput": {"fair": units/s, "rt": units/s}, "ratio_to_alone", "by_load", "paper"}
# (worst cases over the loads; `_p50` medians). Work: build/hypervisor/.
# Usage: bench/hypervisor/run.sh [-e EXPERIMENT.toml] [-o OUT.json]
#        bench/hypervisor/run.sh --check     a short run (15 bursts) that checks the findings:
#                                            fair degrades the interrupt latency by orders of
#                                            magnitude, rt does not, and keeps the medians of
#                                            task switch and interrupt latency within 2x
#                                            (exit 1 when a finding does not hold)
# Nothing from the experiment file reaches a shell: hv_json.py settings checks every value
# and hands them over as data (NUL-separated), used only quoted or as checked integers and
# names. A failure is one line on stderr and the contract's exit code (docs/contract.md): 65
# bad data, 66 unreadable, a build's or a run's own code passed on (a firmware's 1..63, 71,
# 72, ...).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ubik="$root/sim/target/release/ubik"
here="$root/bench/hypervisor"
exp="$root/experiments/hypervisor.toml"
out="$root/out/bench/hypervisor.json"
check=0
while [[ $# -gt 0 ]]; do
    case $1 in
        -e) exp=$2; shift 2 ;;
        -o) out=$2; shift 2 ;;
        --check) check=1; shift ;;
        *) echo "usage: $0 [-e EXPERIMENT.toml] [-o OUT.json] | --check" >&2; exit 64 ;;
    esac
done
py="${PYTHON:-python3}"
work="$root/build/hypervisor"
runs="$work/runs"
mkdir -p "$runs" || { echo "hypervisor: cannot create $runs" >&2; exit 74; }
# The experiment's settings (tomllib: the file is the one source), checked by hv_json.py and
# read as data into S[KEY]: never evaluated.
"$py" "$here/hv_json.py" settings "$exp" "$check" > "$work/settings.bin"
rc=$?
[[ $rc -eq 0 ]] || exit "$rc"
declare -A S
mapfile -d '' -t kv < "$work/settings.bin"
for ((i = 0; i + 1 < ${#kv[@]}; i += 2)); do
    S[${kv[i]}]=${kv[i + 1]}
done
slice_us=${S[slice_us]} period_us=${S[period_us]} min_share=${S[min_share]}
rt_event_period_us=${S[rt_event_period_us]} rt_probe_period_us=${S[rt_probe_period_us]}
rt_burst=${S[rt_burst]} rt_bursts=${S[rt_bursts]}
rt_app=${S[rt]} gp_app=${S[gp]}
read -r -a policies <<< "${S[policies]}"
read -r -a loads <<< "${S[loads]}"
# failed CODE MESSAGE: the experiment stops at its first failure, with one line on stderr and
# that failure's exit code.
failed() {
    echo "hypervisor: $2" >&2
    exit "$1"
}

# copy_app SRC DST CFLAGS [TICK_HZ]: the application with [build] cflags (and tick_hz) set.
copy_app() {
    local src=$root/$1 dst=$2 cflags=$3 tick=${4:-}
    if [[ ! -f $src/system.toml ]]; then
        failed 66 "$exp: no application at $1 (no system.toml there); expected a directory relative to the repository"
    fi
    mkdir -p "$dst"
    cp -- "$src"/*.c "$dst/" 2>/dev/null
    { sed -e '/^\[build\]/,$d' ${tick:+-e "s/^tick_hz = .*/tick_hz = $tick/"} "$src/system.toml"
      printf '[build]\ncflags = [%s]\n' "$cflags"; } > "$dst/system.toml.new"
    cmp -s "$dst/system.toml.new" "$dst/system.toml" || mv "$dst/system.toml.new" "$dst/system.toml"
    rm -f "$dst/system.toml.new"
}

# machine FILE DEVICE_PERIOD_US: 16 PMP entries, the real-time events on line 3, its probes on
# line 4 and the general-purpose device on line 5.
machine() {
    { printf '[core]\npmp_regions = 16\n\n[[stimulus]]\nline = 3\nkind = "periodic"\nperiod_us = %s\nstart_us = 500\n' "$rt_event_period_us"
      printf '\n[[stimulus]]\nline = 4\nkind = "periodic"\nperiod_us = %s\nstart_us = 503\n' "$rt_probe_period_us"
      [[ $2 != 0 ]] && printf '\n[[stimulus]]\nline = 5\nkind = "periodic"\nperiod_us = %s\n' "$2"
    } > "$1"
}

# measure NAME ELF MACHINE: run, keep the console and the IO record, write NAME.json.
measure() {
    local name=$1 rc
    timeout 600 "$ubik" run "$2" --machine "$3" --io "$runs/$name.io.csv" --max-cycles 4000000000 \
        > "$runs/$name.txt" 2>&1
    rc=$?
    if [[ $rc -ne 0 ]]; then
        [[ $rc -eq 124 ]] && rc=72 # timeout's: the run did not stop
        local why
        why=$(grep -m1 '^ubik: ' "$runs/$name.txt" || tail -1 "$runs/$name.txt")
        failed "$rc" "$name: the run failed (exit $rc): ${why#ubik: }; its console is in $runs/$name.txt"
        return 1
    fi
    "$py" "$here/hv_json.py" measure "$runs/$name.io.csv" "$runs/$name.txt" "$rt_burst" > "$runs/$name.json" \
        2> "$runs/$name.err"
    rc=$?
    if [[ $rc -ne 0 ]]; then
        failed "$rc" "$name: $(tail -1 "$runs/$name.err")"
        return 1
    fi
    echo "hypervisor: $name: $(cat "$runs/$name.json")"
}

# build NAME DIR: ubik build, its messages in DIR.build.log.
build() {
    UBIK_ROOT="$root" "$ubik" build "$2" > "$2.build.log" 2>&1
    local rc=$?
    local why
    why=$(grep -m1 '^ubik: ' "$2.build.log" || tail -1 "$2.build.log")
    [[ $rc -eq 0 ]] || failed "$rc" "$1: the build failed (exit $rc): ${why#ubik: }; its messages are in $2.build.log"
    return $rc
}

rt_flags="\"-DRT_BURST=$rt_burst\", \"-DRT_BURSTS=$rt_bursts\""

# The real-time application alone on the machine.
copy_app "$rt_app" "$work/alone" "$rt_flags"
machine "$work/alone/machine.toml" 0
if build alone "$work/alone"; then
    measure alone "$work/alone/build/app.elf" "$work/alone/machine.toml"
fi

for pol in "${policies[@]}"; do
    for load in "${loads[@]}"; do
        read -r tick dev words <<< "${S[load_$load]}"
        dir=$work/$pol-$load
        copy_app "$rt_app" "$dir/rt" "$rt_flags"
        copy_app "$gp_app" "$dir/gp" "\"-DGP_WORDS=$words\"" "$tick"
        cat > "$dir/hypervisor.toml.new" <<TOML
# Generated by bench/hypervisor/run.sh from $(basename "$exp"): policy $pol, load $load.
[hypervisor]
policy = "$pol"
slice_us = $slice_us
period_us = $period_us
min_share = $min_share
run_until = "rt"

[partition.rt]
app = "rt"
devices = ["io"]
lines = [3, 4]
realtime = true

[partition.gp]
app = "gp"
lines = [5]
TOML
        cmp -s "$dir/hypervisor.toml.new" "$dir/hypervisor.toml" || mv "$dir/hypervisor.toml.new" "$dir/hypervisor.toml"
        rm -f "$dir/hypervisor.toml.new"
        machine "$dir/machine.toml" "$dev"
        build "$pol-$load" "$dir" || continue
        measure "$pol-$load" "$dir/build/hv.elf" "$dir/machine.toml"
    done
done

if [[ $check -eq 1 ]]; then
    "$py" - "$runs" "${S[loads]}" <<'PY' || exit 1
import json, sys
runs, loads = sys.argv[1], sys.argv[2].split()
a = json.load(open(f"{runs}/alone.json"))
bad = []
for load in loads:
    f = json.load(open(f"{runs}/fair-{load}.json"))
    r = json.load(open(f"{runs}/rt-{load}.json"))
    # A short run may see no burst cut by the end of a turn: the wake latency shows fair's wait.
    fair_worst = max(f["irq_latency_us"], f["wake_latency_us"])
    if fair_worst < 100 * a["irq_latency_us"]:
        bad.append(f"{load}: fair's worst interrupt latency {fair_worst} us is not 100x the alone {a['irq_latency_us']} us")
    if r["wake_latency_us"] > 100 * a["irq_latency_us"]:
        bad.append(f"{load}: rt wake latency {r['wake_latency_us']} us degraded like fair's")
    for k in ("task_switch_us_p50", "irq_latency_us_p50"):
        if r[k] > 2 * a[k]:
            bad.append(f"{load}: rt {k} {r[k]} us over 2x alone {a[k]}")
    if r["gp_throughput"] <= 0:
        bad.append(f"{load}: the general-purpose partition made no progress under rt")
print("\n".join(f"FAIL  hypervisor check: {b}" for b in bad) or "hypervisor check: ok")
sys.exit(1 if bad else 0)
PY
    exit 0
fi
mkdir -p "$(dirname "$out")" || exit 74
"$py" "$here/hv_json.py" combine "$exp" "$runs" "$out"
