#!/usr/bin/env python3
"""Random differential campaign: Ubik vs the Ibex RTL (Verilator simple_system).

fuzz.py [-n COUNT] [-s FIRST_SEED] [-w WORKDIR] [--rtl RUN_SH] [--keep] [SEED...]

Per seed: gen.py -> build (../build1.sh, tests/rtl/common) -> RTL run (RUN_SH, default
$RTL_RUN or /work/rtl/run.sh) -> ubik run (cycle timebase, --itrace) -> compare final mcycle
(RTL "Cycles"), instret ("Instructions Retired") and the console (registers, trap accumulator,
buffer checksum, mcycle/minstret/mhpmcounter3..12 as printed by the program). A mismatch keeps
WORKDIR/SEED/ and prints the first persistent divergence of the two instruction traces
(PC sequence, or retire-cycle offset that changes for >= 4 consecutive instructions; Ubik's +1
on a taken branch is transient). Runs strictly one simulation at a time (one core).
Summary at the end; exit status 1 if any seed mismatched.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def rtl_trace(path):
    rows = []
    with open(path) as f:
        next(f)
        for line in f:
            p = line.split()
            if len(p) >= 3 and "-->" not in line:   # the tracer also lists faulting instructions
                rows.append((int(p[1]), int(p[2], 16), line.rstrip()))
    return rows


def ubik_trace(path):
    rows = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 2:
                rows.append((int(p[0]), int(p[1], 16)))
    return rows


def divergence(rt, ut, window=12):
    """first index where the PC sequence differs, or from which the retire-cycle offset
    (ubik - rtl) differs from the initial one for `window` consecutive instructions (Ubik charges
    taken-branch bubbles and CSR flush cycles to the instruction itself, the RTL trace to the next
    one: those differences are transient)"""
    n = min(len(rt), len(ut))
    if n == 0:
        return None, None
    d0 = ut[0][0] - rt[0][0]
    run = 0
    for i in range(n):
        if rt[i][1] != ut[i][1]:
            return (i - run if run else i), "pc"
        if ut[i][0] - rt[i][0] != d0:
            run += 1
            if run >= window:
                return i - run + 1, "cycle"
        else:
            run = 0
    if run:
        return n - run, "cycle"
    if len(rt) != len(ut):
        return n, "length"
    return None, None


def run_one(seed, work, rtl_run, keep):
    d = os.path.join(work, str(seed))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    src, elf = os.path.join(d, "p.S"), os.path.join(d, "p.elf")
    sh([sys.executable, os.path.join(HERE, "gen.py"), str(seed), src])
    b = sh([os.path.join(HERE, "..", "build1.sh"), src, elf])
    if b.returncode:
        return {"seed": seed, "status": "buildfail", "msg": b.stdout[-500:]}
    env = dict(os.environ, RUNDIR=os.path.join(d, "rtl"), MAXCYC="400000")
    sh([rtl_run, elf], env=env)
    so = open(os.path.join(d, "rtl", "stdout.txt")).read()
    rcyc = rins = None
    for line in so.splitlines():
        if line.startswith("Cycles:"):
            rcyc = int(line.split()[1])
        if line.startswith("Instructions Retired:"):
            rins = int(line.split()[2])
    try:
        rcon = open(os.path.join(d, "rtl", "ibex_simple_system.log")).read()
    except OSError:
        rcon = ""
    if "hpm12=" not in rcon:
        return {"seed": seed, "status": "rtl-nohalt", "dir": d}
    machine = os.path.join(work, "cycle.toml")
    u = subprocess.run([os.path.join(ROOT, "ubik"), "run", elf, "--machine", machine,
                        "--stats", os.path.join(d, "u.json"), "--itrace", os.path.join(d, "u.log"),
                        "--max-cycles", "2000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ucon = u.stdout
    try:
        st = json.load(open(os.path.join(d, "u.json")))
        ucyc, uins = st["mcycle"], st["instret"]
    except (OSError, ValueError, KeyError):
        ucyc = uins = None
    why = []
    if ucyc != rcyc:
        why.append(f"mcycle ubik {ucyc} rtl {rcyc}")
    if uins != rins:
        why.append(f"instret ubik {uins} rtl {rins}")
    if ucon != rcon:
        rl, ul = rcon.splitlines(), ucon.splitlines()
        diffs = [f"{a} | {b}" for a, b in zip(rl, ul) if a != b]
        if len(rl) != len(ul):
            diffs.append(f"lines rtl {len(rl)} ubik {len(ul)}")
        why.append("console: " + "; ".join(diffs[:6]))
    res = {"seed": seed, "rtl_cycles": rcyc, "rtl_instret": rins, "ubik_mcycle": ucyc, "ubik_instret": uins}
    if not why:
        res["status"] = "ok"
        if not keep:
            shutil.rmtree(d, ignore_errors=True)
        return res
    res["status"] = "MISMATCH"
    res["why"] = why
    res["dir"] = d
    try:
        rt = rtl_trace(os.path.join(d, "rtl", "trace_core_00000000.log"))
        ut = ubik_trace(os.path.join(d, "u.log"))
        i, kind = divergence(rt, ut)
        if i is not None:
            ctx = []
            for j in range(max(0, i - 8), min(len(rt), i + 6)):
                uc = ut[j][0] if j < len(ut) else None
                up = f"{ut[j][1]:08x}" if j < len(ut) else "-"
                ctx.append(f"{'>' if j == i else ' '} #{j} ubik {uc} {up} | rtl {rt[j][2].strip()}")
            res["first_divergence"] = {"index": i, "kind": kind, "context": ctx}
    except OSError as e:
        res["first_divergence"] = str(e)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=100)
    ap.add_argument("-s", type=int, default=1)
    ap.add_argument("-w", default="/tmp/ubik-fuzz")
    ap.add_argument("--rtl", default=os.environ.get("RTL_RUN", "/work/rtl/run.sh"))
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("seeds", nargs="*", type=int)
    a = ap.parse_args()
    os.makedirs(a.w, exist_ok=True)
    with open(os.path.join(a.w, "cycle.toml"), "w") as f:
        f.write('[timer]\ntimebase = "cycle"\n')
    seeds = a.seeds or list(range(a.s, a.s + a.n))
    bad = 0
    log = open(os.path.join(a.w, "results.jsonl"), "a")
    for s in seeds:
        r = run_one(s, a.w, a.rtl, a.keep)
        log.write(json.dumps(r) + "\n")
        log.flush()
        if r["status"] == "ok":
            print(f"ok {s} cycles {r['rtl_cycles']} instret {r['rtl_instret']}", flush=True)
        else:
            bad += 1
            print(f"{r['status']} {s}: " + "; ".join(r.get("why", [r.get("msg", "")])), flush=True)
            fd = r.get("first_divergence")
            if isinstance(fd, dict):
                print(f"  first divergence ({fd['kind']}) at instruction #{fd['index']}:")
                for c in fd["context"]:
                    print("   " + c)
    print(f"fuzz: {len(seeds)} programs, {len(seeds) - bad} ok, {bad} mismatched/failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
