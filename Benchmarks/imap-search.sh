#!/usr/bin/env bash
# SEARCH TEXT over COUNT messages of 2–10 KB (issue 52's benchmark: at least 1.0× Dovecot):
# `mockserver mail --mail-dir` and Dovecot answering imaplib's SEARCH TEXT on the same Maildir on
# tmpfs, same run, and the matcher alone (IMAPSearchContext.matches, in process, optimized). The mail (Benchmarks/imap-search/main.swift, the same every run): 55% 8-bit
# text/plain, 15% quoted-printable, 10% base64, 10% multipart/alternative, 10% multipart/mixed with a
# base64 attachment; one subject in five RFC 2047-encoded; `zebra` in about one message in fifty.
#   Benchmarks/imap-search.sh [COUNT] [ROUNDS]
# Prints, for a word found in some messages and for one in none, each server's first search after
# SELECT and the median of ROUNDS more: MockServer parses a message that needs decoding on its first
# search and keeps it (MailTransaction), Dovecot (no FTS) reads and decodes the messages each time.
# The matcher alone is given cold (fresh candidates) and warm (parsed messages kept).
# $MOCKSERVER names a release binary instead of building one. Needs swiftc, python3 and Dovecot
# (apt-get install dovecot-imapd).
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
"$work/bench" generate "$work/mail/ann@example.com" "$count"
if [ -z "${MOCKSERVER:-}" ]; then
    swift build -c release --product mockserver >/dev/null
    MOCKSERVER=$(swift build -c release --show-bin-path)/mockserver
fi
"$MOCKSERVER" mail --mail-dir "$work/mail" >"$work/mockserver.out" 2>/dev/null &
for _ in $(seq 1 300); do grep -q "imap on" "$work/mockserver.out" 2>/dev/null && break; sleep 0.1; done
port_mockserver=$(sed -n 's/^mockserver imap on .*:\([0-9]*\)$/\1/p' "$work/mockserver.out")

# Dovecot: any password logs in; as root, the mail belongs to dovenull.
user=$( [ "$(id -u)" = 0 ] && echo dovenull || id -un)
mkdir -p "$work/run" "$work/state" "$work/home"
[ "$(id -u)" = 0 ] && chown -R dovenull: "$work/mail" "$work/home"
port_dovecot=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
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
    port = $port_dovecot
  }
}
service anvil {
  chroot =
}
CONF
/usr/sbin/dovecot -F -c "$work/dovecot.conf" 2>"$work/dovecot.err" &
for _ in $(seq 1 100); do grep -q "starting up" "$work/dovecot.log" 2>/dev/null && break; sleep 0.1; done

for word in zebra notthere; do
    for server in dovecot mockserver; do
        port=port_$server
        "$python" - "$server" "${!port}" "$word" "$rounds" <<'PY'
import imaplib, sys, time
server, port, word, rounds = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
client = imaplib.IMAP4("127.0.0.1", port)
client.login("ann@example.com", "x")
client.select("INBOX")  # Dovecot's first SELECT builds its index: not timed
def search():
    start = time.perf_counter()
    _, data = client.search(None, "TEXT", word)
    return (time.perf_counter() - start) * 1000, len(data[0].split())
first, found = search()
times = [search()[0] for _ in range(rounds)]
print("%s SEARCH TEXT %s: %d found, first %.1f ms, then median %.1f ms (rounds: %s)"
      % (server, word, found, first, sorted(times)[len(times) // 2], " ".join("%.1f" % t for t in times)))
client.logout()
PY
    done
    "$work/bench" search "$work/mail/ann@example.com" "$word" "$rounds"
done
