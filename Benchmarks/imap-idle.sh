#!/usr/bin/env bash
# CONNECTIONS clients in IDLE on one INBOX (100 messages, Benchmarks/imap-maildir.py), one message
# delivered, and the time until all of them have seen `* n EXISTS` (the goal: within one second), with
# the server's memory per idling connection (Benchmarks/imap-idle.py): `mockserver mail --mail-dir`
# against Dovecot's IMAP, on copies of one Maildir tree on tmpfs (/dev/shm).
# Delivery: to ours by SMTP; to Dovecot by dovecot-lda (DOVECOT_DELIVERY=maildir: a file renamed into
# the Maildir's new/, which each idling imap process notices and syncs itself).
# Dovecot runs one imap process per connection (its default); so that it takes CONNECTIONS of them
# from one address its per-user-and-address connection limit (10) and the process limits are raised.
# Each imap process watches the folder with its own inotify instance: the kernel allows
# /proc/sys/fs/inotify/max_user_instances of them per user (128 by default), and past that Dovecot logs
# a warning and checks the folder every mailbox_idle_check_interval (30 s) instead; the script prints
# the limit and the number of such warnings; RAISE_INOTIFY=N sets that limit to N for the run, when the
# file is writable, and puts it back at exit. DOVECOT_IMAP_CLIENTS=N lets each imap process serve N
# connections (Dovecot's client_limit, with service_count 0 rather than 1): a tenth of the processes
# and of the memory with N=10, but not of the inotify instances (session 31: 99 of 1,000 told within a
# second at the default limit, as with one process each). DOVECOT_CONF adds lines to Dovecot's
# configuration.
# Rounds alternate the servers, Dovecot first; each round opens every connection anew. Memory per
# connection: the first round's figure (a process keeps the pages it freed, so ours shows about 0 in
# later rounds); Dovecot's RSS counts its shared pages once per process, its PSS divides them.
# Our half runs once `mockserver mail` prints "mockserver imap on HOST:PORT" as its third line; until
# then the script says "not yet" and measures Dovecot alone. Not a test: it prints figures and exits 0.
#   Benchmarks/imap-idle.sh [CONNECTIONS] [ROUNDS]   (defaults 1000, 2)
# $MOCKSERVER names the binary instead of building; KEEP=1 keeps the work folder (Dovecot's log);
# TIMEOUT (45) is how long a round waits for the last EXISTS, in seconds. Needs Dovecot's IMAP
# (apt-get install dovecot-imapd).
set -euo pipefail
cd "$(dirname "$0")/.."
connections=${1:-1000}
rounds=${2:-2}
source Benchmarks/imap-servers.sh
imap_work
imap_build_mockserver
ulimit -n "$(ulimit -Hn)"  # the client holds every connection open
inotify=/proc/sys/fs/inotify/max_user_instances
if [ -n "${RAISE_INOTIFY:-}" ] && [ -w "$inotify" ]; then
    # Raised for this run only (a system setting: restored at exit, with the work folder removed).
    saved_inotify=$(cat "$inotify")
    echo "$RAISE_INOTIFY" >"$inotify"
    trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; echo "$saved_inotify" >"$inotify"; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fi

began=$(date +%s)
user=idle@example.com
python3 Benchmarks/imap-maildir.py "$work/seed/$user" 100 2048
limit=$((connections + 100))
clients=${DOVECOT_IMAP_CLIENTS:-1}
imap_start_dovecot "$work/seed" "protocol imap {" "  mail_max_userip_connections = $limit" "}" \
    "service imap {" "  process_limit = $limit" "  client_limit = $clients" "  service_count = $( [ "$clients" = 1 ] && echo 1 || echo 0)" "}" "default_client_limit = $((limit * 2))" ${DOVECOT_CONF:+"$DOVECOT_CONF"}
imap_start_mockserver "$work/seed"
servers="dovecot mockserver"
if [ -z "$port_mockserver" ]; then
    echo "mockserver: not yet (its third line is not \"mockserver imap on HOST:PORT\"): Dovecot alone"
    servers=dovecot
fi
if [ "${DOVECOT_DELIVERY:-lda}" = maildir ]; then
    delivery_dovecot=(maildir "$work/mail-dovecot/$user")
else
    delivery_dovecot=(command /usr/lib/dovecot/dovecot-lda -c "$work/dovecot.conf" -d "$user" -f bench@example.org)
fi
delivery_mockserver=(smtp "$smtp_mockserver")

echo "imap-idle: $connections connections in IDLE, one delivery, $rounds alternating rounds, Maildirs on $work," \
    "inotify max_user_instances $(cat "$inotify"), load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
    for name in $servers; do
        port="port_$name" pid="pid_$name" delivery="delivery_$name[@]"
        python3 Benchmarks/imap-idle.py 127.0.0.1 "${!port}" "$user" "$connections" "${!pid}" "${!delivery}" |
            sed "s/^/  round=$round $name /"
        sleep 2  # the sessions end
    done
    echo "  round $round done (load $(cut -d' ' -f1 /proc/loadavg))"
done
warnings=$(grep -c "notify instance limit" "$work/dovecot.log" || true)
echo "dovecot: $warnings inotify-limit warnings in its log"
echo "imap-idle: $(( $(date +%s) - began )) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
