#!/usr/bin/env bash
# The interactive UART (docs/cli.md, "Interactive UART"): the echo firmware
# (tests/firmware/uart_echo.c, on the default machine: nothing scripted) runs with
# --uart tcp:127.0.0.1:0; a socket client sends lines and must read each one back; the
# session's IO record, replayed with --uart-replay, must give the same console output and the
# same IO record. Also: a pty, a closed connection (end of input, not an error), pacing to the
# wall clock, and bad arguments (one `ubik:` line, the contract's exit code).
# Usage: tests/uart/run.sh (make test; after make firmware).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
elf=$root/build/firmware/uart_echo.elf
[[ -f $elf ]] || { echo "FAIL  uart: $elf missing (make firmware)"; exit 1; }
exec python3 - "$root/ubik" "$elf" "$work" <<'PY'
import os, socket, subprocess, sys, time

ubik, elf, work = sys.argv[1:]
fails = []

def fail(msg):
    print("FAIL  uart:", msg)
    fails.append(msg)

def start(*extra):
    """ubik run on the echo firmware; returns the process and the UART's address line."""
    err = open(os.path.join(work, "err.txt"), "w+")
    p = subprocess.Popen([ubik, "run", elf, *extra], stdout=subprocess.PIPE, stderr=err)
    deadline = time.time() + 60
    while time.time() < deadline:
        err.seek(0)
        for line in err.read().splitlines():
            if line.startswith("ubik: UART on "):
                return p, line[len("ubik: UART on "):].split(",")[0], err
        if p.poll() is not None:
            break
        time.sleep(0.02)
    err.seek(0)
    fail(f"no UART address printed: {err.read()!r}")
    p.kill()
    sys.exit(1)

def read_line(f):
    got = b""
    while not got.endswith(b"\n"):
        b = f.recv(1)
        if not b:
            break
        got += b
    return got

# A session over TCP: every line comes back.
io = os.path.join(work, "io.csv")
p, addr, err = start("--uart", "tcp:127.0.0.1:0", "--io", io)
host, port = addr.removeprefix("tcp:").rsplit(":", 1)
s = socket.create_connection((host, int(port)), timeout=30)
heard = b""
for line in [b"hello\n", b"typed on a socket 42\n", b"bye\n"]:
    s.sendall(line)
    got = read_line(s)
    heard += got
    if got != line:
        fail(f"sent {line!r}, read back {got!r}")
rc = p.wait(timeout=60)
s.close()
if rc != 0:
    err.seek(0)
    fail(f"the session ended with {rc}: {err.read()!r}")
else:
    print(f"PASS  uart: three lines echoed over tcp {addr}")
rx = [r for r in open(io).read().splitlines() if ",uart_rx,2," in r]
if len(rx) != len(heard):
    fail(f"{len(rx)} host bytes in the IO record, expected {len(heard)}")

# The record replayed: the same console, the same IO record.
io2 = os.path.join(work, "io2.csv")
r = subprocess.run([ubik, "run", elf, "--uart-replay", io, "--io", io2], capture_output=True)
if r.returncode != 0 or r.stdout != heard:
    fail(f"replay: exit {r.returncode}, console {r.stdout!r}, expected {heard!r}; {r.stderr!r}")
elif open(io).read() != open(io2).read():
    fail("replay: the IO record differs from the session's")
else:
    print("PASS  uart: the replayed session gives the same console and IO record")

# stdio: stdin's lines come back on stdout; its end of file ends the input.
r = subprocess.run([ubik, "run", elf, "--uart", "stdio"], input=b"on stdin\nbye\n",
                   capture_output=True, timeout=60)
if r.returncode != 0 or r.stdout != b"on stdin\nbye\n":
    fail(f"stdio: exit {r.returncode}, stdout {r.stdout!r}, stderr {r.stderr!r}")
else:
    print("PASS  uart: echoed over stdio")

# A pty: its path on stderr, bytes both ways.
p, path, err = start("--uart", "pty")
path = path.removeprefix("pty ")
fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
os.write(fd, b"pty line\nbye\n")
# Read late, after the firmware has echoed and ended: the testbed must wait for the reader
# (closing the pty's master would drop the bytes not yet read).
time.sleep(0.5)
got = b""
deadline = time.time() + 30
while not got.endswith(b"bye\n") and time.time() < deadline:
    try:
        got += os.read(fd, 100)
    except OSError:  # EIO: the testbed closed the pty (a lost byte fails below)
        break
os.close(fd)
rc = p.wait(timeout=60)
if rc != 0 or got != b"pty line\nbye\n":
    fail(f"pty {path}: exit {rc}, read back {got!r}")
else:
    print(f"PASS  uart: echoed over a pty ({path})")

# A closed connection ends the input: the firmware then sleeps with nothing to wake it (71,
# the machine's own verdict), with no error about the connection.
p, addr, err = start("--uart", "tcp:127.0.0.1:0")
host, port = addr.removeprefix("tcp:").rsplit(":", 1)
s = socket.create_connection((host, int(port)), timeout=30)
s.sendall(b"x\n")
s.close()
rc = p.wait(timeout=60)
err.seek(0)
text = err.read()
if rc != 71 or "wfi" not in text or "connection" in text.lower():
    fail(f"closed connection: exit {rc}, {text!r}; expected 71 (wfi that nothing can wake)")
else:
    print("PASS  uart: a closed connection is the end of input")

# Paced: 0.3 s of simulated time takes at least 0.3 s; --no-pace does not wait.
for flags, slow in [([], True), (["--no-pace"], False)]:
    p, addr, err = start("--uart", "tcp:127.0.0.1:0", "--max-time", "0.3", *flags)
    host, port = addr.removeprefix("tcp:").rsplit(":", 1)
    t0 = time.time()
    s = socket.create_connection((host, int(port)), timeout=30)
    rc = p.wait(timeout=60)
    took = time.time() - t0
    s.close()
    if rc != 72 or (took < 0.3) == slow:
        fail(f"{flags}: exit {rc} after {took:.2f} s; expected 72, paced: {slow}")
    else:
        print(f"PASS  uart: 0.3 s simulated took {took:.2f} s {flags}")

# Bad arguments: one line, the contract's code.
busy = socket.socket()
busy.bind(("127.0.0.1", 0))
busy.listen()
taken = busy.getsockname()[1]
bad_csv = os.path.join(work, "bad.csv")
open(bad_csv, "w").write("cycle,time_s,kind,port,value\n12,1e-6,uart_rx,2,999\n")
for args, code, want in [
    (["--uart", "foo"], 64, "expected stdio, pty or tcp:HOST:PORT"),
    (["--uart", f"tcp:127.0.0.1:{taken}"], 69, "cannot listen on"),
    (["--uart-replay", bad_csv], 65, f"{bad_csv}:2:19: value \"999\""),
    (["--uart-replay", os.path.join(work, "none.csv")], 66, "cannot read --uart-replay"),
    (["--no-pace"], 64, "--uart"),
]:
    r = subprocess.run([ubik, "run", elf, *args], capture_output=True, text=True, timeout=60)
    lines = r.stderr.splitlines()
    if r.returncode != code or len(lines) != 1 or not lines[0].startswith("ubik: ") or want not in lines[0]:
        fail(f"{args}: exit {r.returncode}, stderr {r.stderr!r}; expected {code} and one line with {want!r}")
    else:
        print(f"PASS  uart: {' '.join(args)} -> {code}")
busy.close()
sys.exit(1 if fails else 0)
PY
