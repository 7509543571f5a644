#!/usr/bin/env bash
# Runs the firmware tests on the testbed and compares each with its expectation.
#
# A test is a file tests/firmware/NAME.expect; it runs build/firmware/NAME.elf
# (built by `make firmware`) with `ubik run`. Lines of an .expect file:
#
#   # a comment
#   firmware: OTHER          run build/firmware/OTHER.elf instead of NAME.elf
#   args: --max-cycles 1000  more arguments for `ubik run` (split on spaces)
#   exit: 0                  the expected exit status (default 0)
#   stdout: some text        one expected line of the console output; when any
#                            are given, stdout must equal exactly these lines
#                            (each ending in a newline); otherwise it is not compared
#   stdout-contains: text    stdout must contain this text (repeatable)
#   stderr-contains: text    stderr must contain this text (repeatable)
#   timeout: 120             seconds before the run counts as hung (default 120)
#   machine: FILE.toml       run with --machine FILE.toml (relative to tests/firmware)
#
# A machine file tests/firmware/NAME.machine.toml beside the test is passed with
# --machine unless the .expect names another one with `machine:`.
#
# A self-checking test (it checks its own results, prints what failed and
# exits non-zero, see tests/firmware/check.h) needs only `exit: 0`.
#
# Usage: tests/run_firmware_tests.sh [-v] [NAME...]   (-v: show output of passing tests too)
# Environment: UBIK (default ./ubik), BUILD (default build).
# Prints PASS/FAIL per test and a summary; exits 1 if any test failed.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
UBIK=${UBIK:-./ubik}
BUILD=${BUILD:-build}
results="$BUILD/firmware-tests"
mkdir -p "$results"

verbose=0
if [[ ${1:-} == -v ]]; then
    verbose=1
    shift
fi

if (($# > 0)); then
    expects=()
    for name in "$@"; do
        expects+=("tests/firmware/$name.expect")
    done
else
    expects=(tests/firmware/*.expect)
fi

show() {  # show FILE LABEL: the first lines of a file, indented
    if [[ -s $1 ]]; then
        echo "    --- $2:"
        head -n 20 "$1" | sed 's/^/    | /'
    fi
}

passed=0
failed=()
for expect in "${expects[@]}"; do
    name=$(basename "$expect" .expect)
    if [[ ! -f $expect ]]; then
        echo "FAIL  $name: no such test ($expect)"
        failed+=("$name")
        continue
    fi

    firmware=$name args="" exit_code=0 timeout_s=120 machine=""
    [[ -f tests/firmware/$name.machine.toml ]] && machine=tests/firmware/$name.machine.toml
    stdout_lines=() stdout_given=0 stdout_contains=() stderr_contains=()
    bad_line=""
    lineno=0
    while IFS= read -r line || [[ -n $line ]]; do
        lineno=$((lineno + 1))
        [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
        key=${line%%:*}
        value=${line#*:}
        value=${value# }
        case $key in
            firmware) firmware=$value ;;
            args) args=$value ;;
            exit) exit_code=$value ;;
            timeout) timeout_s=$value ;;
            machine) machine=tests/firmware/$value ;;
            stdout) stdout_lines+=("$value"); stdout_given=1 ;;
            stdout-contains) stdout_contains+=("$value") ;;
            stderr-contains) stderr_contains+=("$value") ;;
            *) bad_line="$expect:$lineno: unknown key '$key' (expected firmware, args, machine, exit, stdout, stdout-contains, stderr-contains or timeout)" ;;
        esac
    done <"$expect"
    if [[ -n $bad_line ]]; then
        echo "FAIL  $name: $bad_line"
        failed+=("$name")
        continue
    fi

    elf="$BUILD/firmware/$firmware.elf"
    if [[ ! -f $elf ]]; then
        echo "FAIL  $name: $elf not built (run make firmware)"
        failed+=("$name")
        continue
    fi

    if [[ -n $machine ]]; then
        if [[ ! -f $machine ]]; then
            echo "FAIL  $name: machine file $machine not found"
            failed+=("$name")
            continue
        fi
        args="--machine $machine $args"
    fi

    out="$results/$name.stdout"
    err="$results/$name.stderr"
    # shellcheck disable=SC2086  # args are meant to be split
    timeout -k 5 "$timeout_s" "$UBIK" run "$elf" $args >"$out" 2>"$err" </dev/null
    status=$?

    problems=()
    if ((status == 124)); then
        problems+=("timed out after ${timeout_s}s")
    elif [[ $status != "$exit_code" ]]; then
        problems+=("exit status $status, expected $exit_code")
    fi
    if ((stdout_given)); then
        if ! cmp -s "$out" <(printf '%s\n' "${stdout_lines[@]}"); then
            problems+=("stdout differs from the expected lines")
        fi
    fi
    for text in "${stdout_contains[@]}"; do
        grep -qF -- "$text" "$out" || problems+=("stdout lacks '$text'")
    done
    for text in "${stderr_contains[@]}"; do
        grep -qF -- "$text" "$err" || problems+=("stderr lacks '$text'")
    done

    if ((${#problems[@]} == 0)); then
        echo "PASS  $name"
        passed=$((passed + 1))
        if ((verbose)); then
            show "$out" stdout
            show "$err" stderr
        fi
    else
        summary=${problems[0]}
        for problem in "${problems[@]:1}"; do
            summary+="; $problem"
        done
        echo "FAIL  $name: $summary"
        failed+=("$name")
        if ((stdout_given)) && command -v diff >/dev/null; then
            echo "    --- stdout diff (expected vs got):"
            diff <(printf '%s\n' "${stdout_lines[@]}") "$out" | head -n 20 | sed 's/^/    | /'
        else
            show "$out" stdout
        fi
        show "$err" stderr
    fi
done

total=$((passed + ${#failed[@]}))
if ((${#failed[@]} == 0)); then
    echo "firmware tests: all $total passed"
    exit 0
fi
echo "firmware tests: ${#failed[@]} of $total failed: ${failed[*]}"
exit 1
