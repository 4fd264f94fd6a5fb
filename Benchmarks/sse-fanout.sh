#!/usr/bin/env bash
# One server-sent event stream (an endpoints file's "events", INTERVAL seconds apart) to CLIENTS
# clients at once: how many streams end complete and how late the events arrive, with the client's
# own loop lag beside them (Benchmarks/sse-fanout.py). Not a test: it prints figures and exits 0.
#   Benchmarks/sse-fanout.sh [CLIENTS] [EVENTS] [INTERVAL] [ROUNDS]
# Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-1000}
events=${2:-20}
interval=${3:-0.1}
rounds=${4:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$events" "$interval" >"$work/ticks.json" <<'PY'
import json, sys
count, interval = int(sys.argv[1]), float(sys.argv[2])
events = [{"event": "tick", "data": str(k), "delay": 0 if k == 0 else interval} for k in range(count)]
print(json.dumps({"endpoints": [{"api": "get /ticks", "response": {"events": events}}]}))
PY
swift build -c release --product mockserver >/dev/null
bin=$(swift build -c release --show-bin-path)
"$bin/mockserver" "$work/ticks.json" >"$work/m.out" &
for _ in $(seq 1 100); do [ -s "$work/m.out" ] && break; sleep 0.1; done
port=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m.out")
ulimit -n 65536 2>/dev/null || true
echo "server-sent events: $clients clients at once, $events events ${interval}s apart, $rounds rounds"
for round in $(seq 1 "$rounds"); do
    echo "  round=$round $(python3 Benchmarks/sse-fanout.py 127.0.0.1 "$port" /ticks "$clients" "$events" "$interval")"
done
echo "  mockserver's resident memory after: $(awk '/VmRSS/ {print $2, $3}' /proc/$!/status)"
