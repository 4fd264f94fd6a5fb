#!/usr/bin/env bash
# Requests per second with wrk through `mockserver record` (a recording reverse proxy writing an
# endpoints file) to an nginx origin, beside the peers doing the same job in the same run, rounds
# alternating: nginx as a reverse proxy (its own process, 1 worker, upstream keepalive) and
# mitmdump in reverse mode writing its flows; keep-alive on 1 and 64 connections. Then 10,000
# distinct requests recorded, with the recorder's resident memory before and after beside the size
# of what it wrote; before that, four more runs on the same recorder, to show whether its rate or its
# CPU per request drifts as it keeps recording. Beside each rate, the server's own CPU per request
# (/proc/PID/task/*/schedstat; nginx's worker), which a shared machine disturbs less, split into user
# and system time (/proc/PID/stat): at 64 connections both proxies fill a core, so the split shows
# where one spends more than the other. Not a test: it
# prints figures and exits 0.
#   Benchmarks/record-wrk.sh [SECONDS] [ROUNDS]          ($MOCKSERVER names a binary instead of building)
# Needs wrk, nginx and curl (apt-get install wrk nginx curl); mitmdump from $MITMDUMP, PATH, or a venv
# it makes in .build/bench-venv (pip install mitmproxy); without PyPI that peer is skipped, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; for p in "$work"/nginx.pid "$work"/proxy/nginx.pid; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null; done; rm -rf "$work"' EXIT

if [ -z "${MOCKSERVER:-}" ]; then
    swift build -c release --product mockserver >/dev/null
    MOCKSERVER=$(swift build -c release --show-bin-path)/mockserver
fi
source Benchmarks/nginx.sh
start_nginx "$work" "location / { return 200 \"ok\\n\"; }"
origin=$nport
mkdir "$work/proxy"
start_nginx "$work/proxy" "location / { proxy_pass http://origin; proxy_http_version 1.1; proxy_set_header Connection \"\"; }" "" \
    "upstream origin { server 127.0.0.1:$origin; keepalive 64; }"
pport=$nport
proxy_worker=""
for _ in $(seq 1 50); do proxy_worker=$(pgrep -P "$(cat "$work/proxy/nginx.pid")" | head -n 1) && break; sleep 0.1; done
source Benchmarks/server-cpu.sh
"$MOCKSERVER" record --upstream "http://127.0.0.1:$origin" --endpoints "$work/recorded.json" >"$work/m.out" &
recorder=$!
for _ in $(seq 1 50); do [ -s "$work/m.out" ] && break; sleep 0.1; done
mport=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m.out")

mitmdump=${MITMDUMP:-$(command -v mitmdump || true)}
if [ -z "$mitmdump" ]; then
    if [ ! -x .build/bench-venv/bin/mitmdump ]; then
        [ -x .build/bench-venv/bin/pip ] || python3 -m venv --system-site-packages .build/bench-venv
        .build/bench-venv/bin/pip install -q 'mitmproxy>=10' >/dev/null 2>&1 || true
    fi
    if [ -x .build/bench-venv/bin/mitmdump ]; then mitmdump=.build/bench-venv/bin/mitmdump; fi
fi
tport=""
if [ -n "$mitmdump" ]; then
    tport=$(free_port)
    "$mitmdump" -q --mode "reverse:http://127.0.0.1:$origin" --listen-host 127.0.0.1 --listen-port "$tport" -w "$work/flows" >/dev/null 2>&1 &
    for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$tport/" && break; sleep 0.1; done
    curl -s -o /dev/null "http://127.0.0.1:$tport/" || { echo "mitmdump skipped: $mitmdump did not start"; tport=""; }
else
    echo "mitmdump skipped: not installed and PyPI unreachable (pip install mitmproxy)"
fi

# rps THREADS CONNS PORT [PID]: requests/s of one wrk run; with PID, also that server's CPU per request
# and its user and system shares (as "RATE CPU_US USER_US SYSTEM_US"; the shares from clock ticks).
ticks=$(getconf CLK_TCK)
rps() {
    local out before after ticks_before ticks_after
    [ -n "${4:-}" ] && { before=$(cpu_ns "$4"); ticks_before=$(user_sys_ticks "$4"); }
    out=$(wrk -t"$1" -c"$2" -d"${seconds}s" "http://127.0.0.1:$3/")
    [ -n "${4:-}" ] && { after=$(cpu_ns "$4"); ticks_after=$(user_sys_ticks "$4"); }
    grep -E "Socket errors|Non-2xx" <<<"$out" | sed "s/^/    port $3: /" >&2 || true
    awk -v b="${before:-}" -v a="${after:-}" -v tb="${ticks_before:-}" -v ta="${ticks_after:-}" -v hz="$ticks" '
        /requests in/ { n = $1 } /Requests\/sec/ { r = $2 }
        END { printf "%.0f", r
              if (b != "") { split(tb, x, " "); split(ta, y, " ")
                             printf " %.1f %.1f %.1f", (a - b) / n / 1000, (y[1] - x[1]) * 1e6 / hz / n, (y[2] - x[2]) * 1e6 / hz / n }
              printf "\n" }' <<<"$out"
}
echo "wrk through a proxy to an nginx origin: mockserver record (endpoints), nginx proxy_pass, mitmdump reverse (-w flows), ${seconds}s per run, ${rounds} alternating rounds (requests/s)"
for load in "1 1" "2 64"; do
    set -- $load
    ntotal=0; mtotal=0; ttotal=0; ncpu=(); mcpu=(); nuser=(); nsys=(); muser=(); msys=()
    for round in $(seq 1 "$rounds"); do
        read -r n nc nu ns < <(rps "$1" "$2" "$pport" "$proxy_worker"); read -r m mc mu ms < <(rps "$1" "$2" "$mport" "$recorder"); t=0
        [ -n "$tport" ] && t=$(rps "$1" "$2" "$tport")
        echo "  -t$1 -c$2 round=$round nginx-proxy=$n (${nc} us/request: user ${nu}, system ${ns}) recorder=$m (${mc} us/request: user ${mu}, system ${ms}) mitmdump=$t"
        ntotal=$((ntotal + n)); mtotal=$((mtotal + m)); ttotal=$((ttotal + t)); ncpu+=("$nc"); mcpu+=("$mc")
        nuser+=("$nu"); nsys+=("$ns"); muser+=("$mu"); msys+=("$ms")
    done
    awk -v n="$ntotal" -v m="$mtotal" -v p="$ttotal" -v t="$1" -v c="$2" -v nc="${ncpu[*]}" -v mc="${mcpu[*]}" \
        -v nu="${nuser[*]}" -v ns="${nsys[*]}" -v mu="${muser[*]}" -v ms="${msys[*]}" '
        function median(list,   v, k, i, j, x) { k = split(list, v, " ")
            for (i = 2; i <= k; i++) { x = v[i]; for (j = i - 1; j > 0 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
            return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2 }
        BEGIN {
        printf "-t%d -c%d nginx-proxy=%.0f recorder=%.0f mitmdump=%.0f recorder/nginx-proxy=%.2f", t, c, n, m, p, m / n
        if (p > 0) printf " recorder/mitmdump=%.1f", m / p
        printf "; CPU us/request, medians: nginx-proxy=%.1f recorder=%.1f (recorder/nginx-proxy=%.2f)", median(nc), median(mc), median(mc) / median(nc)
        printf "; user/system us/request, medians: nginx-proxy=%.1f/%.1f recorder=%.1f/%.1f\n", median(nu), median(ns), median(mu), median(ms) }'
done

echo "the same recorder, four more -t1 -c1 runs in a row (requests/s, CPU us/request, RSS KiB):"
for run in 1 2 3 4; do
    read -r m mc _ < <(rps 1 1 "$mport" "$recorder")
    echo "  run=$run recorder=$m (${mc} us/request) rss=$(awk '/VmRSS/ {print $2}' "/proc/$recorder/status")"
done

rss() { awk '/VmRSS/ {print $2}' "/proc/$recorder/status"; }
before=$(rss)
# 10,000 distinct requests (each its own query), 100 per curl process, keep-alive within each.
for batch in $(seq 0 99); do
    urls=()
    for i in $(seq 0 99); do urls+=("http://127.0.0.1:$mport/item?n=$((batch * 100 + i))"); done
    curl -s "${urls[@]}" >/dev/null
done
after=$(rss)
kill -TERM "$recorder"; wait "$recorder" 2>/dev/null || true
endpoints=$(grep -c '"api": "get /item' "$work/recorded.json" || true)
size=$(( $(wc -c <"$work/recorded.json") / 1024 ))
echo "10,000 distinct requests recorded: $endpoints endpoints, file ${size} KiB; recorder RSS ${before} KiB before, ${after} KiB after (+$((after - before)) KiB)"
