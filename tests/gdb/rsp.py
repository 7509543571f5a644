"""GDB's remote serial protocol for the GDB tests (protocol.py, monitor.py, vscode.py): where a
`ubik run --gdb 0` server listens, packet framing, and a client that reads replies. The tests
import it from their own directory."""
import re
import socket
import subprocess
import time


def gdb_port(err, tries=300):
    """The port the server printed on its stderr (the file `err`, read from the start), within
    `tries` tenths of a second; None if it said nothing."""
    for _ in range(tries):
        err.seek(0)
        m = re.search(r"waiting for GDB on 127\.0\.0\.1:(\d+)", err.read())
        if m:
            return int(m.group(1))
        time.sleep(0.1)
    return None


def frame(body: bytes) -> bytes:
    return b"$" + body + b"#%02x" % (sum(body) & 0xFF)


def unrun(body: bytes) -> bytes:
    """A reply's body with its run-length encoding expanded, as GDB reads it: `X*n` is X
    followed by ord(n) - 29 more copies of it."""
    return re.sub(rb"(.)\*(.)", lambda m: m.group(1) * (m.group(2)[0] - 29 + 1), body, flags=re.S)


class Client:
    """`ubik run ELF --gdb 0 ARGS...` with its stderr in `err` (a file opened w+) and its stdout
    to `stdout`, and a connection to it. `ack`: acknowledge each reply with `+`, as GDB does
    (the byte-level tests leave it out); `timeout`: seconds a reply may take."""

    def __init__(self, ubik, elf, args, err, stdout=subprocess.DEVNULL, ack=False, timeout=20):
        self.err = err
        self.p = subprocess.Popen([ubik, "run", elf, "--gdb", "0", *args],
                                  stdout=stdout, stderr=err)
        self.port = gdb_port(err)
        assert self.port, "the server did not say where it listens"
        self.s = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        self.ack = ack
        self.timeout = timeout
        self.buf = b""

    def send_raw(self, data: bytes):
        self.s.sendall(data)

    def send(self, body: bytes):
        self.send_raw(frame(body))

    def reply(self, timeout=None):
        """The next reply: a packet's body, or b'-' for a nack."""
        self.s.settimeout(timeout or self.timeout)
        while True:
            self.buf = self.buf.lstrip(b"+")
            if self.buf.startswith(b"-"):
                self.buf = self.buf[1:]
                return b"-"
            m = re.match(rb"\$([^#]*)#[0-9a-fA-F]{2}", self.buf, re.S)
            if m:
                self.buf = self.buf[m.end():]
                if self.ack:
                    self.s.sendall(b"+")
                return unrun(m.group(1))
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError("the server closed the connection")
            self.buf += chunk

    def ask(self, body: bytes, timeout=None):
        self.send(body)
        return self.reply(timeout)

    def finish(self):
        self.s.close()
        return self.p.wait(timeout=60)
