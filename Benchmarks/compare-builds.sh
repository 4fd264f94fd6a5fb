#!/usr/bin/env bash
# Two builds of mockserver side by side in one run, rounds alternating, so that a change's cost is
# a ratio of the same noisy moments: keep-alive GETs with wrk against a one-entry HTTP script and
# against a mock-data folder, and through `mockserver record` to nginx, on 1 and 64 connections;
# and the script with a new connection per request (`Connection: close`) on 16.
# Not a test: it prints figures and exits 0.
#   Benchmarks/compare-builds.sh OLD_MOCKSERVER NEW_MOCKSERVER [SECONDS] [ROUNDS]
# Build the old one from another worktree: git worktree add --detach ../old REV &&
#   (cd ../old && swift build -c release --product mockserver).
# Needs wrk and nginx (apt-get install wrk nginx).
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1
new=$2
seconds=${3:-5}
rounds=${4:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

source Benchmarks/nginx.sh
start_nginx "$work" 'location / { return 200 "ok\n"; }'
mkdir -p "$work/mock-data"
printf 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nok\n' >"$work/mock-data/GET|-.http"

# start NAME BINARY ARGUMENTS...: runs BINARY in the background and sets port_NAME.
start() {
    local name=$1 binary=$2
    shift 2
    "$binary" "$@" >"$work/$name.out" 2>/dev/null &
    for _ in $(seq 1 100); do [ -s "$work/$name.out" ] && break; sleep 0.1; done
    printf -v "port_$name" '%s' "$(sed -n '1s/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/$name.out")"
}
for side in old new; do
    binary=${!side}
    start "${side}_script" "$binary" Benchmarks/http-hello.json
    start "${side}_mockdata" "$binary" --mock-data "$work/mock-data"
    start "${side}_record" "$binary" record --upstream "http://127.0.0.1:$nport" --endpoints "$work/$side-recorded.json"
done

rps() {
    local out
    out=$(wrk -t"$1" -c"$2" -d"${seconds}s" ${4:+-H "$4"} "http://127.0.0.1:$3/")
    grep -E "Socket errors|Non-2xx" <<<"$out" | sed "s/^/    port $3: /" >&2 || true
    awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$out"
}
echo "old: $old"
echo "new: $new"
echo "wrk GET, keep-alive unless it says close, ${seconds}s per run, ${rounds} alternating rounds (requests/s)"
for kind in script mockdata record; do
    loads=("1 1" "2 64")
    [ "$kind" = script ] && loads+=("2 16 close")
    for load in "${loads[@]}"; do
        set -- $load
        header=""; [ "${3:-}" = close ] && header="Connection: close"
        ototal=0; ntotal=0
        oport="port_old_$kind"; nport_="port_new_$kind"
        for round in $(seq 1 "$rounds"); do
            o=$(rps "$1" "$2" "${!oport}" "$header"); n=$(rps "$1" "$2" "${!nport_}" "$header")
            echo "  $kind -t$1 -c$2 ${3:-keep-alive} round=$round old=$o new=$n"
            ototal=$((ototal + o)); ntotal=$((ntotal + n))
        done
        awk -v o="$ototal" -v n="$ntotal" -v k="$kind" -v t="$1" -v c="$2" -v a="${3:-keep-alive}" \
            'BEGIN { printf "%s -t%d -c%d %s old=%.0f new=%.0f new/old=%.3f\n", k, t, c, a, o, n, n / o }'
    done
done
