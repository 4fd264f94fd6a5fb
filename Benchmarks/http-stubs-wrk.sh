#!/usr/bin/env bash
# Keep-alive GET requests per second with wrk against an HTTPMockServer with 100 stubs (literal
# paths, :param templates, and one endpoint whose closure reads the cache), beside nginx (`return
# 200` from one worker) in the same run. Not a test: it prints figures and exits 0.
#   Benchmarks/http-stubs-wrk.sh [SECONDS] [ROUNDS] [STUBS]
# Needs wrk and nginx (apt-get install wrk nginx).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
stubs=${3:-100}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

swift build -c release --product mockserver-bench >/dev/null
bin=$(swift build -c release --show-bin-path)
source Benchmarks/nginx.sh
start_nginx "$work" 'location / { return 200 "ok\n"; }'
"$bin/mockserver-bench" serve-stubs "$stubs" >"$work/m.out" &
for _ in $(seq 1 50); do [ -s "$work/m.out" ] && break; sleep 0.1; done
mport=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m.out")

rps() { wrk -t"$1" -c"$2" -d"${seconds}s" "http://127.0.0.1:$3$4" | awk '/Requests\/sec/ {printf "%.0f", $2}'; }
echo "wrk keep-alive GET, $stubs stubs, ${seconds}s per run, ${rounds} alternating rounds (requests/s)"
for path in "/literal/50" "/template/7/99" "/dynamic/ada"; do
    for load in "1 1" "2 64"; do
        set -- $load
        ntotal=0; mtotal=0
        for round in $(seq 1 "$rounds"); do
            n=$(rps "$1" "$2" "$nport" "$path"); m=$(rps "$1" "$2" "$mport" "$path")
            ntotal=$((ntotal + n)); mtotal=$((mtotal + m))
        done
        awk -v n="$ntotal" -v m="$mtotal" -v t="$1" -v c="$2" -v p="$path" 'BEGIN { printf "%s -t%d -c%d nginx=%.0f mockserver=%.0f ratio=%.2f\n", p, t, c, n, m, m / n }'
    done
done
