#!/usr/bin/env bash
# Keep-alive GET requests per second with wrk against `mockserver --mock-data` serving a folder of
# 10 files and one of 10,000 files (each request names another file, in turn), beside nginx serving
# the same bodies as static files from one worker, in the same run. Not a test: it prints figures
# and exits 0.
#   Benchmarks/mock-data-wrk.sh [SECONDS] [ROUNDS]
# Needs wrk and nginx (apt-get install wrk nginx).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
work=$(mktemp -d)
chmod 755 "$work" # nginx's worker runs as another user
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

swift build -c release --product mockserver >/dev/null
bin=$(swift build -c release --show-bin-path)
source Benchmarks/nginx.sh

# The same JSON body for item N in both servers: a .http file for mockserver, a static file for nginx.
python3 - "$work" <<'PY'
import os, sys
work = sys.argv[1]
for count in (10, 10000):
    mock = os.path.join(work, f"mock{count}"); static = os.path.join(work, f"static{count}", "item")
    os.makedirs(mock); os.makedirs(static)
    for n in range(1, count + 1):
        body = ('{"id": %d, "name": "item %d", "tags": ["a", "b", "c"], "price": %d.99}\n' % (n, n, n % 100)).encode()
        with open(os.path.join(mock, f"GET|-item-{n}.http"), "wb") as f:
            f.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + body)
        with open(os.path.join(static, str(n)), "wb") as f:
            f.write(body)
PY

start_nginx "$work" "location /small/ { alias $work/static10/; default_type application/json; }
        location /large/ { alias $work/static10000/; default_type application/json; }"

# Started from this shell (not inside $(…)), so that the exit trap's `jobs -p` stops them.
"$bin/mockserver" --mock-data "$work/mock10" >"$work/m10.out" &
"$bin/mockserver" --mock-data "$work/mock10000" >"$work/m10000.out" &
port_of() {
    for _ in $(seq 1 100); do [ -s "$work/m$1.out" ] && break; sleep 0.1; done
    sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m$1.out"
}
m10=$(port_of 10)
m10000=$(port_of 10000)

# A wrk script that names item 1, 2, … COUNT, 1, … in turn, under PREFIX.
cat >"$work/rotate.lua" <<'LUA'
local count, prefix, n = tonumber(os.getenv("COUNT")), os.getenv("PREFIX"), 0
request = function()
    n = n % count + 1
    return wrk.format("GET", prefix .. "/item/" .. n)
end
LUA
rps() { COUNT=$1 PREFIX=$2 wrk -t"$3" -c"$4" -d"${seconds}s" -s "$work/rotate.lua" "http://127.0.0.1:$5" | awk '/Requests\/sec/ {printf "%.0f", $2}'; }

# Both must answer the same body before any timing.
for count in 10 10000; do
    port=$m10; prefix=/small; [ "$count" = 10000 ] && port=$m10000 && prefix=/large
    a=$(curl -s "http://127.0.0.1:$port/item/7"); b=$(curl -s "http://127.0.0.1:$nport$prefix/item/7")
    [ "$a" = "$b" ] || { echo "bodies differ: mockserver '$a' nginx '$b'" >&2; exit 1; }
done

echo "wrk keep-alive GET, each request another file, ${seconds}s per run, ${rounds} alternating rounds (requests/s)"
for load in "1 1" "2 64"; do
    set -- $load
    for count in 10 10000; do
        port=$m10; prefix=/small; [ "$count" = 10000 ] && port=$m10000 && prefix=/large
        ntotal=0; mtotal=0
        for round in $(seq 1 "$rounds"); do
            n=$(rps "$count" "$prefix" "$1" "$2" "$nport"); m=$(rps "$count" "" "$1" "$2" "$port")
            ntotal=$((ntotal + n)); mtotal=$((mtotal + m))
        done
        awk -v n="$ntotal" -v m="$mtotal" -v t="$1" -v c="$2" -v k="$count" -v r="$rounds" \
            'BEGIN { printf "%5d files -t%d -c%-3d nginx=%.0f mockserver=%.0f ratio=%.2f\n", k, t, c, n / r, m / r, m / n }'
    done
done
