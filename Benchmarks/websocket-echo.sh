#!/usr/bin/env bash
# WebSocket echo round trips per second on 1 and 64 connections (Benchmarks/wspong.c, a closed-loop
# client in C), mockserver's websocket-echo.json beside an echo server written with Python's
# websockets, in the same run; then 10,000 idle WebSocket connections' memory. Not a test: it prints
# figures and exits 0.
#   Benchmarks/websocket-echo.sh [SECONDS] [ROUNDS]
# Needs cc and python3 with websockets (pip install websockets).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

cc -O2 -o "$work/wspong" Benchmarks/wspong.c
swift build -c release --product mockserver >/dev/null
bin=$(swift build -c release --show-bin-path)

"$bin/mockserver" Benchmarks/websocket-echo.json >"$work/m.out" &
mpid=$!
python3 - >"$work/p.out" 2>/dev/null <<'PY' &
import asyncio
from websockets.asyncio.server import serve
async def echo(websocket):
    async for message in websocket:
        await websocket.send(message)
async def main():
    async with serve(echo, "127.0.0.1", 0, compression=None, max_queue=None) as server:
        print("port", server.sockets[0].getsockname()[1], flush=True)
        await asyncio.get_running_loop().create_future()
asyncio.run(main())
PY
for _ in $(seq 1 100); do
    [ -s "$work/m.out" ] && [ -s "$work/p.out" ] && break
    sleep 0.1
done
mport=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m.out")
pport=$(awk '{print $2}' "$work/p.out")

rps() { "$work/wspong" 127.0.0.1 "$1" "$2" "$seconds" "hello websocket" | sed -n 's/.*rps=\([0-9]*\).*/\1/p'; }
for conns in 1 64; do
    echo "wspong, $conns connection(s), ${seconds}s per run, ${rounds} alternating rounds (round trips/s)"
    ptotal=0; mtotal=0
    for round in $(seq 1 "$rounds"); do
        p=$(rps "$pport" "$conns"); m=$(rps "$mport" "$conns")
        echo "  round=$round python-websockets=$p mockserver=$m"
        ptotal=$((ptotal + p)); mtotal=$((mtotal + m))
    done
    awk -v p="$ptotal" -v m="$mtotal" -v r="$rounds" 'BEGIN { printf "  python-websockets=%.0f mockserver=%.0f ratio=%.2f\n", p / r, m / r, m / p }'
done

# 10,000 idle connections, handshakes done: the mock's resident memory before and with them open.
rss() { awk '/VmRSS/ {print $2}' "/proc/$mpid/status"; }
before=$(rss)
python3 - "$mport" >"$work/idle.out" <<'PY' &
import resource, socket, sys, time
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 20000), hard))
request = (b"GET / HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
sockets = []
for _ in range(10000):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(request)
    sockets.append(s)
for s in sockets:
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):
        answer += s.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
print("open", len(sockets), flush=True)
time.sleep(3600)
PY
idle=$!
for _ in $(seq 1 600); do
    grep -q open "$work/idle.out" 2>/dev/null && break
    sleep 0.1
done
with=$(rss)
kill "$idle" 2>/dev/null || true
awk -v b="$before" -v w="$with" 'BEGIN { printf "10,000 idle WebSocket connections: mockserver RSS %.1f MiB before, %.1f MiB with them open (%.1f KiB each)\n", b / 1024, w / 1024, (w - b) / 10000 }'
