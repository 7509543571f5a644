#!/usr/bin/env bash
# Re-measures every program of programs.tsv on the Ibex RTL (Verilator simple_system build; NOT
# part of the repo: RTL_RUN points at its run script) and rewrites expected.tsv and expected/*.out.
# Only for refreshing the measurements; check.sh does not need it. Usage: record.sh [NAME...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
RTL_RUN=${RTL_RUN:-/work/rtl/run.sh}
# programs marked pmp16 need an RTL built with PMPEnable=1 PMPNumRegions=16 PMPGranularity=0
RTL_RUN_PMP=${RTL_RUN_PMP:-$RTL_RUN}
work=${RTL_WORK:-/tmp/ubik-rtl-record}
mkdir -p "$work" "$here/expected"
want=" $* "
tmp=$work/expected.tsv.new
grep '^#' "$here/expected.tsv" > "$tmp" 2>/dev/null || printf '# program\tRTL Cycles\tRTL Instructions Retired\tconsole sha256 (text: expected/PROGRAM.out)\n' > "$tmp"
while IFS=$'\t' read -r name src flags core; do
    [[ -z $name || $name == \#* ]] && continue
    if [[ $# -gt 0 && $want != *" $name "* ]]; then
        awk -F'\t' -v n="$name" '$1==n' "$here/expected.tsv" >> "$tmp"; continue
    fi
    if [[ $src == firmware:* ]]; then
        elf=$root/build/firmware/${src#firmware:}.elf
    else
        elf=$work/$name.elf; [[ $flags == - ]] && flags=
        # shellcheck disable=SC2086
        "$here/build1.sh" "$here/$src" "$elf" $flags
    fi
    maxcyc=2000000; [[ $name == wfi_forever ]] && maxcyc=20000
    run=$RTL_RUN; [[ ${core:-} == pmp16 ]] && run=$RTL_RUN_PMP
    MAXCYC=$maxcyc RUNDIR=$work/run_$name "$run" "$elf" > "$work/$name.rtl.txt" 2>&1 || true
    cyc=$(awk '/^Cycles:/ {print $2; exit}' "$work/run_$name/stdout.txt")
    ins=$(awk '/^Instructions Retired:/ {print $3; exit}' "$work/run_$name/stdout.txt")
    cp "$work/run_$name/ibex_simple_system.log" "$here/expected/$name.out"
    sum=$(sha256sum < "$here/expected/$name.out" | cut -c1-64)
    printf '%s\t%s\t%s\t%s\n' "$name" "$cyc" "$ins" "$sum" >> "$tmp"
    echo "$name $cyc $ins"
done < "$here/programs.tsv"
mv "$tmp" "$here/expected.tsv"
