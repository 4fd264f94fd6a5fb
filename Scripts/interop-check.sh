#!/usr/bin/env bash
# Builds and runs Interop/, a package whose test file imports MockServerTesting beside swift-nio,
# NIOSSL, AsyncHTTPClient and Hummingbird and names both sides' types unqualified (issue 50: no
# public type of ours shares a name with theirs). It needs those packages, which a machine with an
# offline copy of them (or the network) resolves; a first build takes 3 to 5 minutes on two cores.
# Not in .ci/run, for its time; run it before a change to a public type's name.
#
#     Scripts/interop-check.sh            # build and run the test
#     Scripts/interop-check.sh --build    # build only
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# The Interop package names this package by the identity a folder called MockServer gives.
work="${INTEROP_WORK:-$root/.build-interop}"
mkdir -p "$work"
ln -sfn "$root" "$work/MockServer"
rm -rf "$work/Interop"
mkdir -p "$work/Interop"
cp -R "$root/Interop/Package.swift" "$root/Interop/Tests" "$work/Interop/"
cd "$work/Interop"
# The build outside the copied folder, so that it is kept from one run to the next.
if [ "${1:-}" = "--build" ]; then
    swift build --build-tests --scratch-path "$work/scratch"
else
    swift test --scratch-path "$work/scratch"
fi
