#!/usr/bin/env bash
# Makes a test CA, and a server certificate it signs for 127.0.0.1, ::1 and localhost, in DIR, and adds
# the CA to the system's trust store (Debian and Ubuntu: update-ca-certificates; needs root). Clients
# that trust only the store, such as FoundationNetworking's URLSession on Linux, then trust a MockServer
# that serves DIR/server.pem with DIR/server.key (TLSSettings.Identity(certificateFile:privateKeyFile:), or
# mockserver --tls --tls-cert DIR/server.pem --tls-key DIR/server.key). CI runs it, and the URLSession
# https tests read DIR from MOCKSERVER_TRUSTED_TLS_DIR.
#
#   Scripts/trust-test-ca.sh /tmp/mockserver-tls && export MOCKSERVER_TRUSTED_TLS_DIR=/tmp/mockserver-tls
#   Scripts/trust-test-ca.sh --remove          takes the CA out of the store again (root)
#   Scripts/trust-test-ca.sh --make DIR        only makes the CA and certificate (no store, no root),
#                                              as Scripts/with-test-ca.sh does to trust them without root
set -euo pipefail
store=/usr/local/share/ca-certificates
installed="$store/mockserver-trusted-test-ca.crt"
need_store() {
    command -v update-ca-certificates >/dev/null || { echo "trust-test-ca: update-ca-certificates is missing (apt-get install ca-certificates)" >&2; exit 1; }
    [ -w "$store" ] || { echo "trust-test-ca: $store is not writable: run as root, or trust the CA for one command without root: Scripts/with-test-ca.sh -- swift test" >&2; exit 1; }
}
mode=install
case "${1:-}" in
    --remove)
        need_store
        if [ ! -e "$installed" ]; then echo "trust-test-ca: no MockServer test CA in the store ($installed); nothing to remove"; exit 0; fi
        rm -f "$installed"
        update-ca-certificates --fresh >/dev/null 2>&1
        echo "trust-test-ca: removed $installed from the system store"
        exit 0 ;;
    --make) mode=make; shift ;;
esac
dir=${1:?usage: Scripts/trust-test-ca.sh [--make] DIR | --remove}
[ "$mode" = make ] || need_store
mkdir -p "$dir"
curve=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
openssl req -x509 "${curve[@]}" -days 7 -subj "/O=MockServer/CN=MockServer Trusted Test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null
openssl req "${curve[@]}" -subj "/O=MockServer/CN=localhost" -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=critical,CA:FALSE\n' > "$dir/server.ext"
openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 7 \
    -extfile "$dir/server.ext" -out "$dir/server.pem" 2>/dev/null
if [ "$mode" = make ]; then echo "trust-test-ca: made $dir/ca.pem and $dir/server.pem (not in the store)"; exit 0; fi
cp "$dir/ca.pem" "$installed"
update-ca-certificates >/dev/null 2>&1
openssl verify "$dir/server.pem" >/dev/null || { echo "trust-test-ca: the store does not trust $dir/server.pem" >&2; exit 1; }
echo "trust-test-ca: $dir/ca.pem is in the system store; serve $dir/server.pem with $dir/server.key"
