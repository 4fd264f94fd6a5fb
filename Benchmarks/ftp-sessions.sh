#!/usr/bin/env bash
# Full FTP sessions (ftplib: login, TYPE I, PASV, RETR of 1 KiB, QUIT) against the bundled ftp.json,
# beside pyftpdlib in the same run, rounds alternating: sessions per second (which the Python client
# bounds) and each server's own CPU per session (from /proc/PID/task/*/schedstat; split into user and
# kernel time from /proc/PID/stat), then system calls per session (strace -c -f, one short run each).
# Not a test: it prints figures and exits 0.
#   Benchmarks/ftp-sessions.sh [SECONDS] [ROUNDS] [OLD_MOCKSERVER]
# With OLD_MOCKSERVER (a release binary from another worktree), that build runs too, alternating, and
# the figures compare the two builds as well. $MOCKSERVER names the new binary instead of building.
# FTP_TLS=1 (what ftps-sessions.sh sets) runs explicit FTPS instead: --starttls against pyftpdlib's
# TLS_FTPHandler with the same ECDSA P-256 certificate, and Benchmarks/ftps-sessions.py as the client;
# FILE_BYTES sets the file's size (1 KiB, or 16 KiB with FTP_TLS).
# Needs python3 with pyftpdlib (pip install pyftpdlib; with FTP_TLS also pyOpenSSL, and openssl), and
# strace; uses ../shared/bench (or $BENCH_DIR). $PYTHON picks the interpreter that has them.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
old=${3:-}
bench=${BENCH_DIR:-../shared/bench}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
source Benchmarks/server-cpu.sh

tls=${FTP_TLS:-}
python=${PYTHON:-python3}
bytes=${FILE_BYTES:-$([ -n "$tls" ] && echo 16384 || echo 1024)}
mkdir "$work/files"
head -c "$bytes" /dev/urandom >"$work/files/file.bin"
if [ -n "$tls" ]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
        -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
    mockserver_args=(--starttls --tls-cert "$work/cert.pem" --tls-key "$work/key.pem")
    handler=TLS_FTPHandler
    client=Benchmarks/ftps-sessions.py
else
    mockserver_args=()
    handler=FTPHandler
    client=$bench/ftpsessions.py
fi
if [ -z "${MOCKSERVER:-}" ]; then
    swift build -c release --product mockserver >/dev/null
    MOCKSERVER=$(swift build -c release --show-bin-path)/mockserver
fi

# start_mockserver NAME BINARY: sets port_NAME and pid_NAME.
start_mockserver() {
    "$2" ${mockserver_args[@]+"${mockserver_args[@]}"} --files "$work/files" >"$work/$1.out" &
    printf -v "pid_$1" '%s' $!
    for _ in $(seq 1 100); do [ -s "$work/$1.out" ] && break; sleep 0.1; done
    printf -v "port_$1" '%s' "$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/$1.out")"
}
env -u MOCKSERVER_SELECTOR "$python" - "$work/files" "$handler" "$work/cert.pem" "$work/key.pem" >"$work/pyftpdlib.out" 2>"$work/pyftpdlib.err" <<'PY' &
import sys, logging
from pyftpdlib import handlers
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.servers import FTPServer
logging.disable(logging.CRITICAL)
authorizer = DummyAuthorizer(); authorizer.add_anonymous(sys.argv[1])
handler = getattr(handlers, sys.argv[2])
handler.authorizer = authorizer
if sys.argv[2] == "TLS_FTPHandler":
    handler.certfile, handler.keyfile = sys.argv[3], sys.argv[4]
server = FTPServer(("127.0.0.1", 0), handler)
print("port", server.address[1], flush=True)
server.serve_forever()
PY
pid_pyftpdlib=$!
for _ in $(seq 1 100); do [ -s "$work/pyftpdlib.out" ] && break; sleep 0.1; done
port_pyftpdlib=$(awk '{print $2}' "$work/pyftpdlib.out")
[ -n "$port_pyftpdlib" ] || { echo "pyftpdlib did not start:" >&2; cat "$work/pyftpdlib.err" >&2; exit 1; }
servers="pyftpdlib"
if [ -n "$old" ]; then start_mockserver old "$old"; servers="$servers old"; fi
start_mockserver mockserver "$MOCKSERVER"; servers="$servers mockserver"

# sessions NAME SECONDS: runs the client against NAME's server; prints the complete sessions.
sessions() { local port="port_$1"; "$python" "$client" 127.0.0.1 "${!port}" file.bin "$2" "$bytes" | sed -n 's/^sessions=\([0-9]*\).*/\1/p'; }
# user_kernel_ticks PID: the user and kernel CPU PID has used, in clock ticks (/proc/PID/stat).
user_kernel_ticks() { sed 's/.*) //' /proc/"$1"/stat | awk '{ print $12, $13 }'; }
# run NAME: one timed run; prints "SESSIONS CPU_NS USER_TICKS KERNEL_TICKS".
run() {
    local pid="pid_$1" before after n user0 kernel0 user1 kernel1
    read -r user0 kernel0 < <(user_kernel_ticks "${!pid}")
    before=$(cpu_ns "${!pid}")
    n=$(sessions "$1" "$seconds")
    after=$(cpu_ns "${!pid}")
    read -r user1 kernel1 < <(user_kernel_ticks "${!pid}")
    echo "$n $((after - before)) $((user1 - user0)) $((kernel1 - kernel0))"
}
echo "$(basename "$client") (file of $bytes bytes), ${seconds}s per run, ${rounds} alternating rounds: sessions/s, server CPU us/session"
declare -A sessions cpu user kernel round_cpu
for name in $servers; do sessions[$name]=0; cpu[$name]=0; user[$name]=0; kernel[$name]=0; done
for round in $(seq 1 "$rounds"); do
    line="  round=$round"
    for name in $servers; do
        read -r n c u k < <(run "$name")
        sessions[$name]=$((sessions[$name] + n)); cpu[$name]=$((cpu[$name] + c))
        user[$name]=$((user[$name] + u)); kernel[$name]=$((kernel[$name] + k))
        line="$line $name=$((n / seconds))/s,$(awk -v c="$c" -v n="$n" 'BEGIN { printf "%.0f", c / n / 1000 }')us"
        round_cpu[$name]="${round_cpu[$name]:-} $(awk -v c="$c" -v n="$n" 'BEGIN { printf "%.3f", c / n / 1000 }')"
    done
    echo "$line"
done
# The median over rounds of each server's CPU per session against pyftpdlib's in the same round:
# one round disturbed by the machine's load moves it less than it moves the sums below.
# median_ratio LABEL A B: that median for the rounds' figures of A over B.
median_ratio() {
    paste <(tr ' ' '\n' <<<"${round_cpu[$2]}" | sed '/^$/d') <(tr ' ' '\n' <<<"${round_cpu[$3]}" | sed '/^$/d') |
        awk '{ print $1 / $2 }' | sort -n | awk -v label="$1" '{ r[NR] = $1 } END {
            m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
            printf "%s, median of %d rounds: %.3f (rounds %.3f to %.3f)\n", label, NR, m, r[1], r[NR] }'
}
for name in $servers; do
    [ "$name" = pyftpdlib ] || median_ratio "$name cpu per session x pyftpdlib" "$name" pyftpdlib
done
[ -z "$old" ] || median_ratio "new/old cpu per session" mockserver old
for name in $servers; do
    awk -v s="${sessions[$name]}" -v c="${cpu[$name]}" -v t="$((seconds * rounds))" -v name="$name" \
        -v ps="${sessions[pyftpdlib]}" -v pc="${cpu[pyftpdlib]}" \
        'BEGIN { printf "%s sessions/s=%.0f cpu_us/session=%.0f (x pyftpdlib: sessions %.2f, cpu %.2f)\n", name, s / t, c / s / 1000, s / ps, (c / s) / (pc / ps) }'
done
ticks=$(getconf CLK_TCK)
echo "user and kernel CPU per session (/proc/PID/stat, all rounds; ticks of $((1000000 / ticks)) us):"
for name in $servers; do
    awk -v s="${sessions[$name]}" -v u="${user[$name]}" -v k="${kernel[$name]}" -v t="$ticks" -v name="$name" \
        'BEGIN { printf "  %s user_us/session=%.0f kernel_us/session=%.0f\n", name, u * 1e6 / t / s, k * 1e6 / t / s }'
done
if [ -n "$old" ]; then
    awk -v os="${sessions[old]}" -v oc="${cpu[old]}" -v ns="${sessions[mockserver]}" -v nc="${cpu[mockserver]}" \
        'BEGIN { printf "new/old: sessions %.3f, cpu per session %.3f\n", ns / os, (nc / ns) / (oc / os) }'
fi

echo "system calls per session (strace -c -f, 2 s each; strace slows the server, so only counts matter)"
for name in $servers; do
    pid="pid_$name"
    echo "  $name: $(syscalls_per "${!pid}" - sessions "$name" 2 | tr '\n' ' ')"
done
