#!/usr/bin/env bash
# Builds and runs Interop/, a package whose test file imports MockServerTesting beside swift-nio,
# NIOSSL, AsyncHTTPClient and Hummingbird and names both sides' types unqualified (issue 50: no
# public type of ours shares a name with theirs). It needs those packages, which a machine with an
# offline copy of them (or the network) resolves; a first build takes 3 to 5 minutes on two cores.
# It checks HEAD (a worktree of it in a temporary folder), so commit first. Not in .ci/run, for its
# time; run it before a change to a public type's name.
#
#     Scripts/interop-check.sh            # build and run the test
#     Scripts/interop-check.sh --build    # build only
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# What is committed is checked, not the working tree: a worktree of HEAD in a temporary folder,
# removed at exit.
tree="$(mktemp -d)"
cleanup() {
    git -C "$root" worktree remove --force "$tree/MockServer" 2>/dev/null || true
    rm -rf "$tree"
}
trap cleanup EXIT
git -C "$root" worktree add --quiet --detach "$tree/MockServer" HEAD
echo "interop-check: $(git -C "$tree/MockServer" log -1 --format='%h %s')"
# The Interop package names this package by the identity a folder called MockServer gives.
work="${INTEROP_WORK:-$root/.build-interop}"
mkdir -p "$work"
ln -sfn "$tree/MockServer" "$work/MockServer"
rm -rf "$work/Interop"
mkdir -p "$work/Interop"
cp -R "$tree/MockServer/Interop/Package.swift" "$tree/MockServer/Interop/Tests" "$work/Interop/"
cd "$work/Interop"
# The build outside the copied folders, so that it is kept from one run to the next.
if [ "${1:-}" = "--build" ]; then
    swift build --build-tests --scratch-path "$work/scratch"
else
    swift test --scratch-path "$work/scratch"
fi
