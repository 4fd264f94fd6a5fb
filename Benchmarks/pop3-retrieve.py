#!/usr/bin/env python3
"""Retrieves a whole maildrop over POP3, as a downloading client does (for Benchmarks/pop3-retrieve.sh):
USER and PASS, STAT, then RETR 1 to N one after another, each answer read to its end before the
next command (no pipelining), then QUIT. With ROUNDS, that many sessions one after another.

    pop3-retrieve.py HOST PORT USER [ROUNDS]

Prints `messages=N bytes=B seconds=S` (totals over the sessions). Any -ERR stops it with an error.
"""
import socket
import sys
import time

host, port, user = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 1


class Reader:
    """Reads status lines and dot-terminated answers from one connection."""

    def __init__(self, sock):
        self.sock, self.buffer = sock, b""

    def fill(self):
        chunk = self.sock.recv(262144)
        if not chunk:
            sys.exit("closed by the server")
        self.buffer += chunk

    def status(self):
        while b"\r\n" not in self.buffer:
            self.fill()
        line, _, self.buffer = self.buffer.partition(b"\r\n")
        if not line.startswith(b"+OK"):
            sys.exit(f"server said {line.decode(errors='replace')}")
        return line

    def multiline(self):
        """The lines after a status line, to the terminating dot; the bytes of the answer."""
        self.status()
        start = 0
        while True:
            # The answer may end right after the status line (an empty body) or after CRLF.
            if self.buffer.startswith(b".\r\n"):
                end, skip = 0, 3
                break
            end = self.buffer.find(b"\r\n.\r\n", start)
            if end >= 0:
                end, skip = end + 2, 3
                break
            start = max(0, len(self.buffer) - 4)
            self.fill()
        body, self.buffer = self.buffer[:end], self.buffer[end + skip:]
        return len(body)


messages = total = 0
began = time.monotonic()
for _ in range(rounds):
    sock = socket.create_connection((host, port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    reader = Reader(sock)
    reader.status()
    for command in (f"USER {user}\r\n", "PASS secret\r\n"):
        sock.sendall(command.encode())
        reader.status()
    sock.sendall(b"STAT\r\n")
    count = int(reader.status().split()[1])
    for number in range(1, count + 1):
        sock.sendall(b"RETR %d\r\n" % number)
        total += reader.multiline()
    messages += count
    sock.sendall(b"QUIT\r\n")
    reader.status()
    sock.close()
print(f"messages={messages} bytes={total} seconds={time.monotonic() - began:.3f}", flush=True)
