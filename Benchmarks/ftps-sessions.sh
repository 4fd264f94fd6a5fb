#!/usr/bin/env bash
# Full explicit FTPS sessions (Benchmarks/ftps-sessions.py: AUTH TLS, login, PROT P, PASV, RETR of
# 16 KiB over TLS, QUIT) against the bundled ftp.json with --starttls, beside pyftpdlib's
# TLS_FTPHandler (pyOpenSSL) with the same ECDSA P-256 certificate, in the same run, rounds
# alternating: sessions per second and each server's CPU per session, then system calls per session.
# It is ftp-sessions.sh with FTP_TLS=1; the arguments and variables are that script's.
# Not a test: it prints figures and exits 0.
#   Benchmarks/ftps-sessions.sh [SECONDS] [ROUNDS] [OLD_MOCKSERVER]
# Needs openssl, strace and python3 with pyftpdlib and pyOpenSSL: without $PYTHON it makes a venv in
# .build/bench-venv (pip install pyftpdlib pyOpenSSL) when the system python3 lacks them.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PYTHON:-}" ]; then
    PYTHON=python3
    if ! python3 -c 'import pyftpdlib, OpenSSL' 2>/dev/null; then
        [ -x .build/bench-venv/bin/python ] || python3 -m venv --system-site-packages .build/bench-venv
        .build/bench-venv/bin/python -c 'import pyftpdlib, OpenSSL' 2>/dev/null ||
            .build/bench-venv/bin/pip install -q pyftpdlib pyOpenSSL ||
            { echo "skipped: pyftpdlib and pyOpenSSL are not installed and PyPI is unreachable" >&2; exit 0; }
        PYTHON=.build/bench-venv/bin/python
    fi
fi
FTP_TLS=1 PYTHON=$PYTHON exec Benchmarks/ftp-sessions.sh "$@"
