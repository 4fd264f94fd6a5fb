#!/usr/bin/env bash
# Keep-alive GET requests per second with wrk against a one-entry HTTP script, beside nginx
# (`return 200` from one worker) in the same run, with each server's own CPU per request (from
# /proc/PID/task/*/schedstat, Benchmarks/server-cpu.sh): at 64 connections wrk's two threads share
# the two cores with the server, so the rate measures the client as much as the server, and the CPU
# a request is the server's own figure. Not a test: it prints figures and exits 0.
#   Benchmarks/http-wrk.sh [SECONDS] [ROUNDS]          ($MOCKSERVER names a binary instead of building)
# Needs wrk and nginx (apt-get install wrk nginx).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

if [ -z "${MOCKSERVER:-}" ]; then
    swift build -c release --product mockserver >/dev/null
    MOCKSERVER=$(swift build -c release --show-bin-path)/mockserver
fi
source Benchmarks/nginx.sh
source Benchmarks/server-cpu.sh
start_nginx "$work" 'location / { return 200 "ok\n"; }'
for _ in $(seq 1 50); do [ -s "$work/nginx.pid" ] && pgrep -P "$(cat "$work/nginx.pid")" >/dev/null && break; sleep 0.1; done
nworker=$(pgrep -P "$(cat "$work/nginx.pid")")
"$MOCKSERVER" Benchmarks/http-hello.json >"$work/m.out" &
for _ in $(seq 1 50); do [ -s "$work/m.out" ] && break; sleep 0.1; done
mport=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m.out")

mpid=$!
# rps THREADS CONNECTIONS PORT PID: "requests/s CPU-ns-per-request" of one wrk run.
rps() {
    local before after out
    before=$(cpu_ns "$4")
    out=$(wrk -t"$1" -c"$2" -d"${seconds}s" "http://127.0.0.1:$3/")
    after=$(cpu_ns "$4")
    awk -v cpu=$((after - before)) -v s="$seconds" '/Requests\/sec/ {printf "%.0f %.0f\n", $2, cpu / ($2 * s)}' <<<"$out"
}
echo "wrk keep-alive GET, ${seconds}s per run, ${rounds} alternating rounds (requests/s; server CPU per request in ns)"
for load in "1 1" "2 64"; do
    set -- $load
    ntotal=0; mtotal=0; ncpu=0; mcpu=0
    for round in $(seq 1 "$rounds"); do
        read -r n nc < <(rps "$1" "$2" "$nport" "$nworker"); read -r m mc < <(rps "$1" "$2" "$mport" "$mpid")
        echo "  -t$1 -c$2 round=$round nginx=$n (${nc} ns) mockserver=$m (${mc} ns)"
        ntotal=$((ntotal + n)); mtotal=$((mtotal + m)); ncpu=$((ncpu + nc)); mcpu=$((mcpu + mc))
    done
    awk -v n="$ntotal" -v m="$mtotal" -v nc="$ncpu" -v mc="$mcpu" -v r="$rounds" -v t="$1" -v c="$2" 'BEGIN { printf "-t%d -c%d nginx=%.0f mockserver=%.0f ratio=%.2f; CPU per request nginx=%.0f ns mockserver=%.0f ns ratio=%.2f\n", t, c, n, m, m / n, nc / r, mc / r, mc / nc }'
done
