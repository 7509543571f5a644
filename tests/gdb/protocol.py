#!/usr/bin/env python3
"""The GDB server's remote protocol at the byte level (what gdb-multiarch never sends):
bad packets are answered with an error and the session goes on (a wrong checksum, malformed
and unexpected packets, a plain qSupported, packets over the advertised PacketSize, an
unterminated packet, a few hundred random packets); an odd pc and a thread that does not
exist are refused; a second debugger is refused while the first is served; every stderr
line is one `ubik:` line. Then, on a machine with 1 GiB of RAM running tests/firmware/spin:
the first reply comes at once and the server stays small (snapshots share unchanged pages),
and a reverse-continue over seconds of history stops at GDB's Ctrl-C.

Usage: protocol.py UBIK APP_ELF SPIN_ELF WORKDIR   (tests/gdb/run.sh runs it)
"""
import os
import random
import re
import socket
import sys
import time

from rsp import Client, frame

ubik, app, spin, work = sys.argv[1:5]
fails = 0


def check(name, ok, detail=""):
    global fails
    if ok:
        print(f"PASS  gdb protocol: {name}")
    else:
        fails += 1
        print(f"FAIL  gdb protocol: {name}" + (f" ({detail})" if detail else ""))


class Server(Client):
    """A server whose stderr is kept in WORKDIR/protoN.err; replies are not acknowledged."""

    def __init__(self, elf, *args):
        err = open(os.path.join(work, f"proto{len(os.listdir(work))}.err"), "w+")
        super().__init__(ubik, elf, args, err)

    def final(self, timeout=20):
        """The next reply that is not console output (`O...`, as monitor commands send)."""
        while True:
            r = self.reply(timeout)
            if not (r.startswith(b"O") and r != b"OK"):
                return r

    def rss_kib(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))

    def stderr_lines(self):
        self.err.seek(0)
        return self.err.read().splitlines()


def is_error(r):
    return re.fullmatch(rb"E[0-9a-fA-F]{2}", r) is not None


# ---------------------------------------------------------------- bad packets
srv = Server(app)
r = srv.ask(b"qSupported")
check("a plain qSupported is answered", b"PacketSize=" in r, r)
size = int(re.search(rb"PacketSize=([0-9a-fA-F]+)", r).group(1), 16) if b"PacketSize=" in r else 4096
check("a stop reply", srv.ask(b"?")[:1] in (b"T", b"S"))

srv.send_raw(b"$?#00")
r = srv.reply()
check("a wrong checksum is answered '-' (send again)", r == b"-", r)
check("... and the session goes on", srv.ask(b"?")[:1] in (b"T", b"S"))

for bad in [b"m,", b"T0", b"Hg-1", b"m", b"Z9,0,0", b"qThreadExtraInfo,"]:
    r = srv.ask(bad)
    check(f"'{bad.decode()}' is answered with an error", is_error(r) or r == b"", r)
    check(f"... and the session goes on after '{bad.decode()}'", srv.ask(b"?")[:1] in (b"T", b"S"))

r = srv.ask(b"qThreadExtraInfo,63")
check("qThreadExtraInfo of a thread that does not exist is an error", is_error(r), r)
r = srv.ask(b"qThreadExtraInfo,1")
check("qThreadExtraInfo of the core's thread", bytes.fromhex(r.decode()) == b"core, no task", r)

pc = srv.ask(b"p20")
r = srv.ask(b"P20=01011000")
check("an odd pc (P) is refused", is_error(r), r)
g = srv.ask(b"g")
odd = g[: 32 * 8] + b"01011000" + g[33 * 8:]
r = srv.ask(b"G" + odd)
check("an odd pc (G) is refused", is_error(r), r)
check("... the pc is unchanged", srv.ask(b"p20") == pc)
r = srv.ask(b"P20=00011000")
check("an even pc is written", r == b"OK", r)

r = srv.ask(b"m100000," + b"0" * (size + 100))
check(f"a packet over PacketSize ({size}) is refused", is_error(r), r)
srv.send_raw(b"$" + b"a" * 300_000 + b"#00")
r = srv.reply()
check("an unterminated packet is refused once it ends", is_error(r), r)
check("... and the session goes on", srv.ask(b"?")[:1] in (b"T", b"S"))

# Random packets (no resume, kill or detach), some with a wrong checksum.
rnd = random.Random(28)
heads = [b"m", b"M", b"X", b"g", b"G", b"p", b"P", b"z0,", b"Z0,", b"z2,", b"Z2,", b"Z1,",
         b"H", b"Hg", b"Hc", b"T", b"q", b"qC", b"qfThreadInfo", b"qsThreadInfo",
         b"qThreadExtraInfo,", b"qXfer:features:read:target.xml:", b"qRcmd,", b"Q",
         b"QStartNoAckMode", b"v", b"vMustReplyEmpty", b"?", b"qAttached", b"qOffsets", b""]
alphabet = b"0123456789abcdef,:;-=xX.p"
answered = True
for i in range(300):
    body = rnd.choice(heads) + bytes(rnd.choice(alphabet) for _ in range(rnd.randrange(12)))
    if body.startswith((b"M", b"X")):
        body = body[:1] + b"00100000," + body[1:]  # never a device register
    if body.startswith(b"QStartNoAck"):
        continue  # a nack below must stay a nack
    pkt = frame(body)
    if rnd.random() < 0.1:
        pkt = pkt[:-2] + (b"00" if pkt[-2:] != b"00" else b"11")
    try:
        srv.send_raw(pkt)
        srv.final(timeout=10)
    except Exception as e:  # noqa: BLE001 (any failure is the test's)
        answered = False
        check(f"random packet {i} {pkt[:40]!r} is answered", False, e)
        break
check("300 random packets are each answered", answered)
r = srv.ask(b"?") if answered else b""
check("... and the session goes on", r[:1] in (b"T", b"S"), r)

# A second debugger while the first is served.
try:
    second = socket.create_connection(("127.0.0.1", srv.port), timeout=3)
    second.settimeout(3)
    try:
        second.sendall(frame(b"qSupported:multiprocess+"))
        got = second.recv(100)
        refused = got == b""
    except (ConnectionResetError, BrokenPipeError):
        refused = True
    except socket.timeout:
        refused = False
except ConnectionRefusedError:
    refused = True
check("a second debugger is refused", refused)
check("... and the first goes on", srv.ask(b"?")[:1] in (b"T", b"S"))

srv.send(b"k")
rc = srv.finish()
lines = srv.stderr_lines()
check("kill ends the run (exit 130)", rc == 130, rc)
check("every stderr line is one 'ubik:' line", all(l.startswith("ubik: ") for l in lines), lines)
check("no stderr line sends users to the stub library",
      not any("issue" in l or "gdbstub" in l for l in lines), lines)

# ---------------------------------------------------------------- 1 GiB of RAM, reverse
machine = os.path.join(work, "big.toml")
with open(machine, "w") as f:
    f.write("ram_size = 1073741824\n")
t0 = time.time()
srv = Server(spin, "--machine", machine)
r = srv.ask(b"?")
took = time.time() - t0
check("1 GiB of RAM: the first reply comes at once", took < 5, f"{took:.1f} s")
rss = srv.rss_kib()
check("1 GiB of RAM: the server stays small at reset", rss < 200_000, f"{rss} KiB")
srv.send(b"c")
time.sleep(3)
srv.send_raw(b"\x03")
r = srv.reply()
check("Ctrl-C stops a continue", re.match(rb"T02|S02", r) is not None, r)
srv.send(b"qRcmd," + b"stats".hex().encode())
out = b""
while True:
    r = srv.reply()
    if r.startswith(b"O") and r != b"OK":
        out += bytes.fromhex(r[1:].decode())
        continue
    break
m = re.search(rb"snapshots (\d+) \((\d+) KiB of RAM", out)
check("monitor stats counts what snapshots hold", m is not None, out)
if m:
    check("snapshots share unchanged pages", int(m.group(2)) < 4096, out)
rss = srv.rss_kib()
check("1 GiB of RAM: the server stays small after a continue", rss < 200_000, f"{rss} KiB")

t0 = time.time()
srv.send(b"bc")
time.sleep(0.2)
srv.send_raw(b"\x03")
r = srv.reply()
took = time.time() - t0
check("Ctrl-C stops a reverse-continue", re.match(rb"T02|S02", r) is not None, r)
check("... at once", took < 2, f"{took:.1f} s")
check("the session goes on", srv.ask(b"?")[:1] in (b"T", b"S"))
srv.send(b"k")
srv.finish()

sys.exit(1 if fails else 0)
