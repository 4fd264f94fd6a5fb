#!/usr/bin/env python3
"""Times one IMAP command, sent again and again on one connection (for Benchmarks/imap-commands.sh).

    imap-commands.py HOST PORT USER FOLDER REPEATS PID COMMAND

Logs in (any password), SELECTs FOLDER, sends COMMAND once to warm up (a server that builds an index
or a cache on first use does so then), then REPEATS times, each answer read to its tagged OK before the
next command. Around each measured command it reads the CPU time the server has run: the sum over the
threads of PID and of its live descendants of /proc/T/schedstat's first field (for Dovecot, its master,
the imap process serving this connection and the services it asks; for ours, its one process).

Prints `seconds=S cpu_ns=C bytes=B untagged=U found=F` per repeat: the client's wall-clock time from
sending the command to reading its tagged answer, the server's CPU time over it, the answer's bytes
(the client sends nothing more before its end), its untagged responses (FETCH responses) and
the numbers SEARCH found, and the client's own CPU time (how much of the wall-clock time is the
client's: the same for both servers given the same answers). Any NO or BAD stops it with an error, and
so does a server that sends nothing for TIMEOUT seconds (60, from the environment).
"""
import os
import socket
import sys
import time

from process_tree import cpu_ns

host, port, user, folder = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
repeats, root, command = int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]


class Connection:
    """One IMAP connection: sends tagged commands and reads their answers, literals included, finding
    line ends and literal markers in its buffer without copying each line out."""

    def __init__(self):
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.settimeout(float(os.environ.get("TIMEOUT", "60")))
        self.buffer = bytearray()
        self.position = 0
        self.counter = 0
        self.received = 0
        self.response()  # the greeting

    def fill(self, keep):
        """Receives more, first dropping the buffer's bytes before `keep`; returns how far what is kept moved."""
        try:
            chunk = self.sock.recv(1 << 20)
        except socket.timeout:
            sys.exit(f"nothing more from the server for {self.sock.gettimeout():.0f} s, {self.received} bytes in")
        if not chunk:
            sys.exit("closed by the server")
        self.received += len(chunk)
        del self.buffer[:keep]
        self.buffer += chunk
        return keep

    def response(self):
        """Reads one response, its literals' bytes skipped; returns where its first line starts and ends."""
        start = search = self.position
        while True:
            end = self.buffer.find(b"\r\n", search)
            if end < 0:
                # What was searched holds no CRLF; its last byte may be the CR of one.
                searched = len(self.buffer)
                shift = self.fill(start)
                start -= shift
                search = max(search - shift, searched - shift - 1)
                continue
            brace = self.buffer.rfind(b"{", search, end) if self.buffer[end - 1] == 0x7D else -1
            if brace >= 0 and self.buffer[brace + 1:end - 1].isdigit():
                after = end + 2 + int(self.buffer[brace + 1:end - 1])
                while len(self.buffer) < after:
                    shift = self.fill(start)
                    start -= shift
                    after -= shift
                search = after
                continue
            self.position = end + 2
            return start, end

    def run(self, text):
        """Sends `text` as a command; returns (untagged responses, numbers in `* SEARCH`)."""
        self.counter += 1
        tag = b"b%d " % self.counter
        self.sock.sendall(tag + text.encode() + b"\r\n")
        untagged = found = 0
        while True:
            start, end = self.response()
            buffer = self.buffer
            if buffer.startswith(tag, start):
                if not buffer.startswith(tag + b"OK", start):
                    sys.exit(f"{text}: {buffer[start:end].decode(errors='replace')}")
                return untagged, found
            if buffer.startswith(b"* SEARCH", start):
                found += buffer.count(b" ", start, end) - 1
            elif buffer.startswith(b"* ", start):
                untagged += 1


connection = Connection()
connection.run(f"LOGIN {user} secret")
connection.run(f"SELECT \"{folder}\"")
connection.run(command)
for _ in range(repeats):
    received_before = connection.received
    cpu_before = cpu_ns(root)
    client_before = time.process_time_ns()
    began = time.monotonic()
    untagged, found = connection.run(command)
    seconds = time.monotonic() - began
    client = time.process_time_ns() - client_before
    cpu = cpu_ns(root) - cpu_before
    print(f"seconds={seconds:.6f} cpu_ns={cpu} client_cpu_ns={client} bytes={connection.received - received_before} "
          f"untagged={untagged} found={found}", flush=True)
connection.run("LOGOUT")
