#!/bin/sh
# Writes the top-level public type names of the server-side Swift packages a test file imports beside
# MockServer (swift-nio's NIOCore, NIOPosix, NIOHTTP1, NIOWebSocket, NIOEmbedded, NIOConcurrencyHelpers,
# NIOFoundationCompat, NIOTLS; NIOHTTP2 and NIOHPACK; NIOSSL; AsyncHTTPClient; swift-http-types;
# Hummingbird and its HTTP/2, TLS, testing and WebSocket modules; Vapor, its testing modules,
# RoutingKit and WebSocketKit; FlyingFox and FlyingSocks), one a line, sorted, to standard output.
# PackageLayoutTests holds that no public type of ours has one of these names: commit the output as
# Tests/PackageLayoutTests/ServerSideTypeNames.txt.
#
#   Scripts/server-side-type-names.sh [MIRROR] > Tests/PackageLayoutTests/ServerSideTypeNames.txt
#
# MIRROR holds bare clones as OWNER/NAME.git (default /opt/swift-packages, this machine's offline copy);
# each package is read at the version named below. A name is taken when a line at the top level of a
# file declares it `public` or `open` (struct, enum, class, protocol, actor, typealias), which is what
# an unqualified use in a user's file can meet. `@_exported import struct M.T` lines count too.
set -eu
mirror=${1:-/opt/swift-packages}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
take() { # repository version folder...
    repository=$1 version=$2
    shift 2
    mkdir -p "$work/$repository"
    git -C "$mirror/$repository.git" archive "$version" "$@" | tar -x -C "$work/$repository"
}
take apple/swift-nio 2.101.3 Sources/NIOCore Sources/NIOPosix Sources/NIOHTTP1 Sources/NIOWebSocket Sources/NIOEmbedded \
    Sources/NIOConcurrencyHelpers Sources/NIOFoundationCompat Sources/NIOTLS
take apple/swift-nio-http2 1.46.0 Sources/NIOHTTP2 Sources/NIOHPACK
take apple/swift-nio-ssl 2.37.6 Sources/NIOSSL
take apple/swift-http-types 1.8.0 Sources
take swift-server/async-http-client 1.37.0 Sources/AsyncHTTPClient
take hummingbird-project/hummingbird 2.28.1 Sources/Hummingbird Sources/HummingbirdCore Sources/HummingbirdHTTP2 \
    Sources/HummingbirdTLS Sources/HummingbirdTesting
take hummingbird-project/hummingbird-websocket 2.8.1 Sources
take hummingbird-project/swift-websocket 1.6.2 Sources
take vapor/vapor 4.122.3 Sources/Vapor Sources/XCTVapor Sources/VaporTesting
take vapor/routing-kit 4.9.3 Sources
take vapor/websocket-kit 2.16.2 Sources
take swhitty/FlyingFox 0.27.1 FlyingFox/Sources FlyingSocks/Sources
find "$work" -name '*.swift' -exec cat {} + |
    sed -n -E \
        -e 's/^(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*(public|open)[[:space:]]+((final|indirect|nonisolated)[[:space:]]+)*(class|struct|enum|protocol|actor|typealias)[[:space:]]+([A-Za-z_][A-Za-z0-9_]*).*/\7/p' \
        -e 's/^.*@_exported import (class|struct|enum|protocol|typealias) [A-Za-z0-9_]+\.([A-Za-z_][A-Za-z0-9_]*).*/\2/p' |
    LC_ALL=C sort -u
