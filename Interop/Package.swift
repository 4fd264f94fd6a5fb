// swift-tools-version:6.0
// A package of its own, beside the product (which has no dependencies): a test file that imports
// MockServerTesting next to swift-nio, NIOSSL, AsyncHTTPClient and Hummingbird and uses both sides'
// types unqualified, as a user's test target would (issue 50). `Scripts/interop-check.sh` builds and
// runs it from a folder where this repository's clone is named `MockServer`, the identity below.
import PackageDescription

let package = Package(
    name: "MockServerInterop",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(path: "../MockServer"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .testTarget(
            name: "InteropTests",
            dependencies: [
                .product(name: "MockServerTesting", package: "MockServer"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ]
)
