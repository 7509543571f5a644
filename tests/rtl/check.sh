#!/usr/bin/env bash
# Differential timing regression against the Ibex RTL (simple_system, lowRISC/ibex 8b8ee086).
# Builds every program of tests/rtl/programs.tsv, runs it on ./ubik with the cycle timebase and
# compares mcycle, instret and the console output with the RTL measurements in expected.tsv and
# expected/NAME.out. One PASS/FAIL line per program; exit status 1 if any program mismatches.
# Does not need the RTL. Usage: tests/rtl/check.sh [-v] [NAME...]   (-v: show console diffs)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/build/rtl
mkdir -p "$out"
verbose=0
if [[ ${1:-} == -v ]]; then verbose=1; shift; fi
want=" $* "
machine=$out/cycle-timebase.toml
printf '[timer]\ntimebase = "cycle"\n' > "$machine"
# programs whose 4th column is pmp16 run on a core with 16 PMP entries (measured on such an RTL)
machine_pmp=$out/cycle-timebase-pmp16.toml
printf '[core]\npmp_regions = 16\n[timer]\ntimebase = "cycle"\n' > "$machine_pmp"

fail=0; npass=0; nfail=0
while IFS=$'\t' read -r name src flags core; do
    [[ -z $name || $name == \#* ]] && continue
    [[ $# -gt 0 && $want != *" $name "* ]] && continue
    exp=$(awk -F'\t' -v n="$name" '$1==n {print $2" "$3}' "$here/expected.tsv")
    if [[ -z $exp ]]; then echo "FAIL $name: no entry in expected.tsv"; fail=1; nfail=$((nfail+1)); continue; fi
    read -r ecyc eins <<< "$exp"
    if [[ $src == firmware:* ]]; then
        elf=$root/build/firmware/${src#firmware:}.elf
        if [[ ! -f $elf ]]; then echo "FAIL $name: $elf missing (run make firmware)"; fail=1; nfail=$((nfail+1)); continue; fi
    else
        elf=$out/$name.elf
        [[ $flags == - ]] && flags=
        # shellcheck disable=SC2086
        if ! "$here/build1.sh" "$here/$src" "$elf" $flags > "$out/$name.build.log" 2>&1; then
            echo "FAIL $name: build failed (see $out/$name.build.log)"; fail=1; nfail=$((nfail+1)); continue
        fi
    fi
    rm -f "$out/$name.json"
    # exit status ignored: the RTL has none (e.g. wfi_forever ends in a machine fault on ubik)
    m=$machine; [[ ${core:-} == pmp16 ]] && m=$machine_pmp
    "$root/ubik" run "$elf" --machine "$m" --stats "$out/$name.json" --max-cycles 20000000 \
        > "$out/$name.out" 2> "$out/$name.err"
    if [[ ! -s $out/$name.json ]]; then
        echo "FAIL $name: ubik wrote no stats (see $out/$name.err)"; fail=1; nfail=$((nfail+1)); continue
    fi
    read -r ucyc uins < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["mcycle"], d["instret"])' "$out/$name.json")
    why=()
    [[ $ucyc != "$ecyc" ]] && why+=("mcycle $ucyc != RTL $ecyc")
    [[ $uins != "$eins" ]] && why+=("instret $uins != RTL $eins")
    if ! cmp -s "$out/$name.out" "$here/expected/$name.out"; then
        n=$(diff "$here/expected/$name.out" "$out/$name.out" | grep -c '^[<>]')
        why+=("console differs ($n lines; diff tests/rtl/expected/$name.out build/rtl/$name.out)")
    fi
    if [[ ${#why[@]} -eq 0 ]]; then
        echo "PASS $name (mcycle $ucyc, instret $uins)"; npass=$((npass+1))
    else
        msg=$(printf '%s; ' "${why[@]}"); echo "FAIL $name: ${msg%; }"; fail=1; nfail=$((nfail+1))
        if [[ $verbose == 1 ]]; then diff "$here/expected/$name.out" "$out/$name.out" | head -20 | sed 's/^/    /'; fi
    fi
done < "$here/programs.tsv"
echo "rtl-diff: $npass passed, $nfail failed"
exit $fail
