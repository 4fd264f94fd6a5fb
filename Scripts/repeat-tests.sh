#!/usr/bin/env bash
# Runs the whole test suite N times in a row (default 20) and stops at the first failure, to show
# that no test is flaky. Builds once, then reuses the build.
#   Scripts/repeat-tests.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
swift build --build-tests
for run in $(seq 1 "$runs"); do
    status=0
    output=$(swift test --skip-build 2>&1) || status=$?
    if [ "$status" -ne 0 ]; then
        # The whole output is kept; a crash's backtrace (the frames in this package's code) is shown.
        printf '%s\n' "$output" > .build/repeat-tests-failure.log
        # sed reads all its input, so the pipeline cannot die of SIGPIPE under pipefail.
        printf '%s\n' "$output" | grep -E "^✘|Test Case .* failed|Fatal error|Crash|signal" | sed -n '1,60p' || true
        printf '%s\n' "$output" | tr '\r' '\n' | grep -E "crashed|Thread [0-9]+ crashed| at /.*/(Sources|Tests)/" | sed -n '1,40p' || true
        printf '%s\n' "$output" | tail -n 5
        echo "repeat-tests: run $run of $runs failed (exit status $status)"
        exit 1
    fi
    echo "repeat-tests: run $run of $runs: $(echo "$output" | grep -E "Test run with" | tail -1)"
done
echo "repeat-tests: $runs runs passed"
