#!/usr/bin/env bash
# The tree's structural rules (make test; docs/layout.md, docs/design.md):
#  - one layout rule: every test tree is under the top-level tests/ and every benchmark under
#    the top-level bench/; outside them no directory is named tests/ or bench/ and no file is
#    named like a test or a benchmark (bench.sh, check.sh, test_x.c, x_test.py), except the
#    Rust crates' own tests (sim/crates/*/: Cargo's convention);
#  - no scheduler chosen by name in a shell `case`: scripts select schedulers by the policy
#    table's properties (`ubik gen --list-schedulers --with/--without PROPERTY`), so that a
#    policy's facts live in sysdesc alone. A `case` pattern of any tracked shell script must
#    not name a scheduler that `ubik gen --list-schedulers` prints.
# Before it checks the tree, the case finder is tried on a script that breaks the rule, so
# that it cannot silently stop finding anything. Usage: tests/layout/check.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ubik="$root/sim/target/release/ubik"
scheds=$("$ubik" gen --list-schedulers) || { echo "layout: $ubik gen --list-schedulers failed (make sim)" >&2; exit 1; }
exec python3 - "$root" $scheds <<'END'
import os, re, subprocess, sys

root, scheds = sys.argv[1], set(sys.argv[2:])
fails = []

# ---- one layout rule ---------------------------------------------------------------------
files = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True,
                       check=True).stdout.split("\n")
testy_dir = re.compile(r"(^|/)(tests?|bench(mark)?s?)/")
testy_name = re.compile(r"(^|[_.-])(bench(mark)?|tests?|check)([_.-]|$)")
for f in files:
    if not f or f.startswith(("tests/", "bench/", "sim/crates/")):
        continue
    if testy_dir.search(f) or testy_name.search(os.path.basename(f)):
        fails.append(f"{f}: a test or benchmark outside tests/ and bench/; expected it under "
                     "tests/COMPONENT/ or bench/COMPONENT/ (docs/layout.md)")

# ---- no scheduler name in a shell case ---------------------------------------------------
def case_patterns(text):
    """Every pattern of every `case ... in ... esac` of a shell script, with its line."""
    text = re.sub(r"(^|\s)#[^\n]*", r"\1", text)  # comments (a quoted # is rare in patterns)
    token = re.compile(r"(?<![\w$.{-])(case|esac)(?=[\s;)]|$)|(?<![\w-])in(?=\s)|;;&?|;&|\)")
    stack, start, out = [], 0, []
    for m in token.finditer(text):
        t = m.group(0)
        if t == "case":
            if re.search(r"\bfor\s*$", text[:m.start()]):
                continue  # `for case in ...`: a variable called case
            stack.append("word")
        elif t == "esac" and stack:
            stack.pop()
        elif not stack:
            continue
        elif t == "in" and stack[-1] == "word":
            stack[-1], start = "pattern", m.end()
        elif t == ")" and stack[-1] == "pattern":
            pattern = text[start:m.start()].strip().lstrip("(")
            out.append((text.count("\n", 0, m.start()) + 1, pattern))
            stack[-1] = "body"
        elif t in (";;", ";;&", ";&") and stack[-1] == "body":
            stack[-1], start = "pattern", m.end()
    return out

def scheduler_cases(text):
    found = []
    for line, pattern in case_patterns(text):
        words = set(re.split(r"[^A-Za-z0-9_-]+", pattern))
        for name in sorted(words & scheds):
            found.append((line, name, pattern))
    return found

breaking = 'x() {\n    case "$2:$1" in\n        a:b) return 1 ;; # rr: no\n' \
           '        prio_rr:* | "edf") return 0 ;;\n    esac\n}\nfor case in rr; do :; done\n'
got = [(l, n) for l, n, _ in scheduler_cases(breaking)]
if got != [(4, "edf"), (4, "prio_rr")]:
    fails.append(f"tests/layout/check.sh: the case finder found {got} in its own example; "
                 "expected [(4, 'edf'), (4, 'prio_rr')]")

def is_shell(f):
    if f.endswith(".sh"):
        return True
    try:
        with open(os.path.join(root, f), "rb") as h:
            first = h.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and re.search(rb"\b(ba)?sh\b", first) is not None

for f in files:
    # This checker holds a rule-breaking example of its own (above), on purpose.
    if f == "tests/layout/check.sh":
        continue
    if not f or not os.path.isfile(os.path.join(root, f)) or not is_shell(f):
        continue
    text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
    for line, name, pattern in scheduler_cases(text):
        fails.append(f"{f}:{line}: the case pattern `{pattern}` names scheduler \"{name}\"; "
                     "expected a choice by property (ubik gen --list-schedulers --with/--without)")

for msg in fails:
    print("FAIL  " + msg)
if fails:
    sys.exit(1)
print("layout: tests and benchmarks in place; no scheduler named in a shell case")
END
