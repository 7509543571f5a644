#!/usr/bin/env python3
"""Line-based delta debugging of a fuzz program that mismatches between Ubik and the RTL.

minimize.py (SEED | FILE.S) KEY[,KEY...] [-o OUT.S] [-w WORKDIR] [--rtl RUN_SH]

KEYs name what must keep differing: a console key printed by the program (x1..x31, bufsum,
mcycle, minstret, hpm3..hpm12) or stat_mcycle / stat_instret (final mcycle / instret vs the RTL's
Performance Counters). Removes lines of the random part (from the register initialisation to
`/* end body */`) while the program still builds, halts on the RTL and all KEYs still differ.
One simulation at a time.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def console_map(text):
    m = {}
    for line in text.splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            m[k] = v
    return m


def evaluate(lines, d, rtl_run):
    """-> set of differing keys, or None if the program does not build / halt"""
    os.makedirs(d, exist_ok=True)
    src, elf = os.path.join(d, "m.S"), os.path.join(d, "m.elf")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    if subprocess.run([os.path.join(HERE, "..", "build1.sh"), src, elf],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
        return None
    env = dict(os.environ, RUNDIR=os.path.join(d, "rtl"), MAXCYC="300000")
    subprocess.run([rtl_run, elf], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        rcon = open(os.path.join(d, "rtl", "ibex_simple_system.log")).read()
        so = open(os.path.join(d, "rtl", "stdout.txt")).read()
    except OSError:
        return None
    if "hpm12=" not in rcon:
        return None
    rc = re.search(r"^Cycles:\s+(\d+)", so, re.M)
    ri = re.search(r"^Instructions Retired:\s+(\d+)", so, re.M)
    machine = os.path.join(d, "cycle.toml")
    with open(machine, "w") as f:
        f.write('[timer]\ntimebase = "cycle"\n')
    u = subprocess.run([os.path.join(ROOT, "ubik"), "run", elf, "--machine", machine, "--stats",
                        os.path.join(d, "u.json"), "--max-cycles", "2000000"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    import json
    try:
        st = json.load(open(os.path.join(d, "u.json")))
    except (OSError, ValueError):
        return None
    rm, um = console_map(rcon), console_map(u.stdout)
    diff = {k for k in set(rm) | set(um) if rm.get(k) != um.get(k)}
    if not rc or st["mcycle"] != int(rc.group(1)):
        diff.add("stat_mcycle")
    if not ri or st["instret"] != int(ri.group(1)):
        diff.add("stat_instret")
    return diff


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("keys")
    ap.add_argument("-o", default=None)
    ap.add_argument("-w", default="/tmp/ubik-fuzz-min")
    ap.add_argument("--rtl", default=os.environ.get("RTL_RUN", "/work/rtl/run.sh"))
    a = ap.parse_args()
    if a.prog.endswith(".S"):
        text = open(a.prog).read()
    else:
        text = subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), a.prog],
                              stdout=subprocess.PIPE, text=True).stdout
    lines = text.splitlines()
    keys = set(a.keys.split(","))
    lo = next(i for i, l in enumerate(lines) if l.startswith("  li x1,"))
    hi = next(i for i, l in enumerate(lines) if "/* end body */" in l)
    head, body, tail = lines[:lo], lines[lo:hi], lines[hi:]
    tests = [0]

    def ok(b):
        tests[0] += 1
        r = evaluate(head + b + tail, a.w, a.rtl)
        return r is not None and keys <= r

    if not ok(body):
        print("the original program does not show", keys, file=sys.stderr)
        sys.exit(2)
    n = 2
    while len(body) >= 2:
        chunk = max(1, len(body) // n)
        removed = False
        for s in range(0, len(body), chunk):
            cand = body[:s] + body[s + chunk:]
            if ok(cand):
                body = cand
                n = max(n - 1, 2)
                removed = True
                print(f"  {len(body)} lines ({tests[0]} tests)", file=sys.stderr, flush=True)
                break
        if not removed:
            if chunk == 1:
                break
            n = min(len(body), n * 2)
    out = "\n".join(head + body + tail) + "\n"
    if a.o:
        with open(a.o, "w") as f:
            f.write(out)
    print("\n".join(body))
    print(f"# {len(body)} lines after {tests[0]} tests; differing: {sorted(evaluate(head + body + tail, a.w, a.rtl))}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
