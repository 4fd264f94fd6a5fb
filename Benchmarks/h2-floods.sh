#!/usr/bin/env bash
# HTTP/2 floods against the command (issue 48's defences): 100,000 streams opened and reset at once
# (CVE-2023-44487), 2,000,000 empty DATA frames (CVE-2019-9518), 500,000 each of PRIORITY, PING and
# SETTINGS, and a zero window held on a 1 MB answer (up to 40 s), each on a fresh connection; one line
# each from Benchmarks/h2-flood.py: the GOAWAY (ENHANCE_YOUR_CALM, 11) and what the server read
# before it, or "no GOAWAY" and the time it took to read the whole flood. Not a test.
#   Benchmarks/h2-floods.sh [MOCKSERVER] [EXTRA MOCKSERVER ARGUMENTS...]
# MOCKSERVER is a binary to measure instead of this tree's release build (an old build, say);
# the arguments go to it (--http2-reset-budget off, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
mockserver=${1:-}
[ $# -gt 0 ] && shift
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
if [ -z "$mockserver" ]; then
    swift build -c release --product mockserver >/dev/null
    mockserver="$(swift build -c release --show-bin-path)/mockserver"
fi
python3 -c "
import json
print(json.dumps({'endpoints': [{'api': 'get /', 'response': {'body': 'ok\n'}}, {'api': 'post /', 'response': {'body': 'ok\n'}},
                                {'api': 'get /big', 'response': {'body': 'x' * 1000000}}]}))" >"$work/api.json"
"$mockserver" "$@" "$work/api.json" >"$work/out" &
for _ in $(seq 1 100); do [ -s "$work/out" ] && break; sleep 0.1; done
port=$(sed -n '1s/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/out")
for flood in "reset 100000" "emptydata 2000000" "priority 500000" "ping 500000" "settings 500000"; do
    timeout 300 python3 Benchmarks/h2-flood.py "$port" $flood || echo "${flood%% *}: gave up after 300 s"
done
timeout 40 python3 Benchmarks/h2-flood.py "$port" zerowindow 1 || echo "zerowindow: no GOAWAY in 40 s"
