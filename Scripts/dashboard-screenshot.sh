#!/usr/bin/env bash
# Makes Docs/dashboard.png, the README's picture of the dashboard, with the command Docs/Admin.md
# gives (`chromium --headless --screenshot`): the bundled Responses/http.json under --admin, a request,
# a set switched through the control API, a second request and a stored file, then the picture.
# Needs chromium and curl.
#   Scripts/dashboard-screenshot.sh [OUT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-Docs/dashboard.png}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
swift build --product mockserver
mockserver="$(swift build --show-bin-path)/mockserver"
folder="$(mktemp -d)"
mkfifo "$folder/lines"
"$mockserver" --admin Responses/http.json > "$folder/lines" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$folder"' EXIT
exec 3< "$folder/lines"
read -r _ _ _ address <&3   # mockserver listening on 127.0.0.1:PORT
read -r _ _ _ admin <&3     # mockserver admin on http://127.0.0.1:PORT/

curl -s -o /dev/null -u user:pass "http://$address/orders/42"
curl -s -o /dev/null -H "Content-Type: application/json" -d '{"name": "unauthorized"}' "${admin}set"
curl -s -o /dev/null -u user:pass "http://$address/orders/43"
curl -s -o /dev/null -X PUT -H "Content-Type: application/octet-stream" --data-binary "hello" "${admin}files/docs/note.txt"

sandbox=()
[ "$(id -u)" = 0 ] && sandbox=(--no-sandbox)
chromium --headless "${sandbox[@]}" --user-data-dir="$folder/profile" --screenshot="$out" --window-size=1280,860 "$admin"
echo "dashboard-screenshot: $out"
