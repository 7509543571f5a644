#!/usr/bin/env python3
"""The GDB server's monitor commands for the bench, over the remote protocol:
- on tests/gdb/bench (a UART echo task, a GPIO edge LISR, a stimulus LISR that gives a
  semaphore): `monitor stimulus 3` runs the LISR and wakes the task (and again, once, in a
  replay after reverse-continue back to reset), `monitor gpio 5 1`
  raises the pin's edge (the LISR reads the pin back), `monitor uart rx` bytes are echoed
  (escapes included), and all of them are in the IO record; `monitor tasks` names the tasks
  and what each waits on (the queue and the semaphore of system.toml); bad arguments get
  one line that says what exists; `monitor help` lists every command;
- input given before `monitor reset` is dropped, and a session whose input was typed with
  `monitor uart rx` replays with `--uart-replay` of its IO record to the same cycle;
- on the README's tutorial: `monitor tasks` at a breakpoint in `produce` (the consumer
  pending on the queue `items`), then after `monitor reset` and the breakpoint hit again.

Usage: monitor.py UBIK BENCH_ELF BENCH_MACHINE TUTORIAL_ELF WORKDIR   (tests/gdb/run.sh)
"""
import json
import os
import re
import subprocess
import sys
import time

from rsp import Client, frame

ubik, bench, machine, tutorial, work = sys.argv[1:6]
fails = 0


def check(name, ok, detail=""):
    global fails
    if ok:
        print(f"PASS  gdb monitor: {name}")
    else:
        fails += 1
        print(f"FAIL  gdb monitor: {name}" + (f" ({detail!r})" if detail else ""))


class Server(Client):
    """The bench's server: its console in WORKDIR/TAG.out, its stderr in WORKDIR/TAG.err."""

    def __init__(self, tag, elf, *args):
        self.out = os.path.join(work, f"{tag}.out")
        err = open(os.path.join(work, f"{tag}.err"), "w+")
        super().__init__(ubik, elf, args, err, stdout=open(self.out, "wb"), ack=True, timeout=30)

    def monitor(self, cmd: str) -> str:
        self.s.sendall(frame(b"qRcmd," + cmd.encode().hex().encode()))
        out = b""
        while True:
            r = self.reply()
            if r.startswith(b"O") and r != b"OK":
                out += bytes.fromhex(r[1:].decode())
                continue
            return out.decode(errors="replace")

    def run_a_while(self, seconds=0.3):
        """Continues, then stops with Ctrl-C; the stop reply."""
        self.s.sendall(frame(b"vCont;c"))
        time.sleep(seconds)
        self.s.sendall(b"\x03")
        return self.reply()

    def run_until(self, text, tries=30):
        """Continues and stops (Ctrl-C) until the console holds `text` (the server flushes
        the console at each stop); the console."""
        for _ in range(tries):
            self.run_a_while(0.2)
            out = self.console()
            if text in out:
                break
        return out

    def console(self):
        with open(self.out, "rb") as f:
            return f.read().decode(errors="replace")



def row(table, task):
    return next((l for l in table.splitlines() if l.startswith(task + " ")), "")


# ------------------------------------------------------------ the bench's inputs
io1 = os.path.join(work, "bench1.csv")
srv = Server("bench1", bench, "--machine", machine, "--io", io1)
srv.ask(b"?")
help_text = srv.monitor("help")
check("monitor help lists the bench's commands",
      all(c in help_text for c in ["uart rx TEXT", "gpio PIN LEVEL", "stimulus LINE", "tasks", "reset"]),
      help_text)
for cmd, want in [
    ("gpio 99 1", 'there is no input pin "99": the GPIO input pins are 0 to 31; with a line: 5 (line 6)'),
    ("gpio 5 2", 'gpio: level "2": expected 0 or 1'),
    ("gpio 5", "usage: monitor gpio PIN LEVEL"),
    ("stimulus 15", 'there is no line "15": the stimulus lines are the fast lines 0 to 14'),
    ("stimulus x", 'there is no line "x"'),
    ("uart rx a\\qb", 'unknown escape "\\q"'),
    ("uart rx", "usage: monitor uart rx TEXT"),
    ("uart tx a", "usage: monitor uart rx TEXT"),
]:
    r = srv.monitor(cmd)
    check(f"bad arguments: monitor {cmd[:20]}", want in r and r.count("\n") <= 1, r)

for _ in range(30):  # until both tasks wait (a few thousand instructions)
    r = srv.run_a_while(0.2)
    tasks = srv.monitor("tasks")
    if "queue rx" in tasks and "semaphore kick" in tasks:
        break
check("Ctrl-C stops the bench", re.match(rb"T02|S02", r) is not None, r)
check("monitor tasks: reader waits on the queue rx",
      re.search(r"^reader +pending +1 +queue rx +\d+/1024 0x", tasks, re.M) is not None, tasks)
check("monitor tasks: kicked waits on the semaphore kick",
      re.search(r"^kicked +pending +2 +semaphore kick ", row(tasks, "kicked")) is not None, tasks)
check("monitor tasks says how stack use is measured", "the current depth" in tasks, tasks)

r = srv.monitor("stimulus 3")
check("monitor stimulus answers", "stimulus: line 3 raised at cycle" in r, r)
out = srv.run_until("kicked\n")
check("monitor stimulus runs the LISR, which wakes the task", "stimulus: line 3\nkicked\n" in out, out)

# Back to reset by reverse execution and forward again: the input acts again at its
# position (the LISR's breakpoint hits; once in the record, its output not printed twice:
# the replay is muted).
r = srv.ask(b"bc")
check("reverse-continue goes back to the start", r.startswith(b"T05") or r.startswith(b"S05"), r)
nm = subprocess.run(["riscv64-unknown-elf-nm", bench], capture_output=True, text=True).stdout
stim_lisr = int(re.search(r"^([0-9a-f]+) T stim_lisr$", nm, re.M).group(1), 16)
srv.ask(b"Z0,%x,2" % stim_lisr)
r = srv.ask(b"vCont;c")
check("a replay gives the input again: its LISR runs", r.startswith(b"T05"), r)
srv.ask(b"z0,%x,2" % stim_lisr)
out = srv.run_until("never printed", tries=2)
check("... its output printed once", out.count("kicked\n") == 1, out)
check("... and the task waits again", "semaphore kick" in row(srv.monitor("tasks"), "kicked"))

r = srv.monitor("gpio 5 1")
check("monitor gpio answers", "input pin 5 driven to 1" in r and "latches line 6" in r, r)
out = srv.run_until("button:")
check("monitor gpio raises the pin's edge; the LISR reads the pin back",
      "button: line 6, GPIO_IN 0x20\n" in out, out)

r = srv.monitor("uart rx hello bench\\n\\x41\\n")
check("monitor uart rx answers", "14 byte(s) on the receive line" in r and "16-byte FIFO" in r, r)
out = srv.run_until("A\n")
check("monitor uart rx: the bytes are echoed", "hello bench\nA\n" in out, out)
srv.monitor("uart rx bye\\n")
srv.s.sendall(frame(b"vCont;c"))
r = srv.reply()
check("the firmware ends on bye", r.startswith(b"W00"), r)
rc = srv.finish()
check("exit 0", rc == 0, rc)
with open(io1) as f:
    rows = f.read().splitlines()
stim = [r for r in rows if ",stimulus,3," in r]
check("the IO record has the stimulus, once", len(stim) == 1 and stim[0].endswith("stimulus,3,0"), stim)
check("the IO record has the pin", any(r.endswith("gpio_in,5,1") for r in rows), rows[:5])
rx = [r for r in rows if ",uart_rx,2," in r]
check("the IO record has the typed bytes (host line, port 2)", len(rx) == 18, len(rx))

# ------------------------------------------------------------ reset drops input; replay
io2 = os.path.join(work, "bench2.csv")
st2 = os.path.join(work, "bench2.json")
srv = Server("bench2", bench, "--machine", machine, "--io", io2, "--stats", st2)
srv.ask(b"?")
srv.run_a_while(0.2)
srv.monitor("uart rx zzz\\n")
for n in (2000, 2000):
    srv.monitor("uart rx " + "x" * n)
r = srv.monitor("uart rx " + "y" * 100)
check("the receive line's queue is bounded",
      "100 bytes do not fit: the receive line holds 4096 bytes on their way and has room for 92" in r, r)
r = srv.monitor("reset")
check("monitor reset drops the input given", "the 3 input(s) given by monitor commands are dropped" in r, r)
srv.run_a_while(0.2)
srv.monitor("uart rx bye\\n")
srv.s.sendall(frame(b"vCont;c"))
r = srv.reply()
rc = srv.finish()
out = srv.console()
check("after the reset only the later input arrives", out == "bye\n" and rc == 0, (out, rc))
st3 = os.path.join(work, "bench3.json")
p = subprocess.run([ubik, "run", bench, "--machine", machine, "--uart-replay", io2, "--stats", st3],
                   capture_output=True)
cyc = lambda f: json.load(open(f))["cycles"]
check("--uart-replay of the debugged session: same output, same cycles",
      p.returncode == 0 and p.stdout == b"bye\n" and cyc(st2) == cyc(st3),
      (p.returncode, p.stdout, p.stderr[-200:]))

# ------------------------------------------------------------ the tutorial's tasks
nm = subprocess.run(["riscv64-unknown-elf-nm", tutorial], capture_output=True, text=True).stdout
produce = int(re.search(r"^([0-9a-f]+) T produce$", nm, re.M).group(1), 16)
srv = Server("tutorial", tutorial)
srv.ask(b"?")
r = srv.monitor("tasks")
check("monitor tasks before the kernel starts: no task yet", r.startswith("tasks: none yet"), r)
srv.ask(b"Z0,%x,2" % produce)
r = srv.ask(b"vCont;c")
check("the tutorial stops in produce", r.startswith(b"T05"), r)
t1 = srv.monitor("tasks")
check("tutorial: the consumer waits on the queue items",
      re.search(r"^consumer +pending +1 +queue items ", t1, re.M) is not None, t1)
check("tutorial: the producer runs", re.search(r"^producer +running +2 +- ", t1, re.M) is not None, t1)
check("tutorial: the idle task", re.search(r"^idle +ready +255 +- ", t1, re.M) is not None, t1)
srv.monitor("reset")
r = srv.ask(b"vCont;c")
check("after monitor reset the breakpoint hits again", r.startswith(b"T05"), r)
t2 = srv.monitor("tasks")
strip = lambda t: re.sub(r"\d+/(\d+) ", r"\1 ", t)
check("after monitor reset, the same task table", strip(t1) == strip(t2), (t1, t2))
srv.ask(b"z0,%x,2" % produce)
srv.s.sendall(frame(b"vCont;c"))
r = srv.reply()
check("the tutorial ends", r.startswith(b"W00"), r)
srv.finish()

sys.exit(1 if fails else 0)
