#!/usr/bin/env bash
# Memory per idle connection and per waiting HTTP/2 stream (issue 48): a release mockserver beside
# nginx (one worker) and, for the listeners nginx lacks, the peer a user would pick (Python's
# websockets, pyftpdlib), each on a fresh process in the same run. Each case first has 100 connections
# do the exchange and close (a warm-up), reads the server's memory, opens COUNT connections that each
# do one small exchange and then idle, and reads it again once it settles
# (Benchmarks/idle-clients.py). RSS from /proc/PID/status; Pss and Private_Dirty from
# /proc/PID/smaps_rollup (pages the process alone has written: the most honest of the three).
# Not a test: it prints figures and exits 0.
#   Benchmarks/idle-memory.sh [COUNT] [CASES] [WARMUP]   (COUNT default 10000; CASES default
#                                       "h1 h2 h2wait ws ftp tls smtp"; WARMUP default 100 connections;
#                                       30000 fills the mock's transcript to its 100,000-entry limit
#                                       first, so that its growth is not counted)
#   $MOCKSERVER names a binary instead of building; $MOCKSERVER_BEFORE names a second one (a build of
#   main, say) measured in the same run beside it.
# Cases: h1 (a keep-alive GET, then idle), h2 (h2c with prior knowledge: preface, SETTINGS, one GET),
# h2wait (100 connections whose window is 0, then 99 more GETs on each: per waiting stream), ws (a
# WebSocket handshake and one echo), ftp (the greeting and a NOOP on the bundled FTP script), tls
# (HTTPS: a handshake and a keep-alive GET), smtp (`mockserver mail`: the greeting and EHLO, beside
# aiosmtpd, the Python test sink). The mock serves Benchmarks/h2-hello.json (an endpoints
# file: HTTP/1.1 and h2c) for h1, h2, h2wait and tls, Benchmarks/websocket-echo.json for ws and its
# bundled default script for ftp.
# Needs nginx, openssl and python3 with websockets, pyftpdlib and aiosmtpd (apt-get install nginx; pip
# install websockets pyftpdlib aiosmtpd; a missing peer is skipped, saying so). The hard descriptor limit must be
# above COUNT + 100 (the script raises the soft one).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10000}
cases=${2:-h1 h2 h2wait ws ftp tls smtp}
warmup=${3:-100}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
ulimit -n "$(ulimit -Hn)"
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -le $((count + 200)) ]; then
    echo "the descriptor limit $(ulimit -n) is too low for $count connections: raise the hard limit (ulimit -Hn)" >&2
    exit 1
fi

if [ -z "${MOCKSERVER:-}" ]; then
    swift build -c release --product mockserver >/dev/null
    MOCKSERVER=$(swift build -c release --show-bin-path)/mockserver
fi
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
    -addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
source Benchmarks/nginx.sh

# nginx with room for the connections; `http2 on;` from 1.25.1, `listen ... http2` before.
# start_big_nginx LISTEN SERVER-DIRECTIVES: sets $nport and $npid (the worker).
start_big_nginx() {
    local listen=$1 directives=$2
    nport=$(free_port)
    cat >"$work/nginx.conf" <<CONF
worker_processes 1;
worker_rlimit_nofile $((count * 2 + 1000));
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections $((count * 2 + 1000)); }
http {
    access_log off;
    keepalive_requests 1000000;
    keepalive_timeout 600s;
    http2_idle_timeout 600s;
    server {
        listen 127.0.0.1:$nport $listen;
        $directives
        location / { return 200 "ok\n"; }
    }
}
CONF
    nginx -c "$work/nginx.conf" -p "$work" 2>/dev/null
    for _ in $(seq 1 50); do [ -s "$work/nginx.pid" ] && npid=$(pgrep -P "$(cat "$work/nginx.pid")" | head -1) && [ -n "$npid" ] && break; sleep 0.1; done
}
stop_nginx() { kill "$(cat "$work/nginx.pid")"; while [ -s "$work/nginx.pid" ] && kill -0 "$(cat "$work/nginx.pid")" 2>/dev/null; do sleep 0.1; done; rm -f "$work/nginx.pid"; }
nginx_h2() {
    if printf '%s\n' "1.25.1" "$(nginx -v 2>&1 | sed 's/.*nginx\///')" | sort -V -C; then echo "http2 on;"; else echo "http2"; fi
}

# start_mock BINARY ARGS...: sets $mport and $mpid.
start_mock() {
    local binary=$1
    shift
    "$binary" "$@" >"$work/m.out" 2>/dev/null &
    mpid=$!
    for _ in $(seq 1 100); do [ -s "$work/m.out" ] && break; sleep 0.1; done
    # `mockserver mail` prints its SMTP listener first.
    mport=$(sed -n 's/^mockserver \(listening\|smtp\) on [^ ]*:\([0-9]*\).*/\2/p' "$work/m.out" | head -1)
}
stop_pid() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

# start_python_peer NAME CODE: a Python server that prints "port N"; sets $pport and $ppid.
start_python_peer() {
    python3 -c "$2" >"$work/p.out" 2>/dev/null &
    ppid=$!
    pport=""
    for _ in $(seq 1 100); do [ -s "$work/p.out" ] && break; kill -0 "$ppid" 2>/dev/null || break; sleep 0.1; done
    pport=$(awk '/^port/ {print $2}' "$work/p.out")
}
WEBSOCKETS_PEER='
import asyncio
from websockets.asyncio.server import serve
async def echo(websocket):
    async for message in websocket:
        await websocket.send(message)
async def main():
    async with serve(echo, "127.0.0.1", 0, compression=None, ping_interval=None) as server:
        print("port", server.sockets[0].getsockname()[1], flush=True)
        await asyncio.get_running_loop().create_future()
asyncio.run(main())'
PYFTPDLIB_PEER='
import logging, os, tempfile
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer
logging.disable(logging.CRITICAL)
authorizer = DummyAuthorizer()
authorizer.add_anonymous(tempfile.mkdtemp())
FTPHandler.authorizer = authorizer
server = FTPServer(("127.0.0.1", 0), FTPHandler)
server.max_cons = 0
server.max_cons_per_ip = 0
print("port", server.socket.getsockname()[1], flush=True)
server.serve_forever()'
AIOSMTPD_PEER='
import asyncio, logging, socket
from aiosmtpd.smtp import SMTP
logging.disable(logging.CRITICAL)
class Handler:
    async def handle_DATA(self, server, session, envelope):
        return "250 OK"
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(4096)
print("port", listener.getsockname()[1], flush=True)
loop = asyncio.new_event_loop()
loop.run_until_complete(loop.create_server(lambda: SMTP(Handler(), hostname="aiosmtpd.test"), sock=listener))
loop.run_forever()'

# measure LABEL MODE PORT PID [COUNT STREAMS]: one line of figures.
measure() {
    local label=$1 mode=$2 port=$3 pid=$4 n=${5:-$count} streams=${6:-}
    local line
    if ! line=$(python3 Benchmarks/idle-clients.py "$mode" "$port" "$pid" "$n" "$streams" "$warmup" 2>"$work/client.err"); then
        echo "  $label: failed ($(tail -1 "$work/client.err"))"
        return
    fi
    echo "$line" | awk -v label="$label" '{
        for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        split(v["rss_kb"], r, ":"); split(v["dirty_kb"], d, ":")
        printf "  %-22s RSS %6.1f -> %6.1f MiB  Private_Dirty %6.1f -> %6.1f MiB  per unit: RSS %.2f KiB, Pss %.2f KiB, Private_Dirty %.2f KiB\n",
            label, r[1] / 1024, r[2] / 1024, d[1] / 1024, d[2] / 1024, v["per_unit_rss"], v["per_unit_pss"], v["per_unit_dirty"] }'
    echo "$label $line" >>"$work/results"
}

mocks=("after:$MOCKSERVER")
[ -n "${MOCKSERVER_BEFORE:-}" ] && mocks=("before:$MOCKSERVER_BEFORE" "${mocks[@]}")
: >"$work/results"
for case in $cases; do
    case $case in
    h1|h2|tls)
        mode=$case
        echo "$count idle connections, $case"
        for entry in "${mocks[@]}"; do
            if [ "$case" = tls ]; then
                start_mock "${entry#*:}" --tls --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" Benchmarks/h2-hello.json
            else
                start_mock "${entry#*:}" Benchmarks/h2-hello.json
            fi
            measure "mockserver(${entry%%:*})" "$mode" "$mport" "$mpid"
            stop_pid "$mpid"
        done
        case $case in
        h1) start_big_nginx "" "" ;;
        h2) start_big_nginx "$( [ "$(nginx_h2)" = http2 ] && echo http2)" "$( [ "$(nginx_h2)" != http2 ] && nginx_h2)" ;;
        tls) start_big_nginx ssl "ssl_certificate $work/cert.pem; ssl_certificate_key $work/key.pem; ssl_protocols TLSv1.3;" ;;
        esac
        measure nginx "$mode" "$nport" "$npid"
        stop_nginx
        ;;
    h2wait)
        conns=$(( count / 100 > 0 ? count / 100 : 1 ))
        echo "$conns connections x 99 further streams waiting on a zero window, per waiting stream"
        for entry in "${mocks[@]}"; do
            start_mock "${entry#*:}" Benchmarks/h2-hello.json
            measure "mockserver(${entry%%:*})" h2wait "$mport" "$mpid" "$conns" 100
            stop_pid "$mpid"
        done
        start_big_nginx "$( [ "$(nginx_h2)" = http2 ] && echo http2)" "$( [ "$(nginx_h2)" != http2 ] && nginx_h2)"
        measure nginx h2wait "$nport" "$npid" "$conns" 100
        stop_nginx
        ;;
    ws)
        echo "$count idle connections, WebSocket (handshake and one echo)"
        for entry in "${mocks[@]}"; do
            start_mock "${entry#*:}" Benchmarks/websocket-echo.json
            measure "mockserver(${entry%%:*})" ws "$mport" "$mpid"
            stop_pid "$mpid"
        done
        start_python_peer websockets "$WEBSOCKETS_PEER"
        if [ -n "$pport" ]; then measure python-websockets ws "$pport" "$ppid"; else echo "  python-websockets skipped: pip install websockets"; fi
        stop_pid "$ppid"
        ;;
    ftp)
        echo "$count idle connections, FTP control (greeting and NOOP)"
        for entry in "${mocks[@]}"; do
            start_mock "${entry#*:}"
            measure "mockserver(${entry%%:*})" ftp "$mport" "$mpid"
            stop_pid "$mpid"
        done
        start_python_peer pyftpdlib "$PYFTPDLIB_PEER"
        if [ -n "$pport" ]; then measure pyftpdlib ftp "$pport" "$ppid"; else echo "  pyftpdlib skipped: pip install pyftpdlib"; fi
        stop_pid "$ppid"
        ;;
    smtp)
        echo "$count idle connections, SMTP (greeting and EHLO)"
        for entry in "${mocks[@]}"; do
            start_mock "${entry#*:}" mail
            measure "mockserver(${entry%%:*})" smtp "$mport" "$mpid"
            stop_pid "$mpid"
        done
        start_python_peer aiosmtpd "$AIOSMTPD_PEER"
        if [ -n "$pport" ]; then measure aiosmtpd smtp "$pport" "$ppid"; else echo "  aiosmtpd skipped: pip install aiosmtpd"; fi
        stop_pid "$ppid"
        ;;
    *) echo "unknown case $case" >&2 ;;
    esac
done

# The ratios to nginx's Private_Dirty per unit (for ws, ftp and smtp, to nginx's HTTP/1.1 figure when
# that case ran: nginx has no such listener).
echo "per unit, Private_Dirty KiB (ratio to nginx; ws, ftp and smtp against nginx's h1 figure)"
awk '{
    label = $1; mode = $2
    for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "per_unit_dirty") d = kv[2] }
    value[mode, label] = d; if (!(mode in seen)) { seen[mode] = 1; order[++n] = mode }
    if (!((mode, label) in listed)) { listed[mode, label] = 1; labels[mode] = labels[mode] " " label }
} END {
    for (i = 1; i <= n; i++) {
        mode = order[i]; ref = ((mode, "nginx") in value) ? value[mode, "nginx"] : value["h1", "nginx"]
        split(substr(labels[mode], 2), ls, " ")
        line = sprintf("  %-7s", mode)
        for (j = 1; j in ls; j++) {
            line = line sprintf("  %s=%.2f", ls[j], value[mode, ls[j]])
            if (ls[j] != "nginx" && ref > 0) line = line sprintf(" (%.2fx)", value[mode, ls[j]] / ref)
        }
        print line
    }
}' "$work/results"
