#!/usr/bin/env bash
# Type-checks the Darwin branch of every Swift file that calls libc against the macOS SDK's C
# headers, on Linux, so that what a Mac compiles has been compiled by something first.
#
#   Scripts/darwin-typecheck.sh              the project's libc-facing files (listed below)
#   Scripts/darwin-typecheck.sh FILE...      those files
#
# The headers are those PyPI's `ziglang` wheel ships for macOS (the 15.1 SDK's libc headers),
# fetched once into $DARWIN_HEADERS_CACHE (default ~/.cache/mockserver-darwin-headers). A `Darwin`
# module is made of them (Scripts/darwin-sdk), with Overlay.swift for the names Swift's Darwin
# overlay adds. In copies of the files, `canImport(Glibc)` and `os(Linux)` become false and
# `canImport(Darwin)` true, so the Darwin branches are the ones checked, under Swift 6 strict
# concurrency: once with `os(macOS)` true, once with `os(iOS)` true and `os(macOS)` false. Foundation, Dispatch and the test frameworks do not exist for Darwin
# here: the files checked must not import them. So a file that does, such as the README's first
# hour (Tests/ReadmeSnippets/FirstHour.swift: Foundation, Testing, MockServerTesting), cannot be
# checked for iOS here; ReadmeTests.firstHourRunsOnIOS scans it for what an iOS test target lacks
# instead. Exit status: swiftc's (0 = clean; 2 for a file that imports such a library).
set -euo pipefail
cd "$(dirname "$0")/.."
cache="${DARWIN_HEADERS_CACHE:-$HOME/.cache/mockserver-darwin-headers}"
if [ "$#" -eq 0 ]; then
    set -- Sources/MockServerCore/Socket/*.swift Sources/MockServerTLS/OpenSSL/OpenSSLLibrary.swift Sources/MockServerTLS/TLSError.swift Tests/TestSupport/TestClient.swift Tests/TestSupport/ProcessResources.swift Tests/TestSupport/PipeReading.swift Tests/TestSupport/ChildProcess.swift Sources/MockServerTesting/URLSessionWebSockets.swift
fi

headers="$cache/wheel/ziglang/lib/libc/include/any-macos-any"
if [ ! -d "$headers" ]; then
    mkdir -p "$cache"
    python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$cache" 'ziglang==0.14.1'
    python3 -m zipfile -e "$cache"/ziglang-*.whl "$cache/wheel"
fi
clang_include="$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/clang/include"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for file in "$@"; do
    if grep -qE '^import (Foundation|Dispatch|Testing|XCTest)' "$file"; then
        echo "darwin-typecheck: $file imports a Swift library that has no Darwin build here; keep libc calls in files without it (a README snippet is scanned for iOS by ReadmeTests instead)" >&2
        exit 2
    fi
done

# Two passes: macOS, then iOS (which stands for tvOS and visionOS too: the package has no branch of
# theirs). The headers are the macOS SDK's for both, as the wheel has no iOS SDK: the iOS pass checks
# that the branches an iOS build takes (`os(macOS)` false, `os(iOS)` true) compile against Darwin's
# libc, not that iOS's headers declare every name.
status=0
for platform in macOS iOS; do
    rm -rf "$work/$platform"; mkdir "$work/$platform"
    if [ "$platform" = macOS ]; then ios=false; mac=true; else ios=true; mac=false; fi
    for file in "$@"; do
        sed -e 's/canImport(Glibc)/false/g' -e 's/os(Linux)/false/g' -e 's/canImport(Darwin)/true/g' \
            -e "s/os(macOS)/$mac/g" -e "s/os(iOS)/$ios/g" -e 's/os(tvOS)/false/g' -e 's/os(visionOS)/false/g' -e 's/os(watchOS)/false/g' \
            -e '/^import CMockServerLinux$/d' "$file" > "$work/$platform/$(basename "$file")"
    done
    cp Scripts/darwin-sdk/Overlay.swift "$work/$platform/"
    echo "darwin-typecheck: $# files, $platform branches, against $headers"
    swiftc -typecheck -wmo -swift-version 6 -module-name DarwinTypecheck -package-name MockServer -I Scripts/darwin-sdk \
        -Xcc -nostdinc -Xcc -isystem -Xcc "$clang_include" -Xcc -isystem -Xcc "$headers" \
        -Xcc -U__linux__ -Xcc -U__linux -Xcc -Ulinux -Xcc -U__gnu_linux__ -Xcc -D__APPLE__ -Xcc -D__MACH__ \
        -Xcc -D__ENVIRONMENT_MAC_OS_X_VERSION_MIN_REQUIRED__=130000 \
        "$work/$platform"/*.swift > "$work/log" 2>&1 && pass=0 || pass=$?
    grep -v 'libc not found' "$work/log" || true
    if [ "$pass" -eq 0 ]; then echo "darwin-typecheck: $platform clean"; else status=$pass; fi
done
exit "$status"
