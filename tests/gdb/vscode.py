#!/usr/bin/env python3
"""The VS Code launch recipe of docs/debugging.md, checked without VS Code.

Reads the recipe's launch.json from the docs (the ```json block that holds "cppdbg"), starts
the server as the recipe says (`ubik run ELF --gdb PORT`, with port 0 and the port it names
put in the recipe's miDebuggerServerAddress), and sends gdb-multiarch, through its machine
interface, what VS Code's C/C++ extension sends for that configuration: the program, the
setupCommands, `-target-select remote ADDRESS`, then a breakpoint set in the editor
(main.c:LINE) and one by function name, continue, the stack and the threads. Each stop must
name main.c and its line.

Usage: tests/gdb/vscode.py UBIK ELF WORKDIR   (from tests/gdb/run.sh; exit 1 on a failure)
"""

import json
import os
import re
import subprocess
import sys
import time

from rsp import gdb_port

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
fails = 0


def check(name, ok):
    global fails
    print(("PASS" if ok else "FAIL") + "  gdb vscode: " + name)
    fails += not ok


def recipe():
    text = open(os.path.join(ROOT, "docs", "debugging.md")).read()
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        if '"cppdbg"' in block:
            return json.loads(block)["configurations"][0]
    sys.exit("FAIL  gdb vscode: no launch.json with \"cppdbg\" in docs/debugging.md")


class Mi:
    """gdb-multiarch's machine interface, one command at a time."""

    def __init__(self, gdb, log):
        self.p = subprocess.Popen([gdb, "--interpreter=mi2", "-nx", "-q"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.log = log

    def until(self, pattern, timeout=30):
        """The output up to the first line matching pattern (None at a timeout or EOF)."""
        out, end = [], time.time() + timeout
        while time.time() < end:
            line = self.p.stdout.readline()
            if not line:
                break
            self.log.write(line)
            out.append(line)
            if re.match(pattern, line):
                return "".join(out)
        return None

    def cmd(self, c, done=r"\^(done|connected|error)"):
        self.log.write("-> " + c + "\n")
        self.p.stdin.write(c + "\n")
        return self.until(done) or ""

    def go(self, c):
        """A resume: its output up to the next stop."""
        return self.cmd(c, r"\*stopped")


def main():
    ubik, elf, work = sys.argv[1:4]
    conf = recipe()
    check("the recipe is the C/C++ extension's GDB over target remote",
          conf.get("type") == "cppdbg" and conf.get("MIMode") == "gdb"
          and "miDebuggerServerAddress" in conf)
    err = open(os.path.join(work, "vscode.err"), "w+")
    server = subprocess.Popen([ubik, "run", elf, "--gdb", "0"], stdout=subprocess.DEVNULL, stderr=err)
    port = gdb_port(err, tries=100)
    if port is None:
        server.kill()
        sys.exit("FAIL  gdb vscode: the server did not say where it listens")
    host = conf["miDebuggerServerAddress"].rsplit(":", 1)[0]
    log = open(os.path.join(work, "vscode.log"), "w")
    mi = Mi(conf.get("miDebuggerPath", "gdb-multiarch"), log)
    mi.until(r"\(gdb\)")
    mi.cmd("-gdb-set pagination off")
    mi.cmd("-file-exec-and-symbols " + elf)
    for c in conf.get("setupCommands", []):
        r = mi.cmd("-interpreter-exec console " + json.dumps(c["text"]))
        check("setupCommand " + c["text"], "^done" in r)
    r = mi.cmd("-target-select remote %s:%s" % (host, port))
    check("-target-select remote " + conf["miDebuggerServerAddress"], "^connected" in r)
    main_c = os.path.join(ROOT, "apps", "tutorial", "main.c")
    lines = open(main_c).read().split("\n")
    consume = 1 + next(i for i, l in enumerate(lines) if "for (int n = 0" in l)
    produce = 1 + next(i for i, l in enumerate(lines) if "for (uint32_t i = 1" in l)
    r = mi.cmd("-break-insert -f %s:%d" % (main_c, consume))
    check("a breakpoint set in the editor (main.c:%d)" % consume, "^done" in r)
    r = mi.cmd("-break-insert -f produce")
    check("a breakpoint on a function", 'line="%d"' % produce in r and "main.c" in r)
    r = mi.go("-exec-continue")
    check("stops at main.c:%d" % consume,
          'reason="breakpoint-hit"' in r and 'func="consume"' in r and 'line="%d"' % consume in r)
    r = mi.go("-exec-continue")
    check("stops in produce at main.c:%d" % produce,
          'func="produce"' in r and 'line="%d"' % produce in r)
    r = mi.cmd("-stack-list-frames")
    check("the call stack", 'func="produce"' in r and "main.c" in r)
    r = mi.cmd("-thread-info")
    check("the tasks as threads", "producer, prio 2, running" in r and "consumer" in r)
    mi.cmd("-break-delete")
    r = mi.go("-exec-continue")
    check("the run ends", 'reason="exited-normally"' in r)
    mi.cmd("-gdb-exit", r"\^exit")
    try:
        mi.p.wait(timeout=10)
        rc = server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        mi.p.kill()
        server.kill()
        rc = None
    check("ubik run exits 0", rc == 0)
    if fails:
        log.close()
        print("---- MI log")
        print(open(os.path.join(work, "vscode.log")).read())
        err.seek(0)
        print("---- server\n" + err.read())
    sys.exit(1 if fails else 0)


main()
