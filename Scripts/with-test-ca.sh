#!/usr/bin/env bash
# Runs one command so that it trusts a test CA, without root and without touching the system's trust
# store: the command runs in a user and mount namespace of its own (unshare), where the system's CA
# bundle is replaced by a copy that adds the CA. Nothing outside the command's process tree changes,
# so there is nothing to undo.
#
#   Scripts/with-test-ca.sh -- swift test                 a CA made in .build/trusted-tls (once) of the
#                                                         package run from (the nearest folder up from
#                                                         the current one with a Package.swift), its
#                                                         folder in MOCKSERVER_TRUSTED_TLS_DIR
#   Scripts/with-test-ca.sh --dir DIR -- COMMAND...       the CA made (once) in DIR instead
#   Scripts/with-test-ca.sh --ca FILE -- COMMAND...       trust FILE (a PEM CA) instead
#
# From a package that depends on MockServer, run the checkout's copy from that package's folder; the
# CA goes into that package's .build, never into the dependency's:
#
#   swift package resolve && .build/checkouts/MockServer/Scripts/with-test-ca.sh -- swift test
#
# Why: FoundationNetworking's URLSession on Linux trusts only the bundle its libcurl was built with
# (/etc/ssl/certs/ca-certificates.crt on Debian and Ubuntu); SSL_CERT_FILE, SSL_CERT_DIR,
# CURL_CA_BUNDLE and URLSessionCertificateAuthorityInfoFile are all ignored (README, Platforms).
# Serve the made folder's server.pem with server.key (TLSSettings.Identity(certificateFile:
# privateKeyFile:)), or a server whose CA is FILE. Inside, the command runs as root of its own
# namespace (your own user outside it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage="usage: Scripts/with-test-ca.sh [--ca FILE | --dir DIR] -- COMMAND..."
ca=""
dir="${MOCKSERVER_TRUSTED_TLS_DIR:-}"
while [ "$#" -gt 0 ]; do
    case "$1" in
        --ca) ca="${2:?$usage}"; shift 2 ;;
        --dir) dir="${2:?$usage}"; shift 2 ;;
        --) shift; break ;;
        *) echo "with-test-ca: unexpected \"$1\"; $usage" >&2; exit 64 ;;
    esac
done
[ "$#" -gt 0 ] || { echo "with-test-ca: no command; $usage" >&2; exit 64; }

# The bundle libcurl and OpenSSL read: the first that exists (Debian and Ubuntu, then Fedora, then SUSE).
bundle=""
for candidate in /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt /etc/ssl/ca-bundle.pem; do
    if [ -f "$candidate" ]; then bundle="$candidate"; break; fi
done
[ -n "$bundle" ] || { echo "with-test-ca: no system CA bundle found (looked for /etc/ssl/certs/ca-certificates.crt, /etc/pki/tls/certs/ca-bundle.crt, /etc/ssl/ca-bundle.pem)" >&2; exit 1; }

command -v unshare >/dev/null || { echo "with-test-ca: unshare is missing (util-linux)" >&2; exit 1; }
if ! probe="$(unshare --user --map-root-user --mount true 2>&1)"; then
    echo "with-test-ca: user namespaces are not available here (unshare --user --map-root-user --mount: ${probe:-failed})." >&2
    echo "  They must be enabled (sysctl user.max_user_namespaces > 0; on Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0; in a container, a seccomp profile that allows unshare)." >&2
    echo "  Otherwise: Scripts/trust-test-ca.sh DIR as root (undo: Scripts/trust-test-ca.sh --remove), or an in-process session (server.makeInProcessSession()), which needs no TLS." >&2
    exit 69
fi

if [ -z "$ca" ]; then
    if [ -z "$dir" ]; then
        # The package run from, not the one this script is in: run from a package that depends on
        # MockServer, the script is in .build/checkouts/MockServer, and the CA is the caller's.
        package="$PWD"
        while [ ! -f "$package/Package.swift" ] && [ "$package" != / ]; do package="$(dirname "$package")"; done
        if [ ! -f "$package/Package.swift" ]; then
            echo "with-test-ca: no Package.swift in $PWD or above it; run it from your package's folder, or give the CA's folder: --dir DIR" >&2
            exit 64
        fi
        dir="$package/.build/trusted-tls"
    fi
    if [ ! -f "$dir/ca.pem" ] || [ ! -f "$dir/server.pem" ] || [ ! -f "$dir/server.key" ]; then
        "$here/trust-test-ca.sh" --make "$dir" >&2
    fi
    dir="$(cd "$dir" && pwd)"
    ca="$dir/ca.pem"
    export MOCKSERVER_TRUSTED_TLS_DIR="$dir"
fi
[ -r "$ca" ] || { echo "with-test-ca: cannot read the CA \"$ca\"" >&2; exit 66; }
grep -q -- "-----BEGIN CERTIFICATE-----" "$ca" || { echo "with-test-ca: \"$ca\" holds no PEM certificate" >&2; exit 65; }

joined="$(mktemp "${TMPDIR:-/tmp}/with-test-ca.XXXXXX.pem")"
trap 'rm -f "$joined"' EXIT
cat "$bundle" > "$joined"
printf '\n' >> "$joined"
cat "$ca" >> "$joined"

# Not `exec`: the joined bundle is removed when the command ends, and its status is passed on.
status=0
unshare --user --map-root-user --mount sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' with-test-ca "$joined" "$bundle" "$@" || status=$?
exit "$status"
