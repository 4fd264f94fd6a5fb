#!/usr/bin/env bash
# Requests per second with wrk through `mockserver record` (a recording reverse proxy writing an
# endpoints file) to nginx, beside nginx direct, in the same run: keep-alive on 1 and 64
# connections. Then 10,000 distinct requests recorded, with the recorder's resident memory before
# and after beside the size of what it wrote. Not a test: it prints figures and exits 0.
#   Benchmarks/record-wrk.sh [SECONDS] [ROUNDS]
# Needs wrk, nginx and curl (apt-get install wrk nginx curl).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

swift build -c release --product mockserver >/dev/null
bin=$(swift build -c release --show-bin-path)
source Benchmarks/nginx.sh
start_nginx "$work" "location / { return 200 \"ok\\n\"; }"
"$bin/mockserver" record --upstream "http://127.0.0.1:$nport" --endpoints "$work/recorded.json" >"$work/m.out" &
recorder=$!
for _ in $(seq 1 50); do [ -s "$work/m.out" ] && break; sleep 0.1; done
mport=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m.out")

rps() {
    local out
    out=$(wrk -t"$1" -c"$2" -d"${seconds}s" "http://127.0.0.1:$3/")
    grep -E "Socket errors|Non-2xx" <<<"$out" | sed "s/^/    port $3: /" >&2 || true
    awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$out"
}
echo "wrk through mockserver record (endpoints) to nginx, and nginx direct, ${seconds}s per run, ${rounds} alternating rounds (requests/s)"
for load in "1 1" "2 64"; do
    set -- $load
    ntotal=0; mtotal=0
    for round in $(seq 1 "$rounds"); do
        n=$(rps "$1" "$2" "$nport"); m=$(rps "$1" "$2" "$mport")
        echo "  -t$1 -c$2 round=$round nginx=$n recorder=$m"
        ntotal=$((ntotal + n)); mtotal=$((mtotal + m))
    done
    awk -v n="$ntotal" -v m="$mtotal" -v t="$1" -v c="$2" 'BEGIN { printf "-t%d -c%d nginx=%.0f recorder=%.0f ratio=%.2f\n", t, c, n, m, m / n }'
done

rss() { awk '/VmRSS/ {print $2}' "/proc/$recorder/status"; }
before=$(rss)
# 10,000 distinct requests (each its own query), 100 per curl process, keep-alive within each.
for batch in $(seq 0 99); do
    urls=()
    for i in $(seq 0 99); do urls+=("http://127.0.0.1:$mport/item?n=$((batch * 100 + i))"); done
    curl -s "${urls[@]}" >/dev/null
done
after=$(rss)
kill -TERM "$recorder"; wait "$recorder" 2>/dev/null || true
endpoints=$(grep -c '"api": "get /item' "$work/recorded.json" || true)
size=$(( $(wc -c <"$work/recorded.json") / 1024 ))
echo "10,000 distinct requests recorded: $endpoints endpoints, file ${size} KiB; recorder RSS ${before} KiB before, ${after} KiB after (+$((after - before)) KiB)"
