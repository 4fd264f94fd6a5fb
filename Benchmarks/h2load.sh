#!/usr/bin/env bash
# HTTP/2 requests per second with h2load against a one-endpoint stub (`h2-hello.json`), beside nginx
# (one worker, `http2`, `return 200` with the same body) in the same run: h2c with prior knowledge
# and h2 over TLS 1.3 (ALPN), at 1 client x 1 stream and 64 clients x 10 streams, rounds alternating.
# Prints each round, then the median of the rounds' ratios (mockserver / nginx) and each server's
# own CPU per request from /proc/PID/task/*/schedstat (Benchmarks/server-cpu.sh); with SYSCALLS=1,
# then `strace -c -f` system calls per request at 64 x 10 over h2c. Not a test: it prints figures
# and exits 0.
#   Benchmarks/h2load.sh [SECONDS] [ROUNDS] [MOCKSERVER]
# MOCKSERVER is a mockserver binary to measure instead of this tree's release build.
# Needs h2load, nginx and openssl (apt-get install nghttp2-client nginx openssl).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
mockserver=${3:-}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
    -addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
if [ -z "$mockserver" ]; then
    swift build -c release --product mockserver >/dev/null
    mockserver="$(swift build -c release --show-bin-path)/mockserver"
fi
source Benchmarks/nginx.sh
source Benchmarks/server-cpu.sh

# nginx: h2c with prior knowledge on $nport, h2 over TLS on $ntls, one worker for both.
ntls=$(free_port)
start_nginx "$work" "listen 127.0.0.1:$ntls ssl http2; ssl_certificate $work/cert.pem;
        ssl_certificate_key $work/key.pem; ssl_protocols TLSv1.3;
        location / { default_type text/plain; return 200 \"ok\\n\"; }" http2
for _ in $(seq 1 50); do [ -s "$work/nginx.pid" ] && pgrep -P "$(cat "$work/nginx.pid")" >/dev/null && break; sleep 0.1; done
nworker=$(pgrep -P "$(cat "$work/nginx.pid")")

# start NAME ARGUMENTS...: runs mockserver in the background and sets port_NAME and pid_NAME.
start() {
    local name=$1
    shift
    "$mockserver" "$@" >"$work/$name.out" &
    printf -v "pid_$name" '%s' $!
    for _ in $(seq 1 100); do [ -s "$work/$name.out" ] && break; sleep 0.1; done
    printf -v "port_$name" '%s' "$(sed -n '1s/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/$name.out")"
}
start h2c Benchmarks/h2-hello.json
start tls --tls --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" Benchmarks/h2-hello.json

# run PID URL THREADS CLIENTS STREAMS: one h2load run; prints "requests/s CPU-ns-per-request".
# Errors (requests that did not succeed) go to standard error.
run() {
    local pid=$1 url=$2 before after out done
    before=$(cpu_ns "$pid")
    out=$(h2load -t"$3" -c"$4" -m"$5" -D"$seconds" "$url" 2>&1)
    after=$(cpu_ns "$pid")
    done=$(awk '/^requests:/ {print $8}' <<<"$out")
    awk '/^requests:/ && ($10 != 0 || $12 != 0) {print "    " $0}' <<<"$out" >&2
    awk -v d="$done" -v cpu=$((after - before)) '/^finished in/ {sub(/,/, "", $4); printf "%.0f %.0f\n", $4, (d > 0 ? cpu / d : 0)}' <<<"$out"
}
median() { sort -g | awk '{ v[NR] = $1 } END { printf "%s", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "mockserver: $mockserver"
echo "h2load, ${seconds}s per run, ${rounds} alternating rounds (requests/s; server CPU per request in us)"
for load in "h2c 1 1 1" "h2c 2 64 10" "tls 1 1 1" "tls 2 64 10"; do
    set -- $load
    if [ "$1" = h2c ]; then nurl="http://127.0.0.1:$nport/"; else nurl="https://127.0.0.1:$ntls/"; fi
    mport="port_$1"; mpid="pid_$1"
    murl="${nurl%%//*}//127.0.0.1:${!mport}/"
    ratios=(); cpus=()
    for round in $(seq 1 "$rounds"); do
        read -r n ncpu < <(run "$nworker" "$nurl" "$2" "$3" "$4")
        read -r m mcpu < <(run "${!mpid}" "$murl" "$2" "$3" "$4")
        printf '  %s -c%s -m%s round=%d nginx=%s (%.1f us) mockserver=%s (%.1f us)\n' "$1" "$3" "$4" "$round" "$n" "$(bc -l <<<"$ncpu/1000")" "$m" "$(bc -l <<<"$mcpu/1000")"
        ratios+=("$(bc -l <<<"$m/$n")"); cpus+=("$(bc -l <<<"$mcpu/$ncpu")")
    done
    printf '%s -c%s -m%s median mockserver/nginx: requests/s %.2fx, CPU per request %.2fx\n' "$1" "$3" "$4" \
        "$(printf '%s\n' "${ratios[@]}" | median)" "$(printf '%s\n' "${cpus[@]}" | median)"
done

if [ "${SYSCALLS:-}" = 1 ]; then
    count() { h2load -t2 -c64 -m10 -D"$seconds" "$1" | awk '/^requests:/ {print $8}'; }
    echo "system calls per request, h2c -c64 -m10 (strace -c -f)"
    echo "  nginx:      $(syscalls_per "$nworker" - count "http://127.0.0.1:$nport/" | head -n 6 | paste -sd' ')"
    echo "  mockserver: $(syscalls_per "$pid_h2c" - count "http://127.0.0.1:$port_h2c/" | head -n 6 | paste -sd' ')"
fi
