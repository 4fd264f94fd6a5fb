#!/usr/bin/env python3
"""Runs whole SMTP sessions against a server for a while, one after another on fresh connections
(for Benchmarks/smtp-sessions.sh): greeting, EHLO, MAIL, RCPT, DATA with a message of BYTES bytes
(lines of 76 characters, none starting with a dot), QUIT, each reply read before the next command
(no pipelining, as most clients send).

    smtp-sessions.py HOST PORT SECONDS [BYTES]

Prints `sessions=N seconds=S`. A reply with an unexpected code stops it with an error.
"""
import socket
import sys
import time

host, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
size = int(sys.argv[4]) if len(sys.argv) > 4 else 10240
line = b"x" * 76 + b"\r\n"
header = b"From: ann@example.com\r\nTo: bob@example.com\r\nSubject: benchmark\r\n\r\n"
body = header + line * ((size - len(header)) // len(line))
body += b"y" * (size - len(body) - 2) + b"\r\n"
assert len(body) == size
message = body + b".\r\n"


def reply(sock, buffer, code):
    """Reads one (possibly multi-line) reply; returns what came after it."""
    while True:
        end = buffer.find(b"\r\n")
        while end >= 0:
            reply_line, buffer = buffer[:end], buffer[end + 2:]
            if reply_line[3:4] != b"-":
                if not reply_line.startswith(code):
                    sys.exit(f"expected {code.decode()}, got {reply_line.decode(errors='replace')}")
                return buffer
            end = buffer.find(b"\r\n")
        chunk = sock.recv(65536)
        if not chunk:
            sys.exit("closed by the server")
        buffer += chunk


sessions = 0
start = time.monotonic()
while time.monotonic() - start < seconds:
    sock = socket.create_connection((host, port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    rest = reply(sock, b"", b"220")
    for command, code in ((b"EHLO client.example\r\n", b"250"), (b"MAIL FROM:<ann@example.com>\r\n", b"250"),
                          (b"RCPT TO:<bob@example.com>\r\n", b"250"), (b"DATA\r\n", b"354"), (message, b"250"),
                          (b"QUIT\r\n", b"221")):
        sock.sendall(command)
        rest = reply(sock, rest, code)
    sock.close()
    sessions += 1
print(f"sessions={sessions} seconds={time.monotonic() - start:.3f}", flush=True)
