#!/usr/bin/env bash
# Full FTPS sessions per second (Benchmarks/ftps-sessions.py: AUTH TLS, login, PROT P, PASV, RETR of
# 1 KiB over TLS, QUIT) against the bundled ftp.json with --starttls, beside pyftpdlib's
# TLS_FTPHandler with the same ECDSA P-256 certificate, in the same run. Not a test: it prints
# figures and exits 0.
#   Benchmarks/ftps-sessions.sh [SECONDS] [ROUNDS]
# Needs python3 with pyftpdlib and pyOpenSSL (pip install pyftpdlib pyOpenSSL), and openssl.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
rounds=${2:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

mkdir "$work/files"
head -c 1024 /dev/urandom >"$work/files/file.bin"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
swift build -c release --product mockserver >/dev/null
bin=$(swift build -c release --show-bin-path)

"$bin/mockserver" --starttls --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" --files "$work/files" >"$work/m.out" &
env -u MOCKSERVER_SELECTOR python3 - "$work/files" "$work/cert.pem" "$work/key.pem" >"$work/p.out" 2>/dev/null <<'PY' &
import sys, logging
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import TLS_FTPHandler
from pyftpdlib.servers import FTPServer
logging.disable(logging.CRITICAL)
authorizer = DummyAuthorizer(); authorizer.add_anonymous(sys.argv[1])
TLS_FTPHandler.authorizer = authorizer
TLS_FTPHandler.certfile = sys.argv[2]
TLS_FTPHandler.keyfile = sys.argv[3]
server = FTPServer(("127.0.0.1", 0), TLS_FTPHandler)
print("port", server.address[1], flush=True)
server.serve_forever()
PY
for _ in $(seq 1 100); do
    [ -s "$work/m.out" ] && [ -s "$work/p.out" ] && break
    sleep 0.1
done
mport=$(sed -n 's/^mockserver listening on .*:\([0-9]*\).*/\1/p' "$work/m.out")
pport=$(awk '{print $2}' "$work/p.out")

sessions() { python3 Benchmarks/ftps-sessions.py 127.0.0.1 "$1" file.bin "$seconds" 1024 | sed -n 's/.*sessions_per_s=\([0-9]*\).*/\1/p'; }
echo "ftps-sessions.py, ${seconds}s per run, ${rounds} alternating rounds (sessions/s)"
ptotal=0; mtotal=0
for round in $(seq 1 "$rounds"); do
    p=$(sessions "$pport"); m=$(sessions "$mport")
    echo "  round=$round pyftpdlib=$p mockserver=$m"
    ptotal=$((ptotal + p)); mtotal=$((mtotal + m))
done
awk -v p="$ptotal" -v m="$mtotal" 'BEGIN { printf "pyftpdlib=%.0f mockserver=%.0f ratio=%.2f\n", p, m, m / p }'
