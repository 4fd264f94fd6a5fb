#!/usr/bin/env bash
# Benchmarks for issue "Core": MockServer beside the C reference responder, in one run, so that the
# ratios mean something on a shared, noisy machine. Not a test: it prints figures and exits 0.
#   Benchmarks/run.sh [SECONDS] [ROUNDS]          ($MOCKSERVER names a binary instead of building; the
#                                                  start/stop and matching figures then need mockserver-bench beside it)
# Needs gcc; uses ../shared/bench (or $BENCH_DIR) for linepong.c and cresponder.c.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
bench=${BENCH_DIR:-../shared/bench}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

gcc -O2 -o "$work/linepong" "$bench/linepong.c"
gcc -O2 -o "$work/cresponder" "$bench/cresponder.c"
if [ -z "${MOCKSERVER:-}" ]; then
    swift build -c release --product mockserver >/dev/null
    swift build -c release --product mockserver-bench >/dev/null
    MOCKSERVER=$(swift build -c release --show-bin-path)/mockserver
fi
bin=$(dirname "$MOCKSERVER")

"$work/cresponder" 0 >"$work/c.out" &
"$MOCKSERVER" Benchmarks/cresponder.json >"$work/m.out" &
for _ in $(seq 1 50); do
    [ -s "$work/c.out" ] && [ -s "$work/m.out" ] && break
    sleep 0.1
done
cport=$(awk '{print $2}' "$work/c.out")
mport=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m.out")

rps() { "$work/linepong" 127.0.0.1 "$1" "$2" "$seconds" NOOP 1 | sed -n 's/.*rps=\([0-9]*\).*/\1/p'; }
echo "linepong NOOP, ${seconds}s per run, ${rounds} alternating rounds (replies/s)"
for conns in 1 64; do
    ctotal=0; mtotal=0
    for round in $(seq 1 "$rounds"); do
        c=$(rps "$cport" "$conns"); m=$(rps "$mport" "$conns")
        echo "  conns=$conns round=$round cresponder=$c mockserver=$m"
        ctotal=$((ctotal + c)); mtotal=$((mtotal + m))
    done
    awk -v c="$ctotal" -v m="$mtotal" -v n="$conns" 'BEGIN { printf "conns=%d cresponder=%.0f mockserver=%.0f ratio=%.2f\n", n, c, m, m / c }'
done
if [ -x "$bin/mockserver-bench" ]; then
    "$bin/mockserver-bench" Benchmarks/cresponder.json Responses/webdav.json
else
    echo "(no mockserver-bench beside $MOCKSERVER: start/stop and matching figures left out)"
fi
