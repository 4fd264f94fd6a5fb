#!/usr/bin/env bash
# When the 226 after a download leaves, under strace: for 2 s of ftplib sessions (login, PASV,
# RETR 1 KiB, QUIT), the results of the server's SIOCOUTQ checks after it shut down a data
# connection as the kernel gives them ([0]: everything acknowledged; [1] can be our FIN alone, which
# builds from 67eb603 on leave out themselves; more: data in flight, checked again later), and how many
# 226 replies went before and after the data connection's close (after: the client had to close
# first, a round trip). strace slows the server, so the client closes first more often than
# without it: compare builds in one run, not against other runs.
#   Benchmarks/ftp-226-order.sh MOCKSERVER_BINARY
# Needs strace and python3; uses ../shared/bench/ftpsessions.py (or $BENCH_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
bench=${BENCH_DIR:-../shared/bench}
work=$(mktemp -d)
mkdir "$work/files"
head -c 1024 /dev/urandom >"$work/files/file.bin"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin" --files "$work/files" >"$work/out" &
pid=$!
for _ in $(seq 1 50); do [ -s "$work/out" ] && break; sleep 0.1; done
port=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/out")
strace -f -q -p "$pid" -e trace=ioctl,sendto,close,shutdown -o "$work/trace" &
tracer=$!
sleep 0.5  # strace attaches asynchronously and has no readiness signal
python3 "$bench/ftpsessions.py" 127.0.0.1 "$port" file.bin 2 1024 | tail -n 1
kill -INT "$tracer"; wait "$tracer" 2>/dev/null || true
echo "ioctl results: $(grep -o 'ioctl(.*= [0-9-]*\|\[[0-9]*\]' "$work/trace" | grep -o '\[[0-9]*\]' | sort | uniq -c | tr '\n' ' ')"
# per data connection: after shutdown(fd), is the next "226" sendto before or after close(fd)?
python3 - "$work/trace" <<'PY'
import re, sys
early = late = 0; fd = None; closed = False
for line in open(sys.argv[1]):
    m = re.search(r'shutdown\((\d+)', line)
    if m: fd, closed = m.group(1), False; continue
    if fd is None: continue
    m = re.search(r'close\((\d+)', line)
    if m and m.group(1) == fd: closed = True
    if 'sendto(' in line and '"226' in line:
        if closed: late += 1
        else: early += 1
        fd = None
print(f"226 sent before the data connection's close: {early}, after it: {late}")
PY
