#!/usr/bin/env bash
# Makes Docs/dashboard.png, the README's picture of the dashboard, with the test that drives it in
# headless Chromium (Tests/Python/test_dashboard.py). Needs chromium and Python's websockets.
#   Scripts/dashboard-screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product mockserver
MOCKSERVER="$(swift build --show-bin-path)/mockserver" RESPONSES=Responses/http.json SCREENSHOT=Docs/dashboard.png \
    python3 Tests/Python/test_dashboard.py
echo "dashboard-screenshot: Docs/dashboard.png"
