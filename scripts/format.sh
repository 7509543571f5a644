#!/usr/bin/env bash
# The C style (.clang-format) over every C source and header of the project:
#   scripts/format.sh           rewrite the files that differ from clang-format's output
#                               (make format)
#   scripts/format.sh --check   change nothing; name each file that differs at its first
#                               difference, exit 1 if any does (make format-check, in make
#                               test)
# The files: every *.c and *.h under apps, bench, bsp, hv, include, kernel, nos and tests.
# Left out: build/ directories anywhere (generated: uk_gen.c, uk_config.h, tm_config.h, ...)
# and everything outside those folders (sim/target, out/). Nothing third-party is in them:
# FreeRTOS is compiled from a checkout outside the repository (bench/freertos/build.sh).
# Assembly-only headers and hand-aligned register tables say /* clang-format off */.
# Needs Debian's clang-format (scripts/setup.sh --format installs it); another version may
# format differently, so the check names the version it ran.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
check=0
[[ ${1:-} == --check ]] && check=1

cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
    echo "format: $cf not found; install it with scripts/setup.sh --format (Debian package clang-format)" >&2
    exit 1
fi

cd "$root"
mapfile -t files < <(find apps bench bsp hv include kernel nos tests -name build -prune -o \
    -type f \( -name '*.c' -o -name '*.h' \) -print | LC_ALL=C sort)

if [[ $check -eq 0 ]]; then
    "$cf" --style=file -i "${files[@]}"
    exit 0
fi
# One run over every file; each file that differs is named at its first difference.
if report=$("$cf" --style=file --dry-run --Werror --ferror-limit=1 "${files[@]}" 2>&1); then
    echo "PASS  format: ${#files[@]} C files as clang-format writes them"
    exit 0
fi
echo "$report"
differ=$(grep -c ': error: code should be clang-formatted' <<<"$report" || true)
echo "FAIL  format: $differ of ${#files[@]} C files differ from $("$cf" --version | head -n 1); make format rewrites them"
exit 1
