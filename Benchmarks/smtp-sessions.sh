#!/usr/bin/env bash
# Whole SMTP sessions (greeting, EHLO, MAIL, RCPT, DATA of 10 KB, QUIT; Benchmarks/smtp-sessions.py,
# one session after another) against `mockserver mail` and aiosmtpd (the Python test sink, with a
# handler that takes each message and keeps nothing) in the same run, rounds alternating: sessions
# per second (which the Python client bounds) and each server's own CPU per session (from
# /proc/PID/task/*/schedstat), then system calls per session (strace -c -f, one short run each).
# Each round starts a fresh `mockserver mail` (it keeps every message it takes, as a mock must, so
# that no round pays for the mailbox of the ones before): a warm-up of half a second, then the
# measured run.
# Not a test: it prints figures and exits 0.
#   Benchmarks/smtp-sessions.sh [SECONDS] [ROUNDS] [BYTES]   (defaults 5, 3, 10240)
# $MOCKSERVER names the binary instead of building. Needs python3 with aiosmtpd (pip install
# aiosmtpd; $PYTHON picks the interpreter that has it) and strace.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
bytes=${3:-10240}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
source Benchmarks/server-cpu.sh
python=${PYTHON:-python3}
if [ -z "${MOCKSERVER:-}" ]; then
    swift build -c release --product mockserver >/dev/null
    MOCKSERVER=$(swift build -c release --show-bin-path)/mockserver
fi

"$python" - >"$work/aiosmtpd.out" 2>"$work/aiosmtpd.err" <<'PY' &
import asyncio, logging, socket
from aiosmtpd.smtp import SMTP
logging.disable(logging.CRITICAL)
class Handler:
    async def handle_DATA(self, server, session, envelope):
        return "250 OK"
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(128)
print("port", listener.getsockname()[1], flush=True)
loop = asyncio.new_event_loop()
loop.run_until_complete(loop.create_server(lambda: SMTP(Handler(), hostname="aiosmtpd.test"), sock=listener))
loop.run_forever()
PY
pid_aiosmtpd=$!
for _ in $(seq 1 100); do [ -s "$work/aiosmtpd.out" ] && break; sleep 0.1; done
port_aiosmtpd=$(awk '{print $2}' "$work/aiosmtpd.out")
[ -n "$port_aiosmtpd" ] || { echo "aiosmtpd did not start (pip install aiosmtpd):" >&2; cat "$work/aiosmtpd.err" >&2; exit 1; }

# start_mockserver: a fresh `mockserver mail`; sets port_mockserver and pid_mockserver.
start_mockserver() {
    [ -z "${pid_mockserver:-}" ] || { kill "$pid_mockserver"; wait "$pid_mockserver" 2>/dev/null || true; }
    "$MOCKSERVER" mail >"$work/mockserver.out" 2>/dev/null &
    pid_mockserver=$!
    for _ in $(seq 1 100); do [ -s "$work/mockserver.out" ] && break; sleep 0.1; done
    port_mockserver=$(sed -n 's/^mockserver smtp on .*:\([0-9]*\)$/\1/p' "$work/mockserver.out")
}

# sessions NAME SECONDS: runs the client against NAME's server; prints the complete sessions.
sessions() { local port="port_$1"; "$python" Benchmarks/smtp-sessions.py 127.0.0.1 "${!port}" "$2" "$bytes" | sed -n 's/^sessions=\([0-9]*\).*/\1/p'; }
# run NAME: one timed run after a warm-up; prints "SESSIONS CPU_NS". It runs in a subshell: a fresh
# server must have been started before.
run() {
    local pid before after n
    sessions "$1" 0.5 >/dev/null
    pid="pid_$1"
    before=$(cpu_ns "${!pid}")
    n=$(sessions "$1" "$seconds")
    after=$(cpu_ns "${!pid}")
    echo "$n $((after - before))"
}
servers="aiosmtpd mockserver"
echo "smtp-sessions.py (message of $bytes bytes), ${seconds}s per run, ${rounds} alternating rounds, load $(cut -d' ' -f1-3 /proc/loadavg): sessions/s, server CPU us/session"
declare -A total_sessions total_cpu round_cpu
for name in $servers; do total_sessions[$name]=0; total_cpu[$name]=0; done
for round in $(seq 1 "$rounds"); do
    line="  round=$round"
    for name in $servers; do
        [ "$name" = mockserver ] && start_mockserver
        read -r n c < <(run "$name")
        total_sessions[$name]=$((total_sessions[$name] + n)); total_cpu[$name]=$((total_cpu[$name] + c))
        line="$line $name=$((n / seconds))/s,$(awk -v c="$c" -v n="$n" 'BEGIN { printf "%.0f", c / n / 1000 }')us"
        round_cpu[$name]="${round_cpu[$name]:-} $(awk -v c="$c" -v n="$n" 'BEGIN { printf "%.3f", c / n / 1000 }')"
    done
    echo "$line (load $(cut -d' ' -f1 /proc/loadavg))"
done
# The median over rounds of ours against aiosmtpd's CPU per session in the same round.
paste <(tr ' ' '\n' <<<"${round_cpu[mockserver]}" | sed '/^$/d') <(tr ' ' '\n' <<<"${round_cpu[aiosmtpd]}" | sed '/^$/d') |
    awk '{ print $1 / $2 }' | sort -n | awk '{ r[NR] = $1 } END {
        m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
        printf "mockserver cpu per session x aiosmtpd, median of %d rounds: %.3f (rounds %.3f to %.3f)\n", NR, m, r[1], r[NR] }'
for name in $servers; do
    awk -v s="${total_sessions[$name]}" -v c="${total_cpu[$name]}" -v t="$((seconds * rounds))" -v name="$name" \
        'BEGIN { printf "%s sessions/s=%.0f cpu_us/session=%.1f\n", name, s / t, c / s / 1000 }'
done
echo "system calls per session (strace -c -f, 2 s each; strace slows the server, so only counts matter)"
start_mockserver
for name in $servers; do
    pid="pid_$name"
    echo "  $name: $(syscalls_per "${!pid}" - sessions "$name" 2 | tr '\n' ' ')"
done
