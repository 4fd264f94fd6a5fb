#!/usr/bin/env bash
# Runs the whole test suite N times in a row (default 20) and stops at the first failure, to show
# that no test is flaky. Builds once, then reuses the build.
#   Scripts/repeat-tests.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
swift build --build-tests
for run in $(seq 1 "$runs"); do
    if ! output=$(swift test --skip-build 2>&1); then
        echo "$output" | grep -E "✘|error|failed" | head -40
        echo "repeat-tests: run $run of $runs failed"
        exit 1
    fi
    echo "repeat-tests: run $run of $runs: $(echo "$output" | grep -E "Test run with" | tail -1)"
done
echo "repeat-tests: $runs runs passed"
