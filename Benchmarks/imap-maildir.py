#!/usr/bin/env python3
"""Writes a Maildir for the IMAP benchmarks (Benchmarks/imap-commands.sh, imap-idle.sh).

    imap-maildir.py FOLDER COUNT BYTES [NEEDLES]

FOLDER gets cur/, new/ and tmp/, and COUNT messages in cur/ of about BYTES bytes each (at least their
headers), with what ENVELOPE shows varied from message to message: From, Sender, To, Cc (every third),
Reply-To (every fifth), Subject (every seventh an RFC 2047 encoded word), Date, Message-ID and
In-Reply-To (every other). Flags vary: most are seen, every 11th flagged, every 13th answered, every 17th
unread. NEEDLES messages, spread evenly, hold the word "needle" in their body, half near the start and
half at the end; no other message holds it. The bodies are lines of 76 characters of words.
"""
import os
import sys

folder, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
needles = int(sys.argv[4]) if len(sys.argv) > 4 else 0
for sub in ("cur", "new", "tmp"):
    os.makedirs(os.path.join(folder, sub), exist_ok=True)
words = b"lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore".split()
needle_at = {count * k // needles for k in range(needles)} if needles else set()


def body_lines(number, length):
    """Lines of words to about `length` bytes, CRLF-terminated."""
    lines, total, index = [], 0, number
    while total < length:
        line = bytearray()
        while len(line) < 70:
            line += words[index % len(words)] + b" "
            index += 7
        line = bytes(line[:76]) + b"\r\n"
        lines.append(line)
        total += len(line)
    return lines


for number in range(count):
    headers = [
        b"Return-Path: <bounce-%d@lists.example.org>" % number,
        b"Date: %s, %d Nov 2026 %02d:%02d:%02d +0000" % ((b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun")[number % 7],
                                                       1 + number % 28, number % 24, number % 60, (number * 7) % 60),
        b"From: Sender %d <sender%d@example.com>" % (number % 97, number % 97),
        b"Sender: list-%d@lists.example.org" % (number % 5),
        b"To: Ann Example <ann@example.com>, team-%d@example.com" % (number % 13),
    ]
    if number % 3 == 0:
        headers.append(b"Cc: \"Bob, the reviewer\" <bob@example.net>, carol@example.net")
    if number % 5 == 0:
        headers.append(b"Reply-To: replies-%d@example.org" % number)
    if number % 7 == 0:
        headers.append(b"Subject: =?UTF-8?Q?R=C3=A9sum=C3=A9_number_%d?=" % number)
    else:
        headers.append(b"Subject: Status report %d: \"quoted\" words and (parentheses)" % number)
    headers.append(b"Message-ID: <%d.%d@mail.example.com>" % (1700000000 + number, number))
    if number % 2:
        headers.append(b"In-Reply-To: <%d.%d@mail.example.com>" % (1700000000 + number - 1, number - 1))
    headers += [b"MIME-Version: 1.0", b"Content-Type: text/plain; charset=utf-8"]
    head = b"\r\n".join(headers) + b"\r\n\r\n"
    lines = body_lines(number, max(size - len(head), 80))
    if number in needle_at:
        place = 0 if number % 2 else len(lines) - 1
        lines[place] = b"a needle in the haystack" + lines[place][24:]
    message = head + b"".join(lines)
    flags = "" if number % 17 == 0 else "S"
    if number % 13 == 0:
        flags = "R" + flags
    if number % 11 == 0:
        flags = "F" + flags
    name = "%d.M%dP1.imapbench,S=%d:2,%s" % (1700000000 + number, number, len(message), flags)
    with open(os.path.join(folder, "cur", name), "wb") as file:
        file.write(message)
