#!/usr/bin/env python3
"""Opens many connections to a server, has each do one small exchange, leaves them idle and prints
the server's memory before and with them open (for Benchmarks/idle-memory.sh).

    idle-clients.py MODE PORT PID COUNT [STREAMS] [WARMUP]

MODE is what each connection does before it idles:
  h1      one keep-alive `GET /` over HTTP/1.1, its whole answer read
  h2      HTTP/2 with prior knowledge: preface, SETTINGS, one GET on stream 1, its whole answer read
  h2wait  HTTP/2 whose SETTINGS_INITIAL_WINDOW_SIZE is 0: one GET on stream 1, then (after the first
          reading) STREAMS - 1 more on each connection; each answer's HEADERS come, its DATA waits on
          the zero window. The figure is per waiting stream (the second step only).
  ws      a WebSocket handshake (`GET /`, Upgrade), then one text message and its echo
  ftp     the greeting read, then NOOP and its reply
  smtp    the greeting read, then EHLO and its (multi-line) reply
  tls     TLS (any certificate), then one keep-alive `GET /` over HTTP/1.1

PID is the process whose memory is read (/proc/PID/status VmRSS, /proc/PID/smaps_rollup Pss and
Private_Dirty). A warm-up of WARMUP connections (default 100) that do the same and close comes first,
so that what the first connection builds once is not counted; 30000 fills MockServer's transcript
to its limit (100,000 entries), after which each new entry drops an old one: what is then measured
is the connections' own cost, without the transcript's growth. Prints one line:
  MODE units=N rss_kb=B:A pss_kb=B:A dirty_kb=B:A per_unit_rss=X per_unit_pss=Y per_unit_dirty=Z
(B before, A with the connections open, per-unit figures in KiB).
"""
import os
import resource
import socket
import ssl
import struct
import sys
import time

mode, port, pid, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
streams = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[5] else 100
warmup = int(sys.argv[6]) if len(sys.argv) > 6 else 100
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
if hard < count + 100:
    sys.exit(f"RLIMIT_NOFILE's hard limit {hard} is below {count + 100}: raise it (ulimit -Hn) first")

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def settings(window_zero):
    return frame(0x4, 0, 0, struct.pack(">HI", 0x4, 0) if window_zero else b"")


# :method GET, :scheme http, :path / (static table), :authority localhost (literal, indexed name).
GET_BLOCK = b"\x82\x86\x84\x01\x09localhost"


def get(stream):
    return frame(0x1, 0x5, stream, GET_BLOCK)


def recv_exactly(sock, n, buffer):
    while len(buffer) < n:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        buffer += chunk
    return buffer


class H2Reader:
    """Reads frames; acknowledges the server's SETTINGS; tells which streams got HEADERS or ended."""

    def __init__(self, sock):
        self.sock, self.buffer, self.headers, self.ended = sock, b"", set(), set()

    def read_until(self, done):
        while not done():
            self.buffer = recv_exactly(self.sock, 9, self.buffer)
            length = int.from_bytes(self.buffer[:3], "big")
            self.buffer = recv_exactly(self.sock, 9 + length, self.buffer)
            kind, flags = self.buffer[3], self.buffer[4]
            stream = int.from_bytes(self.buffer[5:9], "big") & 0x7FFFFFFF
            self.buffer = self.buffer[9 + length:]
            if kind == 0x4 and not flags & 1:
                self.sock.sendall(frame(0x4, 0x1, 0))
            elif kind == 0x1:
                self.headers.add(stream)
                if flags & 1:
                    self.ended.add(stream)
            elif kind == 0x0 and flags & 1:
                self.ended.add(stream)
            elif kind == 0x7:
                raise ConnectionError("GOAWAY from the server")


def read_http_answer(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        body += chunk
    return head


def read_line_reply(sock):
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        data += chunk
        lines = data.split(b"\r\n")
        # A final reply line: three digits and a space.
        if any(len(l) > 3 and l[:3].isdigit() and l[3:4] == b" " for l in lines[:-1]):
            return data


TLS_CONTEXT = ssl.create_default_context()
TLS_CONTEXT.check_hostname = False
TLS_CONTEXT.verify_mode = ssl.CERT_NONE


def open_one():
    sock = socket.create_connection(("127.0.0.1", port))
    if mode == "h1":
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert read_http_answer(sock).startswith(b"HTTP/1.1 200")
    elif mode == "tls":
        sock = TLS_CONTEXT.wrap_socket(sock, server_hostname="localhost")
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert read_http_answer(sock).startswith(b"HTTP/1.1 200")
    elif mode in ("h2", "h2wait"):
        sock.sendall(PREFACE + settings(mode == "h2wait") + get(1))
        reader = H2Reader(sock)
        if mode == "h2":
            reader.read_until(lambda: 1 in reader.ended)
        else:
            reader.read_until(lambda: 1 in reader.headers)
        return sock, reader
    elif mode == "ws":
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        assert read_http_answer(sock).startswith(b"HTTP/1.1 101")
        # A masked text frame "hi" (mask 0), and its echo: 0x81 0x02 "hi".
        sock.sendall(b"\x81\x82\x00\x00\x00\x00hi")
        recv_exactly(sock, 4, b"")
    elif mode == "ftp":
        read_line_reply(sock)
        sock.sendall(b"NOOP\r\n")
        read_line_reply(sock)
    elif mode == "smtp":
        read_line_reply(sock)
        sock.sendall(b"EHLO client.example\r\n")
        assert read_line_reply(sock).startswith(b"250")
    else:
        sys.exit(f"unknown mode {mode}")
    return sock, None


def memory():
    """(RSS, Pss, Private_Dirty) of the server in KiB."""
    rss = pss = dirty = 0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith("Pss:"):
                pss = int(line.split()[1])
            elif line.startswith("Private_Dirty:"):
                dirty = int(line.split()[1])
    return rss, pss, dirty


def settled():
    """The memory once two readings 0.3 s apart agree within 64 KiB (the server has finished the
    work the last connections gave it), after 5 s at most."""
    last = memory()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = memory()
        if abs(now[0] - last[0]) <= 64:
            return now
        last = now
    return last


for _ in range(warmup):
    sock, _ = open_one()
    sock.close()
connections = []
if mode == "h2wait":
    connections = [open_one() for _ in range(count)]
    before = settled()
    for sock, reader in connections:
        ids = list(range(3, 2 * streams, 2))
        sock.sendall(b"".join(get(stream) for stream in ids))
    for sock, reader in connections:
        reader.read_until(lambda: all(stream in reader.headers for stream in range(3, 2 * streams, 2)))
    units = count * (streams - 1)
else:
    before = settled()
    connections = [open_one() for _ in range(count)]
    units = count
after = settled()
figures = " ".join(f"{name}_kb={b}:{a}" for name, b, a in zip(("rss", "pss", "dirty"), before, after))
per_unit = " ".join(f"per_unit_{name}={(a - b) / units:.3f}" for name, b, a in zip(("rss", "pss", "dirty"), before, after))
print(f"{mode} units={units} {figures} {per_unit}", flush=True)
for sock, _ in connections:
    sock.close()
