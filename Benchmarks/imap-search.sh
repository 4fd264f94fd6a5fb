#!/usr/bin/env bash
# SEARCH TEXT over COUNT messages of 2–10 KB (issue 52's benchmark: at least 1.0× Dovecot): the
# matcher of MockServerMail (IMAPSearchContext.matches, release build, in process: the session that
# will serve it on a socket is not wired yet) beside Dovecot's SEARCH TEXT over imaplib, on the same
# Maildir on tmpfs. The mail (Benchmarks/imap-search/main.swift, the same every run): 55% 8-bit
# text/plain, 15% quoted-printable, 10% base64, 10% multipart/alternative, 10% multipart/mixed with a
# base64 attachment; one subject in five RFC 2047-encoded; `zebra` in about one message in fifty.
#   Benchmarks/imap-search.sh [COUNT] [ROUNDS]
# Prints each side's median milliseconds for a word found in some messages and for one in none.
# MockServer's figure is given cold (each message that needs decoding parsed by the search) and warm
# (parsed messages kept, as MailTransaction keeps them); Dovecot (no FTS) reads and decodes the
# messages on each search. Needs swiftc, python3 and Dovecot (apt-get install dovecot-imapd).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10000}
rounds=${2:-5}
python=${PYTHON:-python3}
shm=$( [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")
work=$(mktemp -d "$shm/imap-search.XXXXXX")
chmod 755 "$work"  # mktemp makes it 0700: Dovecot's mail user must pass through
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
[ -x /usr/sbin/dovecot ] || { echo "Dovecot is not installed (apt-get install dovecot-imapd)" >&2; exit 1; }

# MockServerMail's pure sources and the driver, one optimized module (no package build needed).
swiftc -O -package-name MockServer -module-name MockServerMail -o "$work/bench" \
    Sources/MockServerMail/MIME/*.swift Sources/MockServerMail/IMAP/*.swift Sources/MockServerMail/IMAP/Search/*.swift \
    Sources/MockServerMail/IMAP/Response/*.swift Sources/MockServerMail/Mailbox/MailFlags.swift Benchmarks/imap-search/main.swift
"$work/bench" generate "$work/mail/bench" "$count"

# Dovecot: any password logs in; as root, the mail belongs to dovenull.
user=$( [ "$(id -u)" = 0 ] && echo dovenull || id -un)
mkdir -p "$work/run" "$work/state" "$work/home"
[ "$(id -u)" = 0 ] && chown -R dovenull: "$work/mail" "$work/home"
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/dovecot.conf" <<CONF
base_dir = $work/run
state_dir = $work/state
log_path = $work/dovecot.log
protocols = imap
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
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = $port
  }
}
service anvil {
  chroot =
}
CONF
/usr/sbin/dovecot -F -c "$work/dovecot.conf" 2>"$work/dovecot.err" &
for _ in $(seq 1 100); do grep -q "starting up" "$work/dovecot.log" 2>/dev/null && break; sleep 0.1; done

for word in zebra notthere; do
    "$python" - "$port" "$word" "$rounds" <<'PY'
import imaplib, sys, time
port, word, rounds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
client = imaplib.IMAP4("127.0.0.1", port)
client.login("bench", "x")
client.select("INBOX")  # the first SELECT builds Dovecot's index: not timed
client.search(None, "TEXT", word)  # one warm-up search
times = []
for _ in range(rounds):
    start = time.perf_counter()
    _, data = client.search(None, "TEXT", word)
    times.append((time.perf_counter() - start) * 1000)
print("dovecot SEARCH TEXT %s: %d found, median %.1f ms (rounds: %s)"
      % (word, len(data[0].split()), sorted(times)[len(times) // 2], " ".join("%.1f" % t for t in times)))
client.logout()
PY
    "$work/bench" search "$work/mail/bench" "$word" "$rounds"
done
