#!/usr/bin/env bash
# The documentation a newcomer enters by (make test):
#  - README.md stays an entry page: under 300 lines, with `make demo`, `make test`, the
#    tutorial and links to the manual;
#  - every relative link ([text](path)) and every quoted repository path (`docs/x.md`,
#    `kernel/src/task.c`, ...) in README.md and docs/*.md names a file that exists, and every
#    reference to a section (`docs/x.md`, "Section"), in the docs or in any source, names a
#    heading or a bold run-in title of that page;
#  - the exit codes are documented once: docs/contract.md's table lists every code of the
#    CLI's module `code` (and 1 and 0..63), and no other page carries a copy of the table
#    (copies drifted: the README's had lost code 1).
# Usage: tests/readme/docs.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
exec python3 - "$root" <<'END'
import glob, os, re, sys

root = sys.argv[1]
fails = []
def fail(msg):
    fails.append(msg)

# ---- README: an entry page --------------------------------------------------------------
readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
n = readme.count("\n")
if n >= 300:
    fail(f"README.md: {n} lines; expected under 300 (reference material belongs in docs/)")
for needle in ("make demo", "make test", "## Tutorial", "## Start here", "](docs/cli.md)",
               "](docs/contract.md)"):
    if needle not in readme:
        fail(f"README.md: no `{needle}`; expected the entry page's commands, tutorial and links")

# ---- links and quoted paths --------------------------------------------------------------
files = ["README.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
tops = ("bsp/", "kernel/", "sim/", "tests/", "hv/", "nos/", "apps/", "bench/", "experiments/",
        "scripts/", "hw/", "docs/")
# Paths that are generated, or examples of a path that does not exist yet.
generated = re.compile(r"^(sim/target|.*/build(/|$)|kernel/arch/cortex-m)")
placeholder = re.compile(r"[A-Z]{3,}|[*{}<>]|\.\.\.|\bNAME\b")
for f in files:
    base = os.path.dirname(f)
    fence = False
    for lineno, line in enumerate(open(os.path.join(root, f), encoding="utf-8"), 1):
        if line.startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        ticked = re.findall(r"`([^`]+)`", line)
        bare = re.sub(r"`[^`]*`", "``", line)
        for target in re.findall(r"\]\(([^)\s]+)\)", bare):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            path = os.path.normpath(os.path.join(root, base, target.split("#")[0]))
            if not os.path.exists(path):
                fail(f"{f}:{lineno}: link ({target}) names no file")
        for t in ticked:
            t = t.strip().rstrip(".,:;")
            if " " in t or not t.startswith(tops) or placeholder.search(t) or generated.match(t):
                continue
            t = t.split(":")[0]
            if not os.path.exists(os.path.join(root, t)):
                fail(f"{f}:{lineno}: `{t}` names no file of the repository")

# ---- section references: `docs/X.md`, "Section" names a heading or a bold run-in title ----
import subprocess
text = {f: open(os.path.join(root, f), encoding="utf-8").read() for f in files}
def has_section(target, name):
    t = text[target]
    for l in t.split("\n"):
        if l.startswith("#") and re.sub(r"^#+\s*", "", l).strip().startswith(name):
            return True
    return ("**" + name) in t or ("**`" + name) in t
sources = subprocess.run(["git", "-C", root, "ls-files", "*.md", "*.rs", "*.c", "*.h", "*.S",
                          "*.sh", "*.py", "*.toml", "Makefile", "*.mk"],
                         capture_output=True, text=True).stdout.split()
ref = re.compile(r'((?:docs/)?[a-z]+\.md|README\.md)`?,?\s*\\?"([^"\\]+)\\?"')
for f in sources:
    if f == "tests/readme/docs.sh" or not os.path.isfile(os.path.join(root, f)):
        continue
    try:
        lines = open(os.path.join(root, f), encoding="utf-8").readlines()
    except UnicodeDecodeError:
        continue
    for lineno, line in enumerate(lines, 1):
        for m in ref.finditer(line):
            target = m.group(1)
            if target != "README.md" and not target.startswith("docs/"):
                target = "docs/" + target
            if target in text and not has_section(target, m.group(2)):
                fail(f'{f}:{lineno}: {target} has no section "{m.group(2)}"')

# ---- one exit-status table, complete -----------------------------------------------------
main_rs = open(os.path.join(root, "sim/crates/cli/src/main.rs"), encoding="utf-8").read()
codes = sorted(set(int(c) for c in re.findall(r"pub const \w+: u8 = (\d+);",
                                               main_rs[main_rs.index("pub mod code"):])))
contract = open(os.path.join(root, "docs/contract.md"), encoding="utf-8").read()
table = contract[contract.index("### Exit status"):]
table = table[:table.index("\n### ", 1)]
rows = re.findall(r"(?m)^\| ([0-9.]+) \|", table)
for c in [str(c) for c in codes] + ["0..63", "1"]:
    if c not in rows:
        fail(f"docs/contract.md: the exit-status table has no row for {c}")
for f in files:
    if f == "docs/contract.md":
        continue
    text = open(os.path.join(root, f), encoding="utf-8").read()
    if len(re.findall(r"(?m)^\| (?:64|65|66|69|70|71|72|74|130) \|", text)) >= 3:
        fail(f"{f}: a copy of the exit-status table; expected a link to docs/contract.md, \"Exit status\"")

for m in fails:
    print("FAIL  " + m)
if fails:
    sys.exit(1)
print(f"PASS  docs: README under 300 lines, links, paths and sections of {len(files)} pages, one exit-status table")
END
