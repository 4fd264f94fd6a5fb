#!/usr/bin/env bash
# The in-process row against WeTransfer's Mocker (a URLProtocol stub library) and a bare constant
# URLProtocol, in alternating rounds of one run:
#
#   MOCKER_DIR=/path/to/Mocker Benchmarks/urlsession-mocker.sh [REQUESTS] [ROUNDS]
#
# MockServer has no package dependencies and CI reaches no GitHub, so Mocker is not bundled: clone
# https://github.com/WeTransfer/Mocker (it builds on Linux through FoundationNetworking) and name
# it in MOCKER_DIR. The script writes a package under .build/bench-mocker that depends on this
# checkout and on Mocker by path, with Benchmarks/urlsession-mocker/main.swift and the two files of
# Sources/mockserver-bench it shares (linked, not copied), builds it in release and runs it.
# It prints one line a level of parallelism (1 and 8): each side's requests/s, then
# in-process/mocker, in-process/constant and mocker/constant, as ratios of the means and as the
# medians of the rounds' ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
requests=${1:-1500}
rounds=${2:-9}
if [[ -z "${MOCKER_DIR:-}" || ! -f "${MOCKER_DIR}/Package.swift" ]]; then
    echo "urlsession-mocker.sh: set MOCKER_DIR to a checkout of https://github.com/WeTransfer/Mocker (MOCKER_DIR='${MOCKER_DIR:-}' has no Package.swift)" >&2
    exit 64
fi
mocker=$(cd "$MOCKER_DIR" && pwd)
bench="$root/.build/bench-mocker"
mkdir -p "$bench/Sources/urlsession-mocker"
cat > "$bench/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "urlsession-mocker",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "$root"), .package(path: "$mocker")],
    targets: [
        .executableTarget(name: "urlsession-mocker", dependencies: [
            .product(name: "MockServer", package: "$(basename "$root")"),
            .product(name: "Mocker", package: "$(basename "$mocker")"),
        ]),
    ]
)
MANIFEST
ln -sf "$root/Benchmarks/urlsession-mocker/main.swift" "$bench/Sources/urlsession-mocker/main.swift"
ln -sf "$root/Sources/mockserver-bench/URLSessionRounds.swift" "$bench/Sources/urlsession-mocker/URLSessionRounds.swift"
ln -sf "$root/Sources/mockserver-bench/ConstantURLProtocol.swift" "$bench/Sources/urlsession-mocker/ConstantURLProtocol.swift"
swift build -c release --package-path "$bench" --product urlsession-mocker >&2
"$bench/.build/release/urlsession-mocker" "$requests" "$rounds"
