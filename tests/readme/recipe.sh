#!/usr/bin/env bash
# The documented bare-metal build recipe (docs/firmware.md, "Building by hand"; the README
# links to it), run as written: the shell block after "bare-metal program by hand" is
# extracted and run in a scratch copy of the repository's bsp/, and must print
# "hello from ubik" and exit 0.
# Usage: tests/readme/recipe.sh   (part of make test)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$root/bsp" "$work/"
ln -s "$root/ubik" "$work/ubik"
ln -s "$root/sim" "$work/sim" # ./ubik finds its binary beside itself
sed -n '/bare-metal program by hand/,/^## /p' "$root/docs/firmware.md" |
    awk '/^```sh$/ { f = 1; next } /^```$/ { if (f) exit } f' > "$work/recipe.sh"
[[ -s $work/recipe.sh ]] || { echo "FAIL  bare-metal recipe: no shell block found in docs/firmware.md"; exit 1; }
if out=$(cd "$work" && bash -e recipe.sh 2>"$work/err.txt") && [[ $out == "hello from ubik" ]]; then
    echo "PASS  docs/firmware.md bare-metal recipe"
else
    echo "FAIL  docs/firmware.md bare-metal recipe: got \"$out\""
    sed 's/^/      /' "$work/err.txt"
    exit 1
fi
