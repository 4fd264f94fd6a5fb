#!/usr/bin/env python3
"""Many IMAP connections in IDLE on one INBOX, one message delivered, and the time until every one of
them is told (for Benchmarks/imap-idle.sh).

    imap-idle.py HOST PORT USER COUNT PID DELIVERY...

Opens COUNT connections (at most 20 logging in at once), each LOGIN, SELECT INBOX and IDLE, and waits
until every one has its `+` continuation. It reads the server's memory before the first connection and
with all of them idling: the resident set (VmRSS) and the proportional set (Pss, each shared page
divided among the processes that map it, /proc/P/smaps_rollup) summed over PID and its live
descendants, and their number. Then it delivers one message, as DELIVERY says:
    smtp SMTP_PORT          SMTP to HOST:SMTP_PORT, to USER;
    command PROGRAM ARG...  the message on PROGRAM's standard input (dovecot-lda);
    maildir DIR             a file written in DIR/tmp and renamed into DIR/new;
and times, from just before the delivery, each connection's `* N EXISTS` with N above what SELECT
said. Prints `connections=COUNT told=T within_1s=W median_ms=… p99_ms=… max_ms=…` (after at most
TIMEOUT seconds, 45 by default, from the environment), the memory figures and the server's CPU from
the delivery to the last EXISTS (/proc/T/schedstat of PID's tree), then ends every IDLE and logs out.
"""
import os
import selectors
import smtplib
import socket
import subprocess
import sys
import time

from process_tree import cpu_ns, memory

host, port, user, count, root = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
delivery = sys.argv[6:]
timeout = float(os.environ.get("TIMEOUT", "45"))
concurrent_logins = 20


class Client:
    """One connection and how far it is: greeting, login, select, idling, told."""

    def __init__(self, selector):
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setblocking(False)
        self.buffer = b""
        self.state = "greeting"
        self.exists = 0
        self.told = None
        selector.register(self.sock, selectors.EVENT_READ, self)

    def send(self, text):
        self.sock.setblocking(True)
        self.sock.sendall(text)
        self.sock.setblocking(False)

    def readable(self, now):
        """Reads what arrived and moves on; returns False if the server closed."""
        try:
            chunk = self.sock.recv(65536)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        self.buffer += chunk
        while b"\r\n" in self.buffer:
            line, _, self.buffer = self.buffer.partition(b"\r\n")
            self.line(line, now)
        return True

    def line(self, line, now):
        words = line.split()
        if len(words) >= 3 and words[0] == b"*" and words[2].upper() == b"EXISTS":
            number = int(words[1])
            if self.state in ("idling", "told") and number > self.exists and self.told is None:
                self.told = now
                self.state = "told"
            elif self.state == "select":
                self.exists = number
        elif self.state == "greeting" and line.startswith(b"* OK"):
            self.state = "login"
            self.send(b"a LOGIN %s secret\r\n" % user.encode())
        elif self.state == "login" and line.startswith(b"a "):
            self.expect(line, b"a OK")
            self.state = "select"
            self.send(b"b SELECT INBOX\r\n")
        elif self.state == "select" and line.startswith(b"b "):
            self.expect(line, b"b OK")
            self.state = "idle"
            self.send(b"c IDLE\r\n")
        elif self.state == "idle" and line.startswith(b"+"):
            self.state = "idling"
        elif line.startswith((b"a ", b"b ", b"c ", b"* BYE")) and self.state not in ("done",):
            self.expect(line, b"c OK")

    @staticmethod
    def expect(line, prefix):
        if not line.startswith(prefix):
            sys.exit(f"server said {line.decode(errors='replace')}")


def deliver():
    message = (f"From: bench@example.org\r\nTo: {user}\r\nSubject: wake up\r\nMessage-ID: <{time.time()}@bench>\r\n\r\n"
               "One message for every idling client.\r\n")
    if delivery[0] == "smtp":
        with smtplib.SMTP(host, int(delivery[1])) as smtp:
            smtp.sendmail("bench@example.org", [user], message)
    elif delivery[0] == "command":
        subprocess.run(delivery[1:], input=message.encode(), check=True)
    elif delivery[0] == "maildir":
        name = f"{time.time_ns()}.P{os.getpid()}.imapbench"
        temporary = os.path.join(delivery[1], "tmp", name)
        with open(temporary, "w", newline="") as file:
            file.write(message)
        status = os.stat(delivery[1])
        os.chown(temporary, status.st_uid, status.st_gid)
        os.rename(temporary, os.path.join(delivery[1], "new", name))
    else:
        sys.exit(f"unknown delivery {delivery[0]}")


selector = selectors.DefaultSelector()
memory_before = memory(root)
clients, opened, began = [], 0, time.monotonic()
# Connections open while fewer than `concurrent_logins` are between connecting and idling.
while True:
    busy = sum(1 for client in clients if client.state not in ("idling",))
    while opened < count and busy < concurrent_logins:
        clients.append(Client(selector))
        opened += 1
        busy += 1
    if opened == count and busy == 0:
        break
    for key, _ in selector.select(timeout=10):
        if not key.data.readable(time.monotonic()):
            sys.exit(f"closed by the server after {opened} connections")
    if time.monotonic() - began > 300:
        sys.exit(f"only {count - busy} of {count} idling after 300 s")
connect_seconds = time.monotonic() - began
memory_idle = memory(root)

cpu_before = cpu_ns(root)
delivered = time.monotonic()
deliver()
while any(client.told is None for client in clients) and time.monotonic() - delivered < timeout:
    for key, _ in selector.select(timeout=1):
        if not key.data.readable(time.monotonic()):
            sys.exit("a connection closed by the server while idling")
cpu = cpu_ns(root) - cpu_before
delays = sorted((client.told - delivered) * 1e3 for client in clients if client.told is not None)
told = len(delays)


def percentile(share):
    return delays[min(told - 1, int(share * told))] if told else float("nan")


print(f"connections={count} told={told} within_1s={sum(1 for d in delays if d <= 1000)} "
      f"median_ms={percentile(0.5):.0f} p99_ms={percentile(0.99):.0f} max_ms={(delays[-1] if delays else float('nan')):.0f} "
      f"delivery_cpu_ms={cpu / 1e6:.1f} connect_s={connect_seconds:.1f}")
print(f"rss_kb_before={memory_before[0]} rss_kb_idle={memory_idle[0]} pss_kb_before={memory_before[1]} "
      f"pss_kb_idle={memory_idle[1]} processes_before={memory_before[2]} processes_idle={memory_idle[2]} "
      f"rss_kb_per_connection={(memory_idle[0] - memory_before[0]) / count:.1f} "
      f"pss_kb_per_connection={(memory_idle[1] - memory_before[1]) / count:.1f}", flush=True)
for client in clients:
    client.state = "done"
    try:
        client.send(b"DONE\r\nd LOGOUT\r\n")
    except OSError:
        pass
for client in clients:
    client.sock.close()
