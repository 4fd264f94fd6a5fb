#!/usr/bin/env bash
# Instructions per answer of whole release builds under callgrind (deterministic, so a loaded machine
# does not move them): each binary serves N1, then in a fresh process N2, answers on one connection;
# the figure is the whole process's instructions for N2 less those for N1, over N2 - N1 (start-up
# and the first answers cancel out). Not a test: it prints figures and exits 0.
#   Benchmarks/answer-instructions.sh MODE N1 N2 BINARY...
# MODE: http (keep-alive `GET /` on Benchmarks/h2-hello.json, an endpoints file: the small HTTP/1.1
# answer), h2 (`GET /` on the same file over h2c with prior knowledge, one stream at a time on one
# connection: the small HTTP/2 answer; python3's h2) or noop (`NOOP` on the bundled FTP script's
# control connection: a line reply), or script (keep-alive `GET /` as wrk sends it, on
# Benchmarks/http-hello.json, the one-entry HTTP script that http-wrk.sh serves: the scripted answer).
# N1 500 and N2 2500 measure while the transcript fills; 50500 and 52500 once it is full (its
# 100,000 entries, two an HTTP answer), each entry then replacing the oldest.
# Needs valgrind and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=$1 n1=$2 n2=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/client.py" <<'PY'
import socket, sys
mode, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = socket.create_connection(("127.0.0.1", port))
if mode == "h2":
    import h2.config, h2.connection, h2.events
    c = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
    c.initiate_connection()
    s.sendall(c.data_to_send())
    for i in range(n):
        stream = c.get_next_available_stream_id()
        c.send_headers(stream, [(":method", "GET"), (":path", "/"), (":scheme", "http"), (":authority", "x")], end_stream=True)
        s.sendall(c.data_to_send())
        done = False
        while not done:
            data = s.recv(1 << 20)
            if not data:
                sys.exit("closed")
            for event in c.receive_data(data):
                if isinstance(event, h2.events.DataReceived):
                    c.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                if isinstance(event, h2.events.StreamEnded) and event.stream_id == stream:
                    done = True
            out = c.data_to_send()
            if out:
                s.sendall(out)
elif mode == "noop":
    f = s.makefile("rb")
    f.readline()
    for _ in range(n):
        s.sendall(b"NOOP\r\n")
        if not f.readline().startswith(b"200"):
            sys.exit("no 200")
else:
    host = b"x" if mode == "http" else b"127.0.0.1:%d" % port
    request, buffer = b"GET / HTTP/1.1\r\nHost: " + host + b"\r\n\r\n", b""
    for _ in range(n):
        s.sendall(request)
        while True:
            end = buffer.find(b"\r\n\r\n")
            if end >= 0:
                length = 0
                for line in buffer[:end].decode().split("\r\n")[1:]:
                    name, value = line.split(":", 1)
                    if name.lower() == "content-length":
                        length = int(value)
                if len(buffer) >= end + 4 + length:
                    buffer = buffer[end + 4 + length:]
                    break
            data = s.recv(1 << 20)
            if not data:
                sys.exit("closed")
            buffer += data
s.close()
PY

# total BINARY N: the instructions of a whole process that answered N times.
total() {
    local args=(--port 0)
    case $mode in
        noop) ;;
        script) args+=(Benchmarks/http-hello.json) ;;
        *) args+=(Benchmarks/h2-hello.json) ;;
    esac
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$1" "${args[@]}" >"$work/m.out" 2>"$work/vg.err" &
    local pid=$! port=""
    for _ in $(seq 1 600); do grep -q "listening on" "$work/m.out" 2>/dev/null && break; sleep 0.1; done
    port=$(sed -n 's/^mockserver listening on [^ ]*:\([0-9]*\).*/\1/p' "$work/m.out" | head -1)
    python3 "$work/client.py" "$mode" "$port" "$2"
    kill -INT "$pid"
    wait "$pid" || true
    grep -E '^(summary|totals):' "$work/cg.out" | head -1 | awk '{print $2}'
}

for binary in "$@"; do
    a=$(total "$binary" "$n1")
    b=$(total "$binary" "$n2")
    echo "$binary: $(( (b - a) / (n2 - n1) )) instructions an answer ($mode, $n1 -> $n2)"
done
