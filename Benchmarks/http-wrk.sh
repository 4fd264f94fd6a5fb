#!/usr/bin/env bash
# Keep-alive GET requests per second with wrk against a one-entry HTTP script, beside nginx
# (`return 200` from one worker) in the same run. Not a test: it prints figures and exits 0.
#   Benchmarks/http-wrk.sh [SECONDS] [ROUNDS]
# Needs wrk and nginx (apt-get install wrk nginx).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

swift build -c release --product mockserver >/dev/null
bin=$(swift build -c release --show-bin-path)
source Benchmarks/nginx.sh
start_nginx "$work" 'location / { return 200 "ok\n"; }'
"$bin/mockserver" Benchmarks/http-hello.json >"$work/m.out" &
for _ in $(seq 1 50); do [ -s "$work/m.out" ] && break; sleep 0.1; done
mport=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m.out")

rps() { wrk -t"$1" -c"$2" -d"${seconds}s" "http://127.0.0.1:$3/" | awk '/Requests\/sec/ {printf "%.0f", $2}'; }
echo "wrk keep-alive GET, ${seconds}s per run, ${rounds} alternating rounds (requests/s)"
for load in "1 1" "2 64"; do
    set -- $load
    ntotal=0; mtotal=0
    for round in $(seq 1 "$rounds"); do
        n=$(rps "$1" "$2" "$nport"); m=$(rps "$1" "$2" "$mport")
        echo "  -t$1 -c$2 round=$round nginx=$n mockserver=$m"
        ntotal=$((ntotal + n)); mtotal=$((mtotal + m))
    done
    awk -v n="$ntotal" -v m="$mtotal" -v t="$1" -v c="$2" 'BEGIN { printf "-t%d -c%d nginx=%.0f mockserver=%.0f ratio=%.2f\n", t, c, n, m, m / n }'
done
