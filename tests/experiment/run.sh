#!/usr/bin/env bash
# `ubik experiment` and `ubik report` end to end: the small experiment experiments/smoke.toml
# is built and run twice; every data file must be written and identical between the two runs
# (determinism); every figure written; the report must name every figure and, rendered by
# headless Chromium (when installed: scripts/setup.sh installs it), give a non-trivial
# screenshot. Usage: tests/experiment/run.sh  (after `make sim`; part of `make test`)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ubik="${UBIK:-$root/sim/target/release/ubik}"
work="$root/build/experiment-tests"
rm -rf "$work"
mkdir -p "$work"
fail=0
bad() { echo "FAIL  experiment: $*"; fail=1; }

for k in a b; do
    if ! "$ubik" experiment "$root/experiments/smoke.toml" -o "$work/$k/smoke" > "$work/$k.log" 2>&1; then
        bad "ubik experiment (run $k) failed:"; tail -5 "$work/$k.log" | sed 's/^/      /'
        exit 1
    fi
done
for f in runs.csv variants.csv jitter.csv delay.csv summary.json; do
    [[ -s $work/a/smoke/$f ]] || bad "$f missing or empty"
    cmp -s "$work/a/smoke/$f" "$work/b/smoke/$f" || bad "$f differs between two runs of the same experiment"
done
# 4 variants (ubik-prio and nos, 1 and 2 tasks): 4 rows each, every run produced output.
[[ $(($(wc -l < "$work/a/smoke/runs.csv") - 1)) -eq 4 ]] || bad "runs.csv: expected 4 runs"
# Every run produced every output it should and answered every stimulus: a system that keeps
# up is not flagged.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["cycles"] == 0 || $col["outputs_produced"] != $col["outputs_expected"] ||
    $col["outputs_expected"] == 0 || $col["overloaded"] != 0 || $col["stimuli_unanswered"] != 0 { exit 1 }' \
    "$work/a/smoke/runs.csv" || bad "runs.csv: a run that keeps up has missing outputs, unanswered stimuli or the overload flag"
n_svg=$(ls "$work/a/smoke"/*.svg 2>/dev/null | wc -l)
[[ $n_svg -eq 3 ]] || bad "expected 3 figures (jitter, delay: one panel per system; energy), found $n_svg"
for s in "$work/a/smoke"/*.svg; do grep -q "</svg>" "$s" || bad "$(basename "$s") is not a complete SVG"; done
# Every bar labelled (all four, not every other one; plotters writes each text on a line of
# its own); one panel per system on shared axes; the
# title names the output period (2000 us), not the reader's.
for l in "ubik-prio 1 task(s)" "ubik-prio 2 task(s)" "nos 1 task(s)" "nos 2 task(s)"; do
    grep -qx "$l" "$work/a/smoke/energy-up-p4000-r2.svg" || bad "energy figure: the bar \"$l\" has no label"
done
for p in ubik-prio nos; do
    grep -qx "$p" "$work/a/smoke/jitter-up-p4000-r2.svg" || bad "jitter figure: no panel $p"
done
grep -q "outputs every 2000 us (input every 4000 us)" "$work/a/smoke/jitter-up-p4000-r2.svg" || bad "jitter figure: the title does not name the output period" 

# The report.
if ! "$ubik" report "$work/a" -o "$work/report" > "$work/report.log" 2>&1; then
    bad "ubik report failed:"; sed 's/^/      /' "$work/report.log"
else
    page="$work/report/index.html"
    n_fig=$(grep -o "<figure>" "$page" | wc -l)
    [[ $n_fig -eq 3 ]] || bad "report: expected 3 figures, found $n_fig"
    grep -q "Definitions." "$page" || bad "report: the metrics' definitions are missing"
    grep -q "What the paper reports" "$page" || bad "report: the paper's numbers are missing"
    grep -q "ubik-prio-up-t2-p4000-r2" "$page" || bad "report: the variants table is missing"
    chromium=$(command -v chromium || command -v chromium-browser || true)
    if [[ -n $chromium ]]; then
        timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
            --window-size=1280,2000 --screenshot="$work/report.png" "file://$page" > "$work/chromium.log" 2>&1
        size=$(stat -c %s "$work/report.png" 2>/dev/null || echo 0)
        [[ $size -gt 20000 ]] || bad "report: Chromium's screenshot is missing or blank ($size bytes)"
    elif [[ ${CI:-} == true ]]; then
        bad "report: chromium is not installed (scripts/setup.sh installs it)"
    else
        echo "note: chromium not installed; the report's screenshot check was skipped"
    fi
    # A missing directory is one clear error, not a panic.
    "$ubik" report "$work/none" > /dev/null 2> "$work/err.txt"
    [[ $? -eq 66 ]] && grep -q "not a directory" "$work/err.txt" || bad "report on a missing directory: expected exit 66"
fi
# Generated Markdown tables: `ubik report --markdown`, spliced into a document's block by
# scripts/results-tables.sh (as docs/results.md's are), twice without change.
md=$("$ubik" report "$work/a/smoke" --markdown 2>&1)
grep -q "^| ubik-prio-up-t2-p4000-r2 | " <<< "$md" && grep -q "^| ubik-prio up 4000 us 2:1 | " <<< "$md" ||
    bad "report --markdown: the variants table or the by-task pivot is missing"
printf '# doc\n\nbefore\n<!-- results-tables: smoke -->\nstale\n<!-- /results-tables -->\nafter\n' > "$work/doc.md"
for k in 1 2; do
    RESULTS_MD="$work/doc.md" RESULTS_OUT="$work/a" "$root/scripts/results-tables.sh" --no-run smoke 2> /dev/null ||
        bad "results-tables.sh --no-run failed"
    cp "$work/doc.md" "$work/doc$k.md"
done
grep -q "stale" "$work/doc.md" && bad "results-tables.sh left the old block"
grep -q "^| ubik-prio-up-t2-p4000-r2 | " "$work/doc.md" && grep -q "^after$" "$work/doc.md" ||
    bad "results-tables.sh did not splice the table in place"
cmp -s "$work/doc1.md" "$work/doc2.md" || bad "results-tables.sh: a second splice changed the document"
# The RTM experiment, reduced (1 s, 1 and 4 channels): every system keeps up; Fig. 4 has a
# bar per variant; the RTM lowers the scheduling share of Ubik (against bitmap) and of NOS at
# 4 channels, as the paper found; the Markdown report has the reductions table.
sed -e 's/^run_ms = .*/run_ms = 1000/' -e 's/^tasks = .*/tasks = [1, 4]/' \
    -e "s|^machine = \"simbed.machine.toml\"|machine = \"$root/experiments/simbed.machine.toml\"|" \
    "$root/experiments/rtm.toml" > "$work/rtm.toml"
if ! "$ubik" experiment "$work/rtm.toml" -o "$work/rtm" > "$work/rtm.log" 2>&1; then
    bad "ubik experiment rtm.toml (reduced) failed:"; tail -5 "$work/rtm.log" | sed 's/^/      /'
else
    [[ $(($(wc -l < "$work/rtm/variants.csv") - 1)) -eq 20 ]] || bad "rtm: expected 20 variants"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["outputs_produced"] != $col["outputs_expected"] || $col["stimuli_unanswered"] != 0 { exit 1 }' \
        "$work/rtm/variants.csv" || bad "rtm: a variant missed outputs or stimuli"
    for w in adpcm_enc adpcm_dec; do
        f="$work/rtm/utilisation-$w-p20000.svg"
        for l in nos nos-rtm ubik-prio ubik-bitmap ubik-rtm; do
            grep -qx "$l 4 channel(s)" "$f" 2>/dev/null || bad "rtm: $(basename "$f") has no bar \"$l 4 channel(s)\""
        done
    done
    share() { # SYSTEM: kernel_sched cycles in % of all, adpcm_enc at 4 channels
        awk -F, -v sys="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            $col["system"] == sys && $col["workload"] == "adpcm_enc" && $col["tasks"] == 4 {
                printf "%d\n", 1e6 * $col["kernel_sched_cycles"] / $col["cycles"] }' "$work/rtm/variants.csv"
    }
    (($(share ubik-rtm) < $(share ubik-bitmap))) || bad "rtm: the RTM does not lower Ubik's scheduling share"
    (($(share nos-rtm) < $(share nos))) || bad "rtm: the RTM does not lower NOS's scheduling share"
    "$ubik" report "$work/rtm" --markdown 2>&1 | grep -q "^| nos-rtm / nos | adpcm_enc | 4 | " ||
        bad "rtm: the Markdown report has no reductions table"
fi
# A deliberately overloaded system: flagged, its missed outputs and unanswered stimuli counted
# exactly (recounted from the runs' IO records and the firmware's own count).
if ! "$ubik" experiment "$root/experiments/overload.toml" -o "$work/overload" > "$work/overload.log" 2>&1; then
    bad "ubik experiment overload.toml failed:"; tail -5 "$work/overload.log" | sed 's/^/      /'
elif ! out=$(python3 "$root/tests/experiment/check_overload.py" "$work/overload" 2>&1); then
    bad "overloaded variants:"; echo "$out" | sed 's/^/      /'
elif [[ $(grep -c "OVERLOAD" "$work/overload.log") -ne 2 ]]; then
    bad "the summary table does not mark both overloaded variants"
fi
# The DPM experiment (UbiFOS Table 2 and Fig. 16): every policy keeps every deadline (the
# workloads are sized so), so every row has a saving; the current over time is written per
# variant, 200 windows of 20 ms over the 4 s runs.
if ! "$ubik" experiment "$root/experiments/dpm.toml" -o "$work/dpm" > "$work/dpm.log" 2>&1; then
    bad "ubik experiment dpm.toml failed:"; tail -5 "$work/dpm.log" | sed 's/^/      /'
else
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["deadline_misses"] != 0 || $col["deadlines_kept"] != 1 || $col["saving_vs_default_pct"] == "" { exit 1 }' \
        "$work/dpm/dpm.csv" || bad "dpm.csv: a policy missed deadlines or has no saving"
    [[ $(ls "$work/dpm"/current-time-*.svg 2> /dev/null | wc -l) -eq 4 ]] || bad "dpm: expected 4 current-over-time figures"
    [[ $(($(wc -l < "$work/dpm/current_time.csv") - 1)) -eq $((20 * 200)) ]] || bad "dpm: current_time.csv should hold 20 variants x 200 windows"
fi
# A bad experiment file: one line naming file, line and column; exit 65.
printf '[sweep]\nworkload = ["fft"]\n' > "$work/bad.toml"
"$ubik" experiment "$work/bad.toml" -o "$work/bad" > /dev/null 2> "$work/err.txt"
rc=$?
[[ $rc -eq 65 ]] && grep -q "bad.toml:2:13: workload \"fft\" is not known" "$work/err.txt" || bad "bad experiment file: expected exit 65 and file:line:column (got $rc: $(cat "$work/err.txt"))"

# Any application (kind = "app"): the tutorial under four schedulers and two tick rates,
# every run checked for its output; then a check that cannot hold, which must fail the
# experiment (exit 1) and say why in the row.
if "$ubik" experiment "$root/experiments/tutorial-schedulers.toml" -o "$work/app" > "$work/app.txt" 2>&1; then
    [[ $(grep -c ',true,' "$work/app/app.csv") -eq 8 ]] || bad "app experiment: expected 8 passing rows in app.csv"
    grep -q '^8 of 8 runs passed' "$work/app.txt" || bad "app experiment: no summary line"
    # Every run's tasks.csv has the tutorial's tasks with their known counts under every
    # scheduler (apps/tutorial/main.c): the consumer runs 4 times and is never preempted;
    # the producer runs 6 times and is preempted by each of its 3 sends; each completes 3
    # responses (the consumer's fourth ends the run).
    n_csv=0
    for t in "$work"/app/runs/*/tasks.csv; do
        n_csv=$((n_csv + 1))
        head -1 "$t" | grep -qx 'task,cpu_us,activations,preemptions,response_p50_us,response_p99_us,response_max_us' ||
            bad "$t: not the tasks.csv header"
        awk -F, 'NR > 1 { seen[$1] = $3 "/" $4 }
            END { exit !(seen["consumer"] == "4/0" && seen["producer"] == "6/3" && seen["idle"] != "" && NR == 4) }' "$t" ||
            bad "$t: expected consumer 4/0, producer 6/3 and idle (activations/preemptions): $(tr '\n' ' ' < "$t")"
        awk -F, 'NR > 1 && $1 != "idle" && !($5 > 0 && $5 <= $6 && $6 <= $7) { exit 1 }' "$t" ||
            bad "$t: a task's response percentiles are missing or out of order"
    done
    [[ $n_csv -eq 8 ]] || bad "app experiment: expected a tasks.csv in each of 8 runs, found $n_csv"
    # The report, pointed at the app experiment itself: the runs and every run's tasks.
    if "$ubik" report "$work/app" -o "$work/app-report" > "$work/app-report.log" 2>&1; then
        page="$work/app-report/index.html"
        grep -q 'Experiment app (app)' "$page" && grep -q '8 of 8 runs passed' "$page" &&
            grep -q '<td>prio-1000hz</td><td>default</td><td>1</td><td>0</td><td>[0-9]*</td>' "$page" &&
            grep -q '<td>prio-1000hz-m0-s1</td><td>consumer</td><td>[0-9.]*</td><td>4</td><td>0</td>' "$page" ||
            bad "report of the app experiment: the runs or the tasks table is missing"
    else
        bad "ubik report on the app experiment failed: $(cat "$work/app-report.log")"
    fi
    md=$("$ubik" report "$work/app" --markdown 2>&1)
    grep -q '^| prio-1000hz-m0-s1 | producer | [0-9.]* | 6 | 3 | ' <<< "$md" ||
        bad "report --markdown of the app experiment: no producer row: $md"
    # The latency pair's columns: three handoffs a run, none unpaired, a few microseconds each.
    head -1 "$work/app/app.csv" | grep -q ',energy_j,handoff_p50_us,handoff_p99_us,handoff_max_us,handoff_count,handoff_unpaired,pass,why$' ||
        bad "app experiment: app.csv lacks the latency's columns: $(head -1 "$work/app/app.csv")"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        !($col["handoff_count"] == 3 && $col["handoff_unpaired"] == 0 && $col["handoff_p50_us"] > 0 &&
          $col["handoff_max_us"] < 50) { exit 1 }' "$work/app/app.csv" ||
        bad "app experiment: expected 3 handoffs of under 50 us in every row of app.csv"
    [[ -s $work/app/runs/prio-1000hz-m0-s1/io.csv ]] || bad "app experiment: the run's IO record (io.csv) is missing"
    grep -q '<testsuite name="tutorial-schedulers" tests="8" failures="0"' "$work/app/junit.xml" &&
        [[ $(grep -c '<testcase ' "$work/app/junit.xml") -eq 8 ]] ||
        bad "app experiment: junit.xml should hold 8 passing test cases"
else
    bad "app experiment failed: $(tail -3 "$work/app.txt")"
fi
mkdir -p "$work/appfail"
cat > "$work/appfail/e.toml" <<'TOML'
kind = "app"
app = "apps/tutorial"
run_ms = 100
[sweep]
scheduler = ["prio"]
cflags = [["-DUNUSED=1"]]
[[latency]]
name = "handoff"
from = "out:0"
to = "out:1"
[expect]
console = ["got 4"]
[[expect.bound]]
figure = "latency.handoff.max_us"
max = 1
TOML
"$ubik" experiment "$work/appfail/e.toml" -o "$work/appfail/out" > "$work/appfail.txt" 2>&1
rc=$?
why='the console output lacks "got 4"; latency.handoff.max_us = 3.77, above the bound max = 1'
[[ $rc -eq 1 ]] && grep -qF "FAIL: $why" "$work/appfail.txt" &&
    grep -qF ",3,0,false,\"${why//\"/\"\"}\"" "$work/appfail/out/app.csv" ||
    bad "app experiment with failing checks: expected exit 1 and the reasons (got $rc: $(cat "$work/appfail.txt"))"
# junit.xml: one test case, a failure per failed check, the quotes escaped, well formed.
junit=$work/appfail/out/junit.xml
grep -q '<testsuite name="e" tests="1" failures="1"' "$junit" &&
    grep -q '<failure message="the console output lacks &quot;got 4&quot;"' "$junit" &&
    grep -q '<failure message="latency.handoff.max_us = 3.77, above the bound max = 1"' "$junit" &&
    python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$junit" ||
    bad "app experiment with failing checks: junit.xml should hold the two failures, well formed: $(cat "$junit")"
# A failing run shows as such in the report, with its reasons.
"$ubik" report "$work/appfail/out" --markdown 2>&1 | grep '^| prio-UNUSED_1 | default | 1 | 0 | ' | grep -qF "| false | $why |" ||
    bad "report of a failing app run: expected its row with pass false and the reasons"
# A bad latency pair, and a bound on a figure that does not exist: one line at the file's
# line and column, exit 65, before anything is built.
bad_app_file() { # SED-EXPRESSION EXPECTED-MESSAGE
    sed "$1" "$work/appfail/e.toml" > "$work/appfail/bad.toml"
    "$ubik" experiment "$work/appfail/bad.toml" -o "$work/appfail/bad" > /dev/null 2> "$work/appfail/err.txt"
    local rc=$?
    [[ $rc -eq 65 && $(wc -l < "$work/appfail/err.txt") -eq 1 && ! -e $work/appfail/bad ]] &&
        grep -qF "$2" "$work/appfail/err.txt" ||
        bad "bad app check: expected exit 65 and \"$2\" (got $rc: $(cat "$work/appfail/err.txt"))"
}
bad_app_file 's/^from = .*/from = "pin:2:up"/' 'bad.toml:9:8: event "pin:2:up": the edge "up" is not rise or fall'
bad_app_file 's/^figure = .*/figure = "latency.handof.p99_us"/' 'bad.toml:14:10: figure "latency.handof.p99_us" is not a figure of this experiment'
bad_app_file 's/^figure = .*/figure = "task.consumer.p99_us"/' 'bad.toml:14:10: figure "task.consumer.p99_us" is not a figure of this experiment'

# Two sets of defines that read alike (-DFAIL=1 and -DFAIL_1 both read FAIL_1) are two builds
# and two runs, each in its own directory: the one that fails alone is reported as failing
# (they shared one build, and both ran the last one built).
mkdir -p "$work/alike/app"
printf '[kernel]\nscheduler = "prio"\n' > "$work/alike/app/system.toml"
printf '#include "bsp/bsp.h"\nint main(void)\n{\n#ifdef FAIL\n    return 3;\n#else\n    return 0;\n#endif\n}\n' > "$work/alike/app/main.c"
printf 'kind = "app"\napp = "%s"\nrun_ms = 10\n[sweep]\ncflags = [["-DFAIL=1"], ["-DFAIL_1"]]\n' "$work/alike/app" > "$work/alike/e.toml"
"$ubik" experiment "$work/alike/e.toml" -o "$work/alike/out" > "$work/alike.txt" 2>&1
rc=$?
[[ $rc -eq 1 ]] && grep -q '^1 of 2 runs passed' "$work/alike.txt" &&
    grep -q '^app-FAIL_1\.1,.*,false,"exit code 3, expected 0"$' "$work/alike/out/app.csv" &&
    grep -q '^app-FAIL_1\.2,.*,true,""$' "$work/alike/out/app.csv" &&
    [[ -d $work/alike/out/runs/app-FAIL_1.1-m0-s1 && -d $work/alike/out/runs/app-FAIL_1.2-m0-s1 ]] ||
    bad "two define sets that read alike: expected their own builds and the failing one reported (got $rc: $(cat "$work/alike.txt"))"

if [[ $fail -eq 0 ]]; then echo "experiment tests: passed"; else echo "experiment tests: FAILED"; fi
exit $fail
