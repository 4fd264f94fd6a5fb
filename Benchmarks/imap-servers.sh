# Sourced by the IMAP benchmarks (Benchmarks/imap-commands.sh, imap-idle.sh): starts the two servers
# they compare, each on its own copy of one Maildir tree, so that neither sees what the other changes
# (Dovecot renames files as flags change and writes its index beside them).
#   imap_work                  makes the work folder on tmpfs (/dev/shm when writable) as $work, removed
#                              at exit unless KEEP=1, with the servers and their children stopped.
#   imap_build_mockserver      sets $MOCKSERVER, building the release binary unless it names one.
#   imap_start_dovecot TREE [CONF...]
#                              copies TREE (ADDRESS/ Maildirs) and serves it with Dovecot's IMAP on a
#                              free loopback port, any password logging in, CONF lines added to its
#                              configuration; sets $port_dovecot and $pid_dovecot (its master).
#   imap_start_mockserver TREE starts `mockserver mail --mail-dir` on a copy of TREE; sets $pid_mockserver,
#                              $port_mockserver (IMAP, empty when it prints no "mockserver imap on" line:
#                              not served yet) and $smtp_mockserver (SMTP's port).
# Needs Dovecot's IMAP (apt-get install dovecot-imapd) and python3.

export PYTHONDONTWRITEBYTECODE=1  # the clients import Benchmarks/process_tree.py: no __pycache__ left

imap_work() {
    local shm
    shm=$( [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")
    work=$(mktemp -d "$shm/imap-bench.XXXXXX")
    chmod 755 "$work"  # mktemp makes it 0700: Dovecot's mail user must pass through
    trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
    [ -x /usr/sbin/dovecot ] || { echo "Dovecot is not installed (apt-get install dovecot-imapd)" >&2; exit 1; }
}

imap_build_mockserver() {
    if [ -z "${MOCKSERVER:-}" ]; then
        swift build -c release --product mockserver >/dev/null
        MOCKSERVER=$(swift build -c release --show-bin-path)/mockserver
    fi
}

imap_start_dovecot() {
    local tree=$1 user line
    shift
    cp -a "$tree" "$work/mail-dovecot"
    # Any password logs in (as ours without --user); as root, the mail belongs to dovenull.
    user=$( [ "$(id -u)" = 0 ] && echo dovenull || id -un)
    mkdir -p "$work/run" "$work/state" "$work/home"
    [ "$(id -u)" = 0 ] && chown -R dovenull: "$work/mail-dovecot" "$work/home"
    port_dovecot=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    {
        cat <<CONF
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
mail_location = maildir:$work/mail-dovecot/%u
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
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
CONF
        for line in "$@"; do echo "$line"; done
    } >"$work/dovecot.conf"
    /usr/sbin/dovecot -F -c "$work/dovecot.conf" 2>"$work/dovecot.err" &
    pid_dovecot=$!
    for _ in $(seq 1 100); do grep -q "starting up" "$work/dovecot.log" 2>/dev/null && break; sleep 0.1; done
    grep -q "starting up" "$work/dovecot.log" 2>/dev/null || { cat "$work/dovecot.err" "$work/dovecot.log" >&2; exit 1; }
}

imap_start_mockserver() {
    cp -a "$1" "$work/mail-mockserver"
    "$MOCKSERVER" mail --mail-dir "$work/mail-mockserver" >"$work/mockserver.out" 2>"$work/mockserver.err" &
    pid_mockserver=$!
    for _ in $(seq 1 600); do [ "$(wc -l <"$work/mockserver.out")" -ge 2 ] && break; sleep 0.1; done
    sleep 0.2  # the third line, if any, follows the second at once
    smtp_mockserver=$(sed -n 's/^mockserver smtp on .*:\([0-9]*\)$/\1/p' "$work/mockserver.out")
    port_mockserver=$(sed -n '3s/^mockserver imap on .*:\([0-9]*\)$/\1/p' "$work/mockserver.out")
}
