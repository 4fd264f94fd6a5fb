#!/usr/bin/env bash
# WebSocket echo round trips per second on 1 and 64 connections (Benchmarks/wspong.c, a closed-loop
# client in C), mockserver's websocket-echo.json beside echo servers written with Node's `ws` and
# Python's websockets, rounds alternating in the same run, each with the server's own CPU per round
# trip (/proc/PID/task/*/schedstat); then 10,000 idle WebSocket connections' memory. Not a test: it
# prints figures and exits 0.
#   Benchmarks/websocket-echo.sh [SECONDS] [ROUNDS]      ($MOCKSERVER names a binary instead of building)
# Needs cc, python3 with websockets (pip install websockets) and node with ws (apt-get install nodejs
# node-ws; without them that peer is skipped, saying so).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

cc -O2 -o "$work/wspong" Benchmarks/wspong.c
if [ -z "${MOCKSERVER:-}" ]; then
    swift build -c release --product mockserver >/dev/null
    MOCKSERVER=$(swift build -c release --show-bin-path)/mockserver
fi
source Benchmarks/server-cpu.sh

"$MOCKSERVER" Benchmarks/websocket-echo.json >"$work/m.out" &
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
ppid=$!
nport=""
if NODE_PATH=/usr/share/nodejs:${NODE_PATH:-} node -e "require('ws')" 2>/dev/null; then
    NODE_PATH=/usr/share/nodejs:${NODE_PATH:-} node -e '
        const { WebSocketServer } = require("ws");
        const server = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
        server.on("connection", (socket) => socket.on("message", (data, binary) => socket.send(data, { binary })));
        server.on("listening", () => console.log("port", server.address().port));
    ' >"$work/n.out" 2>/dev/null &
    npid=$!
    for _ in $(seq 1 100); do [ -s "$work/n.out" ] && break; sleep 0.1; done
    nport=$(awk '{print $2}' "$work/n.out")
else
    echo "node ws skipped: apt-get install nodejs node-ws"
fi
for _ in $(seq 1 100); do
    [ -s "$work/m.out" ] && [ -s "$work/p.out" ] && break
    sleep 0.1
done
mport=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m.out")
pport=$(awk '{print $2}' "$work/p.out")

# rps PORT CONNS PID: "RATE CPU_US", round trips/s of one run and the server's CPU per round trip.
rps() {
    local before after rate
    before=$(cpu_ns "$3")
    rate=$("$work/wspong" 127.0.0.1 "$1" "$2" "$seconds" "hello websocket" | sed -n 's/.*rps=\([0-9]*\).*/\1/p')
    after=$(cpu_ns "$3")
    awk -v r="$rate" -v b="$before" -v a="$after" -v s="$seconds" 'BEGIN { printf "%d %.1f\n", r, (r > 0 ? (a - b) / 1000 / (r * s) : 0) }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for conns in 1 64; do
    echo "wspong, $conns connection(s), ${seconds}s per run, ${rounds} alternating rounds (round trips/s, server CPU per round trip)"
    : >"$work/rounds"
    for round in $(seq 1 "$rounds"); do
        m=$(rps "$mport" "$conns" "$mpid"); p=$(rps "$pport" "$conns" "$ppid")
        n="0 0"; [ -n "$nport" ] && n=$(rps "$nport" "$conns" "$npid")
        echo "  round=$round mockserver=${m/ /\/s } us  node-ws=${n/ /\/s } us  python-websockets=${p/ /\/s } us"
        echo "$m $n $p" >>"$work/rounds"
    done
    for column in 1 2 3 4 5 6; do awk -v c="$column" '{ print $c }' "$work/rounds" | median >"$work/median.$column"; done
    awk -v m="$(cat "$work/median.1")" -v mc="$(cat "$work/median.2")" -v n="$(cat "$work/median.3")" -v nc="$(cat "$work/median.4")" \
        -v p="$(cat "$work/median.5")" -v pc="$(cat "$work/median.6")" 'BEGIN {
        printf "  medians: mockserver=%.0f/s %.1f us  node-ws=%.0f/s %.1f us  python-websockets=%.0f/s %.1f us\n", m, mc, n, nc, p, pc
        if (n > 0) printf "  mockserver / node-ws: rate %.2fx, CPU per round trip %.2fx\n", m / n, mc / nc
        printf "  mockserver / python-websockets: rate %.2fx, CPU per round trip %.2fx\n", m / p, mc / pc }'
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
