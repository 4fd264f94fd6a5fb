#!/usr/bin/env bash
# POP3 retrieval of a whole maildrop (Benchmarks/pop3-retrieve.py: USER, PASS, STAT, RETR 1..N one
# after another, QUIT) from `mockserver mail --mail-dir` and from Dovecot's POP3, both serving the
# same Maildir on tmpfs (/dev/shm): COUNT messages of BYTES bytes in cur/, flagged seen. Rounds
# alternate; each round runs SESSIONS whole retrievals against each server after one warm-up
# retrieval (Dovecot builds its index and UID list then). Figures: messages per second (the same
# Python client bounds both), and each server's CPU per message: user and system time from
# /proc/PID/stat, for Dovecot its master process, every live descendant and the children it has
# reaped (its pop3 and pop3-login processes last one session each).
# Our server reads the seed into memory when it starts; Dovecot reads each message's file at RETR.
# Not a test: it prints figures and exits 0.
#   Benchmarks/pop3-retrieve.sh [COUNT] [BYTES] [ROUNDS] [SESSIONS]   (defaults 1000, 10240, 3, 5)
# $MOCKSERVER names the binary instead of building; KEEP=1 keeps the work folder (Dovecot's log). Needs
# Dovecot (apt-get install dovecot-pop3d).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
bytes=${2:-10240}
rounds=${3:-3}
per_round=${4:-5}
python=${PYTHON:-python3}
shm=$( [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")
work=$(mktemp -d "$shm/pop3-retrieve.XXXXXX")
chmod 755 "$work"  # mktemp makes it 0700: Dovecot's mail user must pass through
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
[ -x /usr/sbin/dovecot ] || { echo "Dovecot is not installed (apt-get install dovecot-pop3d)" >&2; exit 1; }
if [ -z "${MOCKSERVER:-}" ]; then
    swift build -c release --product mockserver >/dev/null
    MOCKSERVER=$(swift build -c release --show-bin-path)/mockserver
fi

# The Maildir: headers, then lines of 76 characters to BYTES bytes in all.
"$python" - "$work/mail/ann@example.com" "$count" "$bytes" <<'PY'
import os, sys
folder, count, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for sub in ("cur", "new", "tmp"):
    os.makedirs(os.path.join(folder, sub))
line = b"x" * 76 + b"\r\n"
for number in range(count):
    header = b"From: bob@example.com\r\nTo: ann@example.com\r\nSubject: message %d\r\n\r\n" % number
    body = header + line * ((size - len(header)) // len(line))
    body += b"y" * (size - len(body) - 2) + b"\r\n"
    with open(os.path.join(folder, "cur", "%d.M%dP1.bench:2,S" % (1700000000 + number, number)), "wb") as file:
        file.write(body)
PY

"$MOCKSERVER" mail --mail-dir "$work/mail" >"$work/mockserver.out" 2>/dev/null &
pid_mockserver=$!
for _ in $(seq 1 100); do grep -q "pop3 on" "$work/mockserver.out" 2>/dev/null && break; sleep 0.1; done
port_mockserver=$(sed -n 's/^mockserver pop3 on .*:\([0-9]*\)$/\1/p' "$work/mockserver.out")

# Dovecot: any password logs in (as ours without --user); as root, the mail belongs to dovenull.
user=$( [ "$(id -u)" = 0 ] && echo dovenull || id -un)
mkdir -p "$work/run" "$work/state" "$work/home"
[ "$(id -u)" = 0 ] && chown -R dovenull: "$work/mail" "$work/home"
port_dovecot=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/dovecot.conf" <<CONF
base_dir = $work/run
state_dir = $work/state
log_path = $work/dovecot.log
protocols = pop3
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
first_valid_uid = 0
mail_uid = $user
mail_gid = $user
mail_location = maildir:$work/mail/%u
passdb {
  driver = static
  args = nopassword=y
}
userdb {
  driver = static
  args = uid=$user gid=$user home=$work/home/%u
}
service pop3-login {
  chroot =
  inet_listener pop3 {
    address = 127.0.0.1
    port = $port_dovecot
  }
}
service anvil {
  chroot =
}
CONF
/usr/sbin/dovecot -F -c "$work/dovecot.conf" 2>"$work/dovecot.err" &
pid_dovecot=$!
for _ in $(seq 1 100); do grep -q "starting up" "$work/dovecot.log" 2>/dev/null && break; sleep 0.1; done

# ticks PID: user and system clock ticks of PID, its live descendants and the children they reaped.
ticks() {
    local pid=$1 total child
    total=$(sed 's/.*) //' /proc/"$pid"/stat | awk '{ print $12 + $13 + $14 + $15 }')
    for child in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
        total=$((total + $(ticks "$child" || echo 0)))
    done
    echo "$total"
}
# retrieve NAME SESSIONS: prints "MESSAGES SECONDS".
retrieve() {
    local port="port_$1"
    "$python" Benchmarks/pop3-retrieve.py 127.0.0.1 "${!port}" ann@example.com "$2" |
        sed -n 's/^messages=\([0-9]*\) bytes=[0-9]* seconds=\([0-9.]*\)$/\1 \2/p'
}
# run NAME: a warm-up retrieval, then SESSIONS measured ones; prints "MESSAGES SECONDS TICKS".
run() {
    local pid="pid_$1" before after n s
    retrieve "$1" 1 >/dev/null
    before=$(ticks "${!pid}")
    read -r n s < <(retrieve "$1" "$per_round")
    sleep 0.3  # Dovecot's master reaps the session's processes
    after=$(ticks "${!pid}")
    echo "$n $s $((after - before))"
}
hz=$(getconf CLK_TCK)
servers="dovecot mockserver"
echo "pop3-retrieve.py: $count messages of $bytes bytes from a Maildir on $shm, $per_round retrievals per run, $rounds alternating rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A messages seconds cpu rates
for name in $servers; do messages[$name]=0; seconds[$name]=0; cpu[$name]=0; done
for round in $(seq 1 "$rounds"); do
    line="  round=$round"
    for name in $servers; do
        read -r n s t < <(run "$name")
        messages[$name]=$((messages[$name] + n)); cpu[$name]=$((cpu[$name] + t))
        seconds[$name]=$(awk -v a="${seconds[$name]}" -v b="$s" 'BEGIN { print a + b }')
        rates[$name]="${rates[$name]:-} $(awk -v n="$n" -v s="$s" 'BEGIN { printf "%.3f", n / s }')"
        line="$line $name=$(awk -v n="$n" -v s="$s" -v t="$t" -v hz="$hz" 'BEGIN { printf "%.0f msg/s,%.1fus/msg", n / s, t * 1e6 / hz / n }')"
    done
    echo "$line (load $(cut -d' ' -f1 /proc/loadavg))"
done
# The median over rounds of ours against Dovecot's rate in the same round: one round that the
# machine's load disturbed moves it less than it moves the totals below.
paste <(tr ' ' '\n' <<<"${rates[mockserver]}" | sed '/^$/d') <(tr ' ' '\n' <<<"${rates[dovecot]}" | sed '/^$/d') |
    awk '{ print $1 / $2 }' | sort -n | awk '{ r[NR] = $1 } END {
        m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
        printf "mockserver rate x Dovecot, median of %d rounds: %.2f (rounds %.2f to %.2f)\n", NR, m, r[1], r[NR] }'
for name in $servers; do
    awk -v n="${messages[$name]}" -v s="${seconds[$name]}" -v t="${cpu[$name]}" -v hz="$hz" -v name="$name" \
        -v dn="${messages[dovecot]}" -v ds="${seconds[dovecot]}" -v dt="${cpu[dovecot]}" \
        'BEGIN { printf "%s messages/s=%.0f cpu_us/message=%.1f (x Dovecot: rate %.2f, cpu %.2f)\n", name, n / s, t * 1e6 / hz / n, (n / s) / (dn / ds), (t / n) / (dt / dn) }'
done
