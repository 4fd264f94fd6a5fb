#!/usr/bin/env bash
# HTTPS requests per second with wrk against a one-entry HTTP script over TLS, beside nginx (one
# worker, `return 200`) with the same ECDSA P-256 certificate and TLS 1.3, in the same run:
# keep-alive on 1 and 64 connections, and a new connection (a full handshake) per request.
# Not a test: it prints figures and exits 0.
#   Benchmarks/https-wrk.sh [SECONDS] [ROUNDS]          ($MOCKSERVER names a binary instead of building)
# Needs wrk, nginx and openssl (apt-get install wrk nginx openssl).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
    -addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
if [ -z "${MOCKSERVER:-}" ]; then
    swift build -c release --product mockserver >/dev/null
    MOCKSERVER=$(swift build -c release --show-bin-path)/mockserver
fi
source Benchmarks/nginx.sh
start_nginx "$work" "ssl_certificate $work/cert.pem; ssl_certificate_key $work/key.pem; ssl_protocols TLSv1.3; location / { return 200 \"ok\\n\"; }" ssl
"$MOCKSERVER" --tls --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" Benchmarks/https-hello.json >"$work/m.out" &
for _ in $(seq 1 50); do [ -s "$work/m.out" ] && break; sleep 0.1; done
mport=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m.out")

# Requests per second; wrk's socket errors and non-2xx answers, if any, go to standard error (a
# server that closes without saying so makes wrk write a request into a closed connection).
rps() {
    local out
    out=$(wrk -t"$1" -c"$2" -d"${seconds}s" ${4:+-H "$4"} "https://127.0.0.1:$3/")
    grep -E "Socket errors|Non-2xx" <<<"$out" | sed "s/^/    port $3: /" >&2 || true
    awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$out"
}
echo "wrk over HTTPS (TLS 1.3, ECDSA P-256), ${seconds}s per run, ${rounds} alternating rounds (requests/s)"
for load in "1 1" "2 64" "2 16 close"; do
    set -- $load
    header=""; [ "${3:-}" = close ] && header="Connection: close"
    ntotal=0; mtotal=0
    for round in $(seq 1 "$rounds"); do
        n=$(rps "$1" "$2" "$nport" "$header"); m=$(rps "$1" "$2" "$mport" "$header")
        echo "  -t$1 -c$2 ${3:-keep-alive} round=$round nginx=$n mockserver=$m"
        ntotal=$((ntotal + n)); mtotal=$((mtotal + m))
    done
    awk -v n="$ntotal" -v m="$mtotal" -v t="$1" -v c="$2" -v k="${3:-keep-alive}" 'BEGIN { printf "-t%d -c%d %s nginx=%.0f mockserver=%.0f ratio=%.2f\n", t, c, k, n, m, m / n }'
done
