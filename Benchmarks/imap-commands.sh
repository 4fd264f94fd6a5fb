#!/usr/bin/env bash
# Three IMAP commands over whole folders, `mockserver mail --mail-dir` against Dovecot's IMAP, both on
# copies of one Maildir tree on tmpfs (/dev/shm), written once per run (Benchmarks/imap-maildir.py):
#   envelope  FETCH 1:* (FLAGS ENVELOPE)   a folder of COUNT messages of about 2 KB, headers varied;
#   body      FETCH 1:* BODY[]             a folder of 1,000 messages of 10 KB;
#   search    SEARCH TEXT "needle"         the first folder, 8 of whose messages hold the word.
# Each is timed by Benchmarks/imap-commands.py: one connection, a warm-up command (Dovecot fills its
# index cache then; BODY[] sets \Seen then), then REPEATS commands one after another; the figure is the
# median over them of the client's time per command (send to tagged OK, answer read and literals
# skipped by the same Python client) and of the server's CPU over it (/proc/PID/task/*/schedstat: for
# Dovecot its master, this connection's imap process and every other live process of its tree).
# Rounds alternate the servers (Dovecot first) and benchmarks; the summary is the median over rounds
# and the ratios: speed x Dovecot is Dovecot's time over ours (above 1: ours is faster), cpu x Dovecot
# is our CPU over Dovecot's (below 1: ours spends less).
# Our half runs once `mockserver mail` prints "mockserver imap on HOST:PORT" as its third line;
# until then the script says "not yet" and measures Dovecot alone. Not a test: it prints figures and
# exits 0.
#   Benchmarks/imap-commands.sh [ROUNDS] [REPEATS] [COUNT]   (defaults 3, 5, 10000)
# $MOCKSERVER names the binary instead of building; KEEP=1 keeps the work folder (Dovecot's log);
# BENCHES="envelope search" runs those alone. A server that sends nothing for TIMEOUT seconds (60) in
# the middle of an answer fails that measure, which the summary leaves out.
# Needs Dovecot's IMAP (apt-get install dovecot-imapd).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
repeats=${2:-5}
count=${3:-10000}
source Benchmarks/imap-servers.sh
imap_work
imap_build_mockserver

began=$(date +%s)
python3 Benchmarks/imap-maildir.py "$work/seed/envelope@example.com" "$count" 2048 8
python3 Benchmarks/imap-maildir.py "$work/seed/body@example.com" 1000 10240
imap_start_dovecot "$work/seed"
imap_start_mockserver "$work/seed"
servers="dovecot mockserver"
if [ -z "$port_mockserver" ]; then
    echo "mockserver: not yet (its third line is not \"mockserver imap on HOST:PORT\"): Dovecot alone"
    servers=dovecot
fi

benches=${BENCHES:-envelope body search}
declare -A users=([envelope]=envelope@example.com [body]=body@example.com [search]=envelope@example.com)
declare -A commands=([envelope]="FETCH 1:* (FLAGS ENVELOPE)" [body]="FETCH 1:* BODY[]" [search]='SEARCH TEXT "needle"')
echo "imap-commands: envelope and search over $count messages of ~2 KB, body over 1000 of 10 KB, Maildirs on $work," \
    "$repeats commands per measure, $rounds alternating rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
results="$work/results"
for round in $(seq 1 "$rounds"); do
    for bench in $benches; do
        for name in $servers; do
            port="port_$name" pid="pid_$name"
            python3 Benchmarks/imap-commands.py 127.0.0.1 "${!port}" "${users[$bench]}" INBOX "$repeats" "${!pid}" "${commands[$bench]}" |
                sed "s/^/round=$round bench=$bench server=$name /" >>"$results" || echo "  round $round: $bench on $name failed"
        done
    done
    echo "  round $round done (load $(cut -d' ' -f1 /proc/loadavg))"
done

python3 - "$results" "$servers" "$benches" <<'PY'
import statistics, sys
rows = [dict(field.split("=", 1) for field in line.split()) for line in open(sys.argv[1])]
servers = sys.argv[2].split()
for bench in sys.argv[3].split():
    medians = {}
    for name in servers:
        mine = [row for row in rows if row["bench"] == bench and row["server"] == name]
        if not mine:
            continue
        by_round = {}
        for row in mine:
            by_round.setdefault(row["round"], []).append(row)
        # The median of each round's repeats, then the median over rounds.
        time = statistics.median(statistics.median(float(r["seconds"]) for r in rs) for rs in by_round.values())
        cpu = statistics.median(statistics.median(int(r["cpu_ns"]) for r in rs) for rs in by_round.values())
        client = statistics.median(statistics.median(int(r["client_cpu_ns"]) for r in rs) for rs in by_round.values())
        per_round = " ".join("%.1f" % (1e3 * statistics.median(float(r["seconds"]) for r in rs)) for rs in by_round.values())
        medians[name] = (time, cpu)
        print(f"{bench:8} {name:10} ms/command={1e3 * time:.1f} server_cpu_ms/command={cpu / 1e6:.1f} client_cpu_ms={client / 1e6:.1f} "
              f"bytes={mine[-1]['bytes']} untagged={mine[-1]['untagged']} found={mine[-1]['found']} (rounds, ms: {per_round})")
    if "mockserver" in medians and "dovecot" in medians:
        (dt, dc), (mt, mc) = medians["dovecot"], medians["mockserver"]
        print(f"{bench:8} speed x Dovecot (Dovecot's time / ours) {dt / mt:.2f}, cpu x Dovecot (ours / Dovecot's) {mc / dc:.2f}")
PY
echo "imap-commands: $(( $(date +%s) - began )) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
